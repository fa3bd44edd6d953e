import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { preloadAll } from './app/screens.tsx';
import { sessionStore } from './lib/session.ts';

// a render of the whole app takes a second or two; on a shared 2-core machine ten times that
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

// screens are code-split (React.lazy); loaded ahead, they render at once as in a warm browser
beforeAll(async () => {
  await preloadAll();
});

afterEach(() => {
  cleanup();
  sessionStore.clear();
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

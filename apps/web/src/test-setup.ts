import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { preloadAll } from './app/screens.tsx';
import { sessionStore } from './lib/session.ts';

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

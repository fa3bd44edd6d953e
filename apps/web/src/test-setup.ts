import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { preloadAll } from './app/screens.tsx';
import { sessionStore } from './lib/session.ts';
import { impossibleAnswers } from './test-utils.tsx';

// a render of the whole app takes a second or two; on a shared 2-core machine ten times that
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

// screens are code-split (React.lazy); loaded ahead, they render at once as in a warm browser
beforeAll(async () => {
  await preloadAll();
});

afterEach(() => {
  cleanup();
  // a fake server's success must be one the real one could give (test-utils.tsx, mockApi)
  const wrong = impossibleAnswers.splice(0);
  if (wrong.length) throw new Error(`The fake server answered what the API never would:\n${wrong.join('\n')}`);
  sessionStore.clear();
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['specs/**/*.e2e.ts'],
    globalSetup: ['./lib/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // one browser journey at a time: they share one server
    fileParallelism: false,
  },
});

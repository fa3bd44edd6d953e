import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // each file gets its own database; PGlite is CPU-bound, so keep files from starving each other
    pool: 'forks',
    maxWorkers: 2,
  },
});

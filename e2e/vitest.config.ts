import { defineConfig } from 'vitest/config';

// End-to-end tests: the built web app served by the real server (embedded database, fresh data
// folder), driven by Debian's Chromium through playwright-core. One fork, files in sequence.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Each file opens its own database; two at a time fit two cores.
    maxWorkers: 2,
    minWorkers: 1,
  },
});

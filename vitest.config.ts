import { defineConfig } from 'vitest/config';

// Each workspace with tests has its own vitest.config.ts; this file runs them all as projects.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
  },
});

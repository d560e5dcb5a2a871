import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    setupFiles: ['./test/setup.ts'],
    // The first render of a page imports MUI and the app in jsdom: seconds on a loaded 2-core
    // machine (the app shell's first test took over 5 s with load average 24). No test asserts time.
    testTimeout: 30_000,
  },
});

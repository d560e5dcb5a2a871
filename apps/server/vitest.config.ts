import { configDefaults, defineConfig } from 'vitest/config';

/** The test that bounds the RSS of its own process while 768 MB go through its server. */
const MEMORY = 'test/large-upload.test.ts';
/**
 * Files to leave out, comma-separated globs (scripts/test-all.sh's TEST_COMPAT pass). The command
 * line's --exclude does not reach the projects below.
 */
const skipped = (process.env.SERVER_TEST_EXCLUDE ?? '').split(',').filter(Boolean);

export default defineConfig({
  test: {
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Each file opens its own database; two at a time fit two cores.
    maxWorkers: 2,
    minWorkers: 1,
    exclude: [...configDefaults.exclude, ...skipped],
    projects: [
      { extends: true, test: { name: 'server', exclude: [...configDefaults.exclude, ...skipped, MEMORY] } },
      {
        extends: true,
        // On Node 24 (V8 13.6) the optimizing Wasm compiler takes ~600 MB for a few seconds to
        // compile the embedded database's SQL parser (see NODE_ARGS in tus-large.test.ts), about
        // when this test's upload starts; on the baseline compiler what it measures is the upload.
        test: { name: 'upload-memory', include: [MEMORY], execArgv: ['--liftoff-only', '--expose-gc'] },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

/** Unit and API tests of the server-side packages; the web app's end-to-end tests have their own config. */
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/{pipeline,server,cli}/src/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // Each worker process runs many files and keeps the modules they import (and PGlite's migrated
    // template) between them: isolating every file re-imported the server for each one, about 40 % of
    // the suite's time (ADR 0047). So a test file must leave no state behind: module-level fixtures are
    // reset in their own beforeAll, and process.env is left as found (vitest.setup.ts fails a file that
    // changes it).
    isolate: false,
    setupFiles: ['vitest.setup.ts'],
  },
});

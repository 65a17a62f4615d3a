import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The tests of the server-side packages meet no database (`pure`: maths, decoders, the sandbox pool,
 * configuration) or do (`db`). CI runs `db` a second time on the PostgreSQL server (ADR 0064); `pure` runs
 * once, and opening a database there fails (ANTARES_FORBID_DATABASE), so a test cannot sit in the wrong
 * lane unnoticed. A new test file is in `db` unless its folder is listed here.
 */
const PURE = [
  'packages/astro/src/**/*.test.ts',
  'packages/contract/src/**/*.test.ts',
  'packages/db/src/cutout-packs.test.ts',
  'apps/cli/src/bench/**/*.test.ts',
  'apps/pipeline/src/{fits,properties,sources,filters/pool}/**/*.test.ts',
  'apps/pipeline/src/simulate/!(simulate-rubin).test.ts',
  'apps/pipeline/src/backtest/results.test.ts',
  'apps/pipeline/src/filters/filter-order.test.ts',
  'apps/pipeline/src/gw/notice.test.ts',
  'apps/pipeline/src/stages/stages.test.ts',
  'apps/server/src/{auth,services}/**/*.test.ts',
  'apps/server/src/config-*.test.ts',
];

/** Unit and API tests of the server-side packages; the web app's end-to-end tests have their own config. */
export default defineConfig({
  test: {
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
    projects: [
      { extends: true, test: { name: 'pure', include: PURE, env: { ANTARES_FORBID_DATABASE: '1' } } },
      {
        extends: true,
        test: {
          name: 'db',
          include: ['packages/*/src/**/*.test.ts', 'apps/{pipeline,server,cli}/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...PURE],
        },
      },
    ],
  },
});

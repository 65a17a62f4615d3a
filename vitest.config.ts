import { defineConfig } from 'vitest/config';

/** Unit and API tests of the server-side packages; the web app's end-to-end tests have their own config. */
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/{pipeline,server,cli}/src/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});

import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests: a real `antares serve` (started by the global setup on a free port, over a
 * small simulated survey) serving the built app, driven in Debian's Chromium with playwright-core.
 */
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    // One browser and one server: run files one after another.
    fileParallelism: false,
    pool: 'forks',
    reporters: ['default'],
  },
});

import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

/** Unit tests of the pure modules (query model, search controls, lightcurve parsing); no browser. */
export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});

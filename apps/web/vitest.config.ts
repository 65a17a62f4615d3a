import { defineConfig } from 'vitest/config';

/** Unit tests of the pure modules (query model, search controls, lightcurve parsing); no browser. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});

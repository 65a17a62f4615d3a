import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dev and preview servers forward API and runtime-config calls to a running `antares serve`
// (ANTARES_API_TARGET, default http://localhost:8080), so the app talks to one origin exactly like
// the built app served by the API server. The Host header is kept (no changeOrigin) so the URLs the
// server writes into documents (apiURL, links.next, thumbnail src) point back at this proxy.
const apiTarget = process.env.ANTARES_API_TARGET ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  // `@/lib/time` is src/lib/time: imports read the same from every folder depth.
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  base: '/',
  server: {
    proxy: {
      '/v1': { target: apiTarget },
      '/config.json': { target: apiTarget },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
  },
});

import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers with a Content-Security-Policy the web app itself passes: scripts from our origin plus
 * Aladin Lite's site (the one thing the spec loads at run time), images from anywhere (survey cutouts
 * and sky tiles), no framing.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const aladin = ['https://aladin.cds.unistra.fr', 'https://aladin.u-strasbg.fr', 'https://code.jquery.com'];
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...aladin],
        styleSrc: ["'self'", "'unsafe-inline'", ...aladin],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", 'https:'],
        fontSrc: ["'self'", 'data:', ...aladin],
        workerSrc: ["'self'", 'blob:'],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // The app is also served over plain http on localhost; HSTS would break that.
    strictTransportSecurity: false,
  });
}

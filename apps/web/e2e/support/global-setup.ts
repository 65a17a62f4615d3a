import type { TestProject } from 'vitest/node';

import { chromiumAvailable, MISSING_CHROMIUM } from './chromium';
import { startAntares } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The server's data folder when the tests started the server ('' for ANTARES_E2E_BASE_URL). */
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  if (!chromiumAvailable) {
    if (process.env.CI === 'true') throw new Error(MISSING_CHROMIUM);
    project.provide('baseURL', '');
    project.provide('dataDir', '');
    return;
  }
  // An app that is already running (a deployment, or `vite preview` in front of a server) can be
  // tested instead of starting one.
  if (process.env.ANTARES_E2E_BASE_URL) {
    project.provide('baseURL', process.env.ANTARES_E2E_BASE_URL.replace(/\/$/, ''));
    project.provide('dataDir', '');
    return;
  }
  const server = await startAntares();
  project.provide('baseURL', server.url);
  project.provide('dataDir', server.dataDir);
  return () => server.stop();
}

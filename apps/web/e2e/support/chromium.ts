import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const chromiumAvailable = existsSync(CHROMIUM_PATH);
export const MISSING_CHROMIUM = `Chromium is missing (${CHROMIUM_PATH}); install it with: apt-get install -y chromium`;

/** Skips the suite with a message naming what is missing, but fails it under CI=true. */
export function requireChromium(): boolean {
  if (chromiumAvailable) return true;
  if (process.env.CI === 'true') throw new Error(MISSING_CHROMIUM);
  console.warn(`SKIPPED end-to-end tests: ${MISSING_CHROMIUM}`);
  return false;
}

export interface BrowserSession {
  context: BrowserContext;
  downloadsDir: string;
  close(): Promise<void>;
}

/** A fresh Chromium profile (own --user-data-dir) per session. */
export async function launchBrowser(): Promise<BrowserSession> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'antares-e2e-profile-'));
  const downloadsDir = mkdtempSync(path.join(tmpdir(), 'antares-e2e-downloads-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    acceptDownloads: true,
    downloadsPath: downloadsDir,
    viewport: { width: 1400, height: 1000 },
  });
  // Nothing but the app's own origin may be fetched in tests (Aladin Lite must fall back to its placeholder).
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  return {
    context,
    downloadsDir,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
      rmSync(downloadsDir, { recursive: true, force: true });
    },
  };
}

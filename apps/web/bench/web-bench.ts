import path from 'node:path';
import { gzipSync } from 'node:zlib';

import type { Page } from 'playwright-core';

import { chromiumAvailable, launchBrowser, MISSING_CHROMIUM } from '../e2e/support/chromium';
import { startAntares } from '../e2e/support/server';

/**
 * `npm run bench -- web [--url URL] [--runs N]`: in Chromium, on the e2e survey (or, with --url, a running
 * server such as `npm start`'s demo),
 * prints the gzipped JavaScript each route loads (the files as the server sent them, so --url measures
 * that deployment's build) and the time from navigation start to the first locus row and to the
 * lightcurve being drawn (median of N runs).
 */
const ROUTES = [
  '/loci',
  '/loci/{locus}',
  '/tags',
  '/catalogs',
  '/gw-events',
  '/properties',
  '/pipeline',
  '/faq',
  '/support',
  '/team',
  '/login',
  '/favorite-loci',
];

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const gzipCache = new Map<string, number>();

/** Loads a route in a fresh page; returns the gzipped size (level 9) of each of the app's JavaScript files it fetched. */
async function scriptsOf(page: Page, url: string): Promise<Map<string, number>> {
  const scripts = new Map<string, Promise<number>>();
  page.on('response', (response) => {
    const pathname = new URL(response.url()).pathname;
    if (!pathname.startsWith('/assets/') || !pathname.endsWith('.js') || scripts.has(pathname)) return;
    scripts.set(
      pathname,
      gzipCache.has(pathname)
        ? Promise.resolve(gzipCache.get(pathname)!)
        : response.body().then((body) => {
            const size = gzipSync(body, { level: 9 }).length;
            gzipCache.set(pathname, size);
            return size;
          }),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  const sizes = new Map<string, number>();
  for (const [pathname, size] of scripts) sizes.set(pathname, await size);
  return sizes;
}

/**
 * Milliseconds from navigation start until the first element matching `selector` is on screen, by the
 * page's own clock: a MutationObserver notes when it is added, and the next frame after that is when
 * it was painted. (Reading performance.now() after Playwright's waitForSelector also counted the
 * test driver's polling and round trip, a few hundred ms on a busy machine.)
 */
async function timeTo(page: Page, url: string, selector: string): Promise<number> {
  await page.addInitScript((wanted: string) => {
    const seen = new MutationObserver(() => {
      if (!document.querySelector(wanted)) return;
      seen.disconnect();
      requestAnimationFrame(() => setTimeout(() => ((window as { paintedAt?: number }).paintedAt = performance.now())));
    });
    seen.observe(document, { childList: true, subtree: true });
  }, selector);
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => (window as { paintedAt?: number }).paintedAt !== undefined, undefined, { timeout: 60_000 });
  return page.evaluate(() => (window as { paintedAt?: number }).paintedAt!);
}

export async function benchWeb(args: string[]): Promise<void> {
  if (!chromiumAvailable) throw new Error(MISSING_CHROMIUM);
  const runs = Number(option(args, '--runs') ?? 5);
  const external = option(args, '--url');
  const server = external ? { url: external.replace(/\/$/, ''), stop: () => undefined } : await startAntares();
  const browser = await launchBrowser();
  try {
    const probe = await browser.context.newPage();
    const response = await probe.request.get(`${server.url}/v1/loci?page%5Blimit%5D=1&sort=-properties.num_mag_values`);
    const locusId = ((await response.json()) as { data: { id: string }[] }).data[0]?.id;
    await probe.close();
    if (!locusId) throw new Error('the server has no loci: seed the demo data first');

    console.log(`gzipped JavaScript per route (${server.url}):`);
    for (const route of ROUTES) {
      const page = await browser.context.newPage();
      const scripts = await scriptsOf(page, `${server.url}${route.replace('{locus}', locusId)}`);
      await page.close();
      const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
      console.log(`  ${route.padEnd(16)} ${(total / 1024).toFixed(1).padStart(7)} KB in ${scripts.size} files`);
    }

    const rows: number[] = [];
    const lightcurves: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      for (const [url, selector, times] of [
        [`${server.url}/loci`, '[data-testid=locus-row]', rows],
        [`${server.url}/loci/${locusId}`, '[data-testid=lightcurve] g.mark', lightcurves],
      ] as const) {
        const page = await browser.context.newPage();
        times.push(await timeTo(page, url, selector));
        await page.close();
      }
    }
    console.log(
      `navigation -> first locus row painted: median ${median(rows).toFixed(0)} ms (${runs} runs: ${rows.map((v) => v.toFixed(0)).join(', ')})`,
    );
    console.log(
      `navigation -> lightcurve painted (${locusId}): median ${median(lightcurves).toFixed(0)} ms (${runs} runs: ${lightcurves.map((v) => v.toFixed(0)).join(', ')})`,
    );
  } finally {
    await browser.close();
    server.stop();
  }
}

// Run directly: `tsx bench/web-bench.ts [--url URL] [--runs N]`.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname, 'web-bench.ts')) {
  benchWeb(process.argv.slice(2)).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

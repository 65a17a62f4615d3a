import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { allRoutes, openRoute, type RouteCase, routeRecords, Visitors } from './support/all-routes';
import { baseURL, open } from './support/app';
import { describeViolations, seriousViolations } from './support/axe';
import { requireChromium } from './support/chromium';
import { usePage } from './support/page';

// The colour theme: Bootstrap's data-bs-theme on <html>, from the system's preference until the
// navbar toggle stores a choice (local storage 'antares.theme'); charts read in both.
const enabled = requireChromium();

const theme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-bs-theme'));
const stored = (page: Page) => page.evaluate(() => localStorage.getItem('antares.theme'));
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const toggle = (page: Page) => page.getByRole('button', { name: 'Dark theme' });

/**
 * The lowest contrast ratio (WCAG) of the text drawn in the page's charts against the page background,
 * with each text's painted fill as the browser computes it (CSS overrides included).
 */
async function lowestChartTextContrast(page: Page): Promise<{ ratio: number; text: string; fill: string }> {
  return page.evaluate(() => {
    const rgba = (colour: string) => (colour.match(/[\d.]+/g) ?? []).map(Number);
    const background = rgba(getComputedStyle(document.body).backgroundColor);
    const luminance = ([r, g, b]: number[]) => {
      const channel = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    let lowest = { ratio: Infinity, text: '', fill: '' };
    for (const node of document.querySelectorAll('main svg text')) {
      const style = getComputedStyle(node);
      if (!node.textContent?.trim() || style.visibility === 'hidden' || style.fill === 'none') continue;
      const [r, g, b, a = 1] = rgba(style.fill);
      const opacity = a * Number(style.opacity);
      const painted = [r, g, b].map((v, i) => v * opacity + background[i] * (1 - opacity));
      const [hi, lo] = [luminance(painted), luminance(background)].sort((x, y) => y - x);
      const ratio = (hi + 0.05) / (lo + 0.05);
      if (ratio < lowest.ratio) lowest = { ratio, text: node.textContent.trim(), fill: style.fill };
    }
    return lowest;
  });
}

describe.skipIf(!enabled)('colour theme', () => {
  let page: Page;
  let routes: RouteCase[] = [];

  usePage(async (opened) => {
    ({ page } = opened);
    routes = allRoutes(await routeRecords());
  });

  it('follows the system preference from the first paint, live, while no choice is stored', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    // Set before any of the app's modules run: the blocking theme script in <head> did it.
    await page.goto(`${baseURL()}/faq`, { waitUntil: 'domcontentloaded' });
    expect(await theme(page)).toBe('dark');
    await page.getByRole('heading', { name: 'Frequently Asked Questions' }).waitFor();
    expect(await bodyBackground(page)).toBe('rgb(33, 37, 41)');
    expect(await stored(page)).toBeNull();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForFunction(() => document.documentElement.getAttribute('data-bs-theme') === 'light');
    expect(await bodyBackground(page)).toBe('rgb(255, 255, 255)');
    await expect(toggle(page).getAttribute('aria-pressed')).resolves.toBe('false');
  });

  it('switches with the navbar toggle, remembers the choice over reloads, and forgets it when it matches the system', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await open(page, '/tags');
    await toggle(page).click();
    expect(await theme(page)).toBe('dark');
    await expect(toggle(page).getAttribute('aria-pressed')).resolves.toBe('true');
    expect(await stored(page)).toBe('"dark"');
    await page.reload({ waitUntil: 'domcontentloaded' });
    expect(await theme(page)).toBe('dark');
    // A stored choice wins over the system's.
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForLoadState('networkidle');
    expect(await theme(page)).toBe('dark');
    // Back to the system's own theme: nothing stored, the page follows the system again.
    await toggle(page).click();
    expect(await theme(page)).toBe('light');
    expect(await stored(page)).toBeNull();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.getAttribute('data-bs-theme') === 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('works the toggle from the keyboard', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await open(page, '/faq');
    await toggle(page).focus();
    await page.keyboard.press('Enter');
    expect(await theme(page)).toBe('dark');
    await page.keyboard.press('Space');
    expect(await theme(page)).toBe('light');
  });

  it('keeps the charts readable in the dark: chart text contrasts with the page at least 4.5:1', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const locus = routes.find((route) => route.path.startsWith('/loci/'))!;
    const gw = routes.find((route) => route.path.startsWith('/gw-events/'))!;
    for (const route of [locus, gw]) {
      await open(page, route.path);
      await page.locator(route.ready).first().waitFor();
      const lowest = await lowestChartTextContrast(page);
      expect(lowest.ratio, `${route.path}: '${lowest.text}' in ${lowest.fill}`).toBeGreaterThanOrEqual(4.5);
    }
    // The lightcurve's paper is the page's background, its axes in the text colour.
    await open(page, locus.path);
    await page.locator(locus.ready).first().waitFor();
    const chart = await page.evaluate(() => {
      const svg = document.querySelector('[data-testid=lightcurve]')!;
      return {
        paper: getComputedStyle(svg.querySelector('rect')!).fill,
        tick: getComputedStyle(svg.querySelector('.x-axis .tick text')!).fill,
        body: getComputedStyle(document.body).backgroundColor,
      };
    });
    expect(chart.paper).toBe(chart.body);
    expect(chart.tick).toBe('rgb(222, 226, 230)');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('has no serious or critical axe violation on any route in the dark theme', async () => {
    const visitors = new Visitors((visitor) => visitor.emulateMedia({ colorScheme: 'dark' }));
    try {
      const failures: string[] = [];
      for (const route of routes) {
        const visited = await openRoute(visitors, route);
        expect(await theme(visited), route.path).toBe('dark');
        const violations = await seriousViolations(visited);
        if (violations.length) failures.push(`${route.who} ${route.path}:\n${describeViolations(violations)}`);
      }
      expect(failures, failures.join('\n\n')).toEqual([]);
    } finally {
      await visitors.close();
    }
  }, 600_000);
});

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { allRoutes, openRoute, type RouteCase, routeRecords, Visitors } from './support/all-routes';
import { requireChromium } from './support/chromium';

// Every screen at 1280 and 1920 px, and the list and the locus page on a 390 px phone: the page never
// scrolls sideways; a table wider than its card scrolls inside the card with its first column (the ID
// or name) still in view.
const enabled = requireChromium();

interface Problem {
  what: string;
  detail: string;
}

/** Sideways page scroll, and wide tables that lose their first column when scrolled in their card. */
async function layoutProblems(page: Page): Promise<Problem[]> {
  return page.evaluate(() => {
    const problems: { what: string; detail: string }[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      // Name the widest elements that stick out, to say what to fix.
      const culprits = [...document.querySelectorAll('body *')]
        .filter(
          (node) => node.getBoundingClientRect().right > root.clientWidth + 1 && !node.closest('.table-responsive, [style*="overflow"]'),
        )
        .slice(-3)
        .map((node) => `${node.tagName.toLowerCase()}.${[...node.classList].join('.')}`);
      problems.push({ what: 'page scrolls sideways', detail: `${root.scrollWidth} > ${root.clientWidth}: ${culprits.join(', ')}` });
    }
    for (const card of document.querySelectorAll<HTMLElement>('.table-responsive')) {
      if (card.scrollWidth <= card.clientWidth + 1) continue;
      const firstCell = card.querySelector<HTMLElement>('tbody tr:first-child > :first-child');
      if (!firstCell) continue;
      card.scrollLeft = card.scrollWidth;
      const cardBox = card.getBoundingClientRect();
      const cellBox = firstCell.getBoundingClientRect();
      if (cellBox.left < cardBox.left - 1 || cellBox.right > cardBox.right + 1)
        problems.push({
          what: 'first column scrolled out of its card',
          detail: `${card.querySelector('table')?.id || 'table'}: ${firstCell.textContent}`,
        });
      card.scrollLeft = 0;
    }
    return problems;
  });
}

describe.skipIf(!enabled)('layout at 390, 1280 and 1920 px', () => {
  const visitors = new Visitors();
  let routes: RouteCase[] = [];

  beforeAll(async () => {
    routes = allRoutes(await routeRecords());
  });
  afterAll(async () => {
    await visitors.close();
  });

  for (const width of [1280, 1920]) {
    it(`fits every route at ${width} px`, async () => {
      const failures: string[] = [];
      for (const who of ['guest', 'user', 'admin'] as const) await (await visitors.page(who)).setViewportSize({ width, height: 900 });
      for (const route of routes) {
        const page = await openRoute(visitors, route);
        for (const problem of await layoutProblems(page)) failures.push(`${route.who} ${route.path}: ${problem.what} (${problem.detail})`);
      }
      expect(failures, failures.join('\n')).toEqual([]);
    }, 600_000);
  }

  it('fits the locus list and the locus page on a 390 px phone, their main content in view', async () => {
    const page = await visitors.page('guest');
    await page.setViewportSize({ width: 390, height: 844 });
    const list = routes.find((route) => route.path === '/loci')!;
    const locus = routes.find((route) => route.path.startsWith('/loci/'))!;

    await openRoute(visitors, list);
    expect(await layoutProblems(page)).toEqual([]);
    // The ID of the first locus is readable in full and the search panel is on the page.
    const id = page.locator('[data-testid=locus-row] td:first-child a').first();
    const box = (await id.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // The search panel is there too, its fields within the screen.
    await page.getByRole('heading', { name: 'Search', exact: true }).waitFor();
    for (const field of await page.locator('.locus-search-col :is(input, select, button):visible').all()) {
      const fieldBox = (await field.boundingBox())!;
      expect(fieldBox.x + fieldBox.width, await field.evaluate((node) => node.outerHTML.slice(0, 80))).toBeLessThanOrEqual(390);
    }

    await openRoute(visitors, locus);
    expect(await layoutProblems(page)).toEqual([]);
    const title = (await page.locator('main h1').first().boundingBox())!;
    expect(title.x + title.width).toBeLessThanOrEqual(390);
    // The lightcurve is at least its readable width and scrolls in its own box rather than squeezing.
    const chart = (await page.locator('[data-testid=lightcurve]').boundingBox())!;
    expect(chart.width).toBeGreaterThanOrEqual(300);
  }, 300_000);
});

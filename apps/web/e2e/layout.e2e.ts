import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { E2E_ACCOUNTS } from './support/accounts';
import { apiSession, expectNoSeriousViolations, firstLocusIds, login, open, registerAccount } from './support/app';
import { requireChromium } from './support/chromium';
import { usePage } from './support/page';

// Wide tables at laptop widths: the page never scrolls sideways; a table wider than its card scrolls
// inside the card with its first column (the ID) in view, and the locus list's Actions stay in view.
const enabled = requireChromium();
const WIDTHS = [1400, 1280];

/** The page scrolls sideways when its content is wider than the window. */
async function pageOverflow(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
}

/**
 * How much of an element is hidden: by the window, by the scrolling card (.table-responsive) it sits
 * in, or by its own text being cut (ellipsis). 0 when all of it shows.
 */
async function hiddenPixels(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const box = node.getBoundingClientRect();
    const clip = node.closest('.table-responsive')?.getBoundingClientRect() ?? new DOMRect(0, 0, window.innerWidth, window.innerHeight);
    const left = Math.max(clip.left, 0);
    const right = Math.min(clip.right, document.documentElement.clientWidth);
    const cutBySides = Math.max(0, left - box.left) + Math.max(0, box.right - right);
    const cutText = Math.max(0, node.scrollWidth - node.clientWidth);
    return Math.round(cutBySides + cutText);
  });
}

/** Scrolls the table's card fully to the right; returns how far it scrolled. */
async function scrollCardRight(table: Locator): Promise<number> {
  return table.evaluate((node) => {
    const card = node.closest('.table-responsive') as HTMLElement;
    card.scrollLeft = card.scrollWidth;
    return card.scrollLeft;
  });
}

describe.skipIf(!enabled)('layout at laptop widths', () => {
  let page: Page;

  usePage((opened) => ({ page } = opened));

  for (const width of WIDTHS) {
    it(`fits the locus list at ${width} px: no sideways page scroll, Actions and its hover buttons in full, the ID kept in view`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await open(page, '/loci');
      await firstLocusIds(page);
      const overflow = await pageOverflow(page);
      expect(overflow.scrollWidth).toBe(overflow.clientWidth);
      const actions = page.locator('table.locus-table thead th').filter({ hasText: /^Actions$/ });
      expect(await actions.textContent()).toBe('Actions');
      expect(await hiddenPixels(actions)).toBe(0);

      const row = page.locator('[data-testid=locus-row]').nth(1);
      await row.hover();
      const view = row.getByRole('link', { name: /^View ANT/ });
      await view.waitFor({ state: 'visible' });
      expect(await hiddenPixels(view)).toBe(0);
      expect(await hiddenPixels(row.getByRole('button', { name: /favorites|Login to save/ }))).toBe(0);

      // Scrolled inside its card (when it is wider than the card), the table keeps the ID and the Actions in view.
      const table = page.locator('table.locus-table');
      await scrollCardRight(table);
      expect(await hiddenPixels(row.locator('td').first().getByRole('link'))).toBe(0);
      expect(await hiddenPixels(actions)).toBe(0);
      await row.hover();
      expect(await hiddenPixels(view)).toBe(0);
      expect((await pageOverflow(page)).scrollWidth).toBe(overflow.clientWidth);
    });
  }

  it('fits Admin Filters with a long filter name and description at 1400 and 1280 px', async () => {
    const author = await registerAccount('e2e_layout_');
    const call = await apiSession(author);
    const me = (await (await call('/auth/check')).json()) as { identity?: string; user?: { id: string } };
    const userId = me.user?.id ?? me.identity;
    const name = `Layout check ${Date.now().toString(36)} with a rather long filter name`;
    const created = await call(`/users/${userId}/filters`, {
      method: 'POST',
      body: {
        data: {
          type: 'filter',
          attributes: { name, description: 'A description that goes on and on about what the filter does. '.repeat(20).trim() },
        },
      },
    });
    expect(created.status).toBe(201);

    await login(page, E2E_ACCOUNTS.admin);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await open(page, '/admin/filters');
      const row = page.locator('#admin-filter-table tbody tr').filter({ hasText: name });
      await row.waitFor();
      const overflow = await pageOverflow(page);
      expect(overflow.scrollWidth, `${width} px`).toBe(overflow.clientWidth);
      const enabledHeader = page.locator('#admin-filter-table thead th').filter({ hasText: /^Enabled$/ });
      expect(await hiddenPixels(enabledHeader), `${width} px`).toBe(0);
      // The last cell (the Enabled badge) shows in full; the description is what gives way.
      expect(await hiddenPixels(row.locator('td').last().locator('.badge')), `${width} px`).toBe(0);
      const description = row.locator('td .truncate-600');
      expect(await description.evaluate((node) => node.scrollWidth > node.clientWidth)).toBe(true);
      expect((await description.boundingBox())!.width).toBeLessThanOrEqual(600);
      // The name stays in view when the table scrolls inside its card.
      await scrollCardRight(page.locator('#admin-filter-table'));
      expect(await hiddenPixels(row.getByRole('link', { name }))).toBe(0);
    }
    await expectNoSeriousViolations(page);
  });
});

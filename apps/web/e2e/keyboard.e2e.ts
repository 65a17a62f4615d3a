import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { firstLocusIds, listQuery, open } from './support/app';
import { requireChromium } from './support/chromium';
import { usePage } from './support/page';

// The locus list, its search panel and the locus page worked with the keyboard alone: every control is
// reached with Tab (never clicked or focused by the test) and works with Enter, Space, the arrows or Escape.
const enabled = requireChromium();

const isFocused = (locator: Locator) => locator.evaluate((node) => node === document.activeElement);

/** Presses Tab (or Shift+Tab) until the element has the focus; fails if it is never reached. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 250 } = {}): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if ((await target.count()) > 0 && (await isFocused(target.first()))) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

/** Starts keyboard navigation from the top of the page, as after a fresh load. */
async function fromTop(page: Page): Promise<void> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
}

describe.skipIf(!enabled)('keyboard use', () => {
  let page: Page;

  usePage((opened) => ({ page } = opened));

  it('skips to the content, sorts, pages and opens a locus from the list', async () => {
    await open(page, '/loci');
    await firstLocusIds(page);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await isFocused(skip)).toBe(true);
    await page.keyboard.press('Enter');
    expect(new URL(page.url()).hash).toBe('#main');

    // A sortable header is a button: Enter sorts by it.
    const header = page.locator('table.locus-table thead button.sortable-header').first();
    const before = listQuery(page);
    await tabTo(page, header);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => JSON.stringify(JSON.parse(url.searchParams.get('query') ?? '{}')) !== JSON.stringify(before));
    expect([listQuery(page).sortBy, listQuery(page).sortDesc]).not.toEqual([before.sortBy, before.sortDesc]);

    // Pagination.
    const [firstOfPage1] = await firstLocusIds(page);
    await fromTop(page);
    await tabTo(page, page.getByRole('button', { name: 'Page 2', exact: true }));
    await page.keyboard.press('Enter');
    await page.waitForURL(() => listQuery(page).currentPage === 2);
    // The URL changes first; the rows are page 2's once the table is no longer busy and shows new loci.
    await page.locator('table.locus-table[aria-busy="false"]').waitFor();
    await page.waitForFunction(
      (previous) => document.querySelector('[data-testid=locus-row] td:first-child a')?.textContent !== previous,
      firstOfPage1,
    );

    // A row's actions show when its link has the focus, and are the next stops.
    const row = page.locator('[data-testid=locus-row]').first();
    const idLink = row.locator('td:first-child a');
    const locusId = (await idLink.textContent())!;
    await fromTop(page);
    await tabTo(page, idLink);
    const view = row.getByRole('link', { name: `View ${locusId}` });
    expect(await view.isVisible()).toBe(true);
    await tabTo(page, view, { max: 40 });
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/loci/${locusId}`);
  });

  it('fills the search panel and applies it: cone search, a catalog from the multi-select, the measurement slider', async () => {
    await open(page, '/loci');
    const [locusId] = await firstLocusIds(page);
    await fromTop(page);

    // The slider's lower thumb moves with the arrow keys.
    const minimum = page.getByRole('slider', { name: 'Minimum number of measurements' });
    await tabTo(page, minimum);
    const start = Number(await minimum.inputValue());
    await page.keyboard.press('ArrowRight');
    expect(Number(await minimum.inputValue())).toBe(start + 1);
    await page.keyboard.press('Home');
    expect(Number(await minimum.inputValue())).toBe(start);

    // The catalogs multi-select opens with Enter, its options are the next Tab stops, Space checks one, Escape closes it.
    const tags = page.locator('#catalogs-select');
    await tabTo(page, tags);
    await page.keyboard.press('Enter');
    await expect(tags.getAttribute('aria-expanded')).resolves.toBe('true');
    const firstTag = page.locator('[id^="catalogs-select-"][type=checkbox]').first();
    await tabTo(page, firstTag, { max: 3 });
    await page.keyboard.press('Space');
    expect(await firstTag.isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await expect(tags.getAttribute('aria-expanded')).resolves.toBe('false');
    expect(await isFocused(tags)).toBe(true);
    await page.keyboard.press('Space');
    await expect(tags.getAttribute('aria-expanded')).resolves.toBe('true');
    await tabTo(page, firstTag, { max: 3 });
    await page.keyboard.press('Space');
    expect(await firstTag.isChecked()).toBe(false);
    await page.keyboard.press('Escape');

    // A cone search typed in and applied with Enter.
    const locus = (await (await fetch(`${new URL(page.url()).origin}/v1/loci/${locusId}`)).json()) as {
      data: { attributes: { ra: number; dec: number } };
    };
    const { ra, dec } = locus.data.attributes;
    await tabTo(page, page.getByLabel('Cone search centre (RA Dec)'));
    await page.keyboard.type(`${ra.toFixed(5)} ${dec.toFixed(5)}`);
    await page.keyboard.press('Enter');
    await page.waitForURL(() => listQuery(page).filters.some((filter) => filter.type === 'sky_distance'));
    await page.waitForFunction((id) => {
      const ids = [...document.querySelectorAll('[data-testid=locus-row] td:first-child a')].map((a) => a.textContent);
      return ids.length > 0 && ids.length < 25 && ids.includes(id);
    }, locusId);

    // The applied filter is removed from the keyboard too.
    await fromTop(page);
    await tabTo(page, page.getByRole('button', { name: /^Remove filter Cone Search/ }));
    await page.keyboard.press('Enter');
    await page.waitForURL(() => !listQuery(page).filters.some((filter) => filter.type === 'sky_distance'));
  });

  it('works the locus page: lightcurve points and legend, sections, tabs, thumbnails and the cutout viewer', async () => {
    await open(page, '/loci');
    const [locusId] = await firstLocusIds(page);
    await open(page, `/loci/${locusId}`);
    const plot = page.getByTestId('lightcurve');
    await plot.locator('g.mark').first().waitFor();
    await fromTop(page);

    // Thumbnails: Enter enlarges a cutout in a dialog; Escape closes it and gives the focus back.
    const enlarge = page.getByRole('button', { name: 'Enlarge the science cutout' });
    await tabTo(page, enlarge);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Enlarge the science cutout');

    await fromTop(page);
    // The plot takes the focus; the arrows step through its points with their tooltip, Enter picks one.
    await tabTo(page, plot);
    await page.keyboard.press('ArrowRight');
    const tooltip = page.getByTestId('lightcurve-tooltip');
    await tooltip.waitFor();
    const firstText = await tooltip.textContent();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((text) => document.querySelector('[data-testid=lightcurve-tooltip]')?.textContent !== text, firstText);
    const alertId = (await tooltip.locator('strong').textContent())!;
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('lightcurve-picked').locator('code').textContent()).resolves.toBe(alertId);
    await page.keyboard.press('Escape');
    await tooltip.waitFor({ state: 'detached' });

    // A legend entry (inside the SVG) is a button: Enter shows only that passband, Enter again all.
    const legend = plot.locator('.legend-item[data-legend^="passband:"]').first();
    const band = (await legend.getAttribute('data-legend'))!.split(':')[1];
    const all = await plot.locator('g.mark').count();
    await tabTo(page, legend, { max: 20 });
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (b) => [...document.querySelectorAll('[data-testid=lightcurve] g.mark')].every((m) => m.getAttribute('data-passband') === b),
      band,
    );
    expect(await plot.locator('g.mark').count()).toBeLessThan(all);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=lightcurve] g.mark').length === n, all);

    // The alert tabs follow the arrow keys.
    const alertsTab = page.getByRole('tab', { name: 'Alerts', exact: true });
    await tabTo(page, alertsTab);
    await page.keyboard.press('ArrowRight');
    const gwTab = page.getByRole('tab', { name: 'Gravitational wave events' });
    expect(await isFocused(gwTab)).toBe(true);
    await page.keyboard.press('Enter');
    await expect(gwTab.getAttribute('aria-selected')).resolves.toBe('true');

    // A section folds and unfolds from its header.
    const header = page.getByRole('button', { name: 'Catalog Matches' });
    await tabTo(page, header);
    await page.keyboard.press('Enter');
    await expect(header.getAttribute('aria-expanded')).resolves.toBe('false');
    await page.keyboard.press('Space');
    await expect(header.getAttribute('aria-expanded')).resolves.toBe('true');
  });
});

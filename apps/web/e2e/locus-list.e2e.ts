import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { baseURL, expectNoSeriousViolations, firstLocusIds, listQuery, open } from './support/app';
import { requireChromium } from './support/chromium';
import { usePage } from './support/page';

const enabled = requireChromium();

async function showing(page: Page): Promise<string> {
  return (await page.getByTestId('showing-label').textContent()) ?? '';
}

async function waitForShowing(page: Page, pattern: RegExp): Promise<string> {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('[data-testid=showing-label]')?.textContent ?? ''),
    pattern.source,
  );
  return showing(page);
}

describe.skipIf(!enabled)('locus list', () => {
  let page: Page;

  usePage((opened) => ({ page } = opened));

  it('lists loci with the default query mirrored into the URL', async () => {
    await open(page, '/loci');
    await firstLocusIds(page);
    expect(listQuery(page)).toEqual({
      currentPage: 1,
      filters: [],
      sortBy: 'properties.newest_alert_observation_time',
      sortDesc: true,
      perPage: 25,
    });
    expect(await showing(page)).toMatch(/^Showing 1-\d+ of \d+$/);
    const headers = await page.locator('table.locus-table thead th').allTextContents();
    for (const header of [
      'ID',
      'Newest Thumbnails',
      'ZTF ID',
      'RA',
      'Dec',
      'Latest Mag',
      'Brightest Mag',
      '# Alerts',
      'Latest Alert',
      'First Alert',
      'Actions',
    ]) {
      expect(headers.join('|')).toContain(header);
    }
    const firstRow = page.locator('[data-testid=locus-row]').first();
    expect(await firstRow.locator('td').nth(3).textContent()).toMatch(/^\d+\.\d{2}$/);
    expect(await firstRow.locator('td').nth(8).textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await expect(firstRow.locator('img.thumb-flip').count()).resolves.toBe(3);
    // Numeric cells are right-aligned.
    expect(
      await firstRow
        .locator('td')
        .nth(3)
        .evaluate((cell) => getComputedStyle(cell).textAlign),
    ).toBe('right');
    await expectNoSeriousViolations(page);
    // At rest a row shows an ellipsis; hovering it shows the locus actions (view, favorite), nothing more.
    const view = firstRow.getByRole('link', { name: /^View ANT/ });
    expect(await view.isVisible()).toBe(false);
    await firstRow.hover();
    await view.waitFor({ state: 'visible' });
    expect(await firstRow.locator('.row-actions-hover').getByRole('button').count()).toBe(1);
    expect(
      await firstRow
        .locator('.row-actions-hover')
        .getByText(/comment|download|e-?mail/i)
        .count(),
    ).toBe(0);
  });

  it('shows skeleton rows while loading and the server error detail on failure', async () => {
    // Held back for a moment so the loading state can be seen.
    await page.route(
      (url) => url.pathname === '/v1/loci',
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      },
    );
    await page.goto(`${baseURL()}/loci`);
    await page.getByTestId('skeleton-row').first().waitFor();
    expect(await page.getByTestId('skeleton-row').count()).toBe(10);
    await firstLocusIds(page);
    await page.unroute((url) => url.pathname === '/v1/loci');
    // A filter the server refuses (no such field): its 400 detail is shown under the spec's heading.
    const bad = {
      currentPage: 1,
      filters: [{ type: 'range', field: 'no_such_field', value: { gte: 1 }, text: 'Broken' }],
      sortBy: 'ra',
      sortDesc: true,
      perPage: 25,
    };
    await open(page, `/loci?query=${encodeURIComponent(JSON.stringify(bad))}`);
    const alert = page.getByRole('alert').filter({ hasText: 'Error Completing Your Search' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('no_such_field');
  });

  it('looks a locus up by ID from the search box and clears the box', async () => {
    await open(page, '/tags');
    const lookup = page.getByPlaceholder('Lookup Object by ID');
    const button = page.getByRole('button', { name: 'Lookup' });
    expect(await button.isDisabled()).toBe(true);
    await open(page, '/loci');
    const [, second] = await firstLocusIds(page);
    const ztfId = (await page.locator('[data-testid=locus-row]').nth(1).locator('td').nth(2).textContent()) ?? '';
    await open(page, '/tags');
    await lookup.fill(ztfId);
    await button.click();
    await page.waitForURL(/\/loci\?query=/);
    expect(listQuery(page).filters.map((f) => f.text)).toEqual([`ID Lookup: ${ztfId}`]);
    await expect(firstLocusIds(page)).resolves.toContain(second);
    expect(await lookup.inputValue()).toBe('');
  });

  it('looks up a Rubin diaObjectId as a string term on properties.survey.lsst.dia_object_id', async () => {
    await open(page, '/tags');
    // Above 2^53: as a JS number it would become 169298432598474800.
    const diaObjectId = '169298432598474793';
    await page.getByPlaceholder('Lookup Object by ID').fill(diaObjectId);
    await page.getByRole('button', { name: 'Lookup' }).click();
    await page.waitForURL(/\/loci\?query=/);
    expect(listQuery(page).filters).toEqual([
      { type: 'term', field: 'properties.survey.lsst.dia_object_id', value: diaObjectId, text: `ID Lookup: ${diaObjectId}` },
    ]);
    // The server accepted the query (no error state); the demo survey has no Rubin locus.
    await page.getByRole('heading', { name: 'Nothing Matched Your Search' }).waitFor();
  });

  it('looks up an alert id: the locus holding the alert (ZTF from the data, Rubin through the same call)', async () => {
    await open(page, '/loci');
    const [, locusId] = await firstLocusIds(page);
    const alerts = (await (await fetch(`${baseURL()}/v1/loci/${locusId}/alerts`)).json()) as { data: { id: string }[] };
    const alertId = alerts.data.find((alert) => alert.id.startsWith('ztf_candidate:'))!.id;
    await page.getByPlaceholder('Lookup Object by ID').fill(alertId);
    await page.getByRole('button', { name: 'Lookup' }).click();
    // Already on the list: the lookup replaces its query.
    await page.waitForFunction(() => JSON.parse(new URL(location.href).searchParams.get('query') ?? '{}').filters?.length === 1);
    expect(listQuery(page).filters).toEqual([{ type: 'terms', field: 'locus_id', value: [locusId], text: `ID Lookup: ${alertId}` }]);
    await waitForShowing(page, /^Showing 1-1 of 1$/);
    expect(await firstLocusIds(page)).toEqual([locusId]);

    // A Rubin alert id: the server's answer for it is stood in for (no Rubin alert in the demo data).
    const rubinAlert = 'lsst:169298432598474793';
    await page.route(`**/v1/alerts/${encodeURIComponent(rubinAlert)}`, (route) =>
      route.fulfill({
        contentType: 'application/vnd.api+json',
        body: JSON.stringify({
          data: {
            type: 'alert',
            id: rubinAlert,
            attributes: { survey: 'lsst' },
            relationships: { locus: { data: { type: 'locus', id: locusId } } },
          },
        }),
      }),
    );
    await open(page, `/loci/lookup/${encodeURIComponent(rubinAlert)}`);
    expect(listQuery(page).filters).toEqual([{ type: 'terms', field: 'locus_id', value: [locusId], text: `ID Lookup: ${rubinAlert}` }]);
    expect(await firstLocusIds(page)).toEqual([locusId]);
    await page.unroute(`**/v1/alerts/${encodeURIComponent(rubinAlert)}`);
    // An unknown alert id matches nothing instead of failing.
    await open(page, `/loci/lookup/${encodeURIComponent('lsst_forced:1')}`);
    await page.getByRole('heading', { name: 'Nothing Matched Your Search' }).waitFor();
  });

  it('filters by tag or catalog, then cone search, then sorts and pages; the URL state survives a reload', async () => {
    await open(page, '/loci');
    await firstLocusIds(page);
    // Tags exist once filters run; otherwise use catalogs, which the same multi-select serves.
    for (const select of ['tags-select', 'catalogs-select']) {
      await page.locator(`#${select}`).click();
      const options = page.locator(`[id^="${select}-"].form-check-input`);
      if ((await options.count()) > 0) {
        await options.first().check();
        await page.keyboard.press('Escape');
        await page.getByRole('button', { name: 'Apply Filters' }).click();
        await page.waitForFunction(() => (document.querySelector('[data-testid=active-filters]')?.textContent ?? '').length > 0);
        break;
      }
      await page.keyboard.press('Escape');
    }
    const filtersBefore = listQuery(page).filters.length;
    const ids = await firstLocusIds(page);
    const row = page.locator('[data-testid=locus-row]').first();
    const ra = (await row.locator('td').nth(3).textContent()) ?? '';
    const dec = (await row.locator('td').nth(4).textContent()) ?? '';
    await page.getByLabel('Cone search centre (RA Dec)').fill(`${ra} ${dec}`);
    await page.getByLabel('Radius', { exact: true }).fill('30');
    await page.getByLabel('Radius unit').selectOption('arcmin');
    await page.getByRole('button', { name: 'Apply Filters' }).click();
    await page.waitForFunction(
      (n) => JSON.parse(new URL(location.href).searchParams.get('query') ?? '{}').filters?.length === n,
      filtersBefore + 1,
    );
    const cone = listQuery(page).filters.at(-1)!;
    expect(cone.type).toBe('sky_distance');
    expect(cone.text).toBe(`Cone Search: ${ra} ${dec} (30')`);
    await expect(firstLocusIds(page)).resolves.toContain(ids[0]);
    // The controls reset after applying: radius back to 1, centre cleared, no Apply button.
    expect(await page.getByLabel('Radius', { exact: true }).inputValue()).toBe('1');
    expect(await page.getByRole('button', { name: 'Apply Filters' }).count()).toBe(0);

    // Sort by RA (server-side): first click sorts descending, back on page 1.
    await page.getByRole('button', { name: /^RA/ }).click();
    await page.waitForFunction(() => JSON.parse(new URL(location.href).searchParams.get('query') ?? '{}').sortBy === 'ra');
    await page.waitForLoadState('networkidle');
    const ras = (await page.locator('[data-testid=locus-row] td:nth-child(4)').allTextContents()).map(Number);
    expect(ras).toEqual([...ras].sort((a, b) => b - a));
    expect(listQuery(page)).toMatchObject({ sortBy: 'ra', sortDesc: true, currentPage: 1 });

    // Page size 5 and page 2 when there are enough loci.
    await page.locator('#locus-page-size').selectOption('5');
    const label = await waitForShowing(page, /^Showing 1-\d of \d+$/);
    const total = Number(label.split(' of ')[1]);
    if (total > 5) {
      await page.getByRole('button', { name: 'Page 2' }).click();
      await waitForShowing(page, /^Showing 6-/);
      expect(listQuery(page)).toMatchObject({ currentPage: 2, perPage: 5 });
    }
    const before = listQuery(page);
    const labelBefore = await showing(page);
    await page.reload({ waitUntil: 'networkidle' });
    await firstLocusIds(page);
    expect(listQuery(page)).toEqual(before);
    expect(await showing(page)).toBe(labelBefore);
    const active = await page.getByTestId('active-filters').textContent();
    expect(active).toContain('Cone Search:');

    // Removing the cone filter goes back to page 1.
    await page.getByRole('button', { name: /^Remove filter Cone Search/ }).click();
    await page.waitForFunction(() => JSON.parse(new URL(location.href).searchParams.get('query') ?? '{}').currentPage === 1);
  });

  it('ignores a malformed query parameter', async () => {
    await open(page, '/loci?query=%7Bnot-json');
    await firstLocusIds(page);
    expect(listQuery(page)).toEqual({
      currentPage: 1,
      filters: [],
      sortBy: 'properties.newest_alert_observation_time',
      sortDesc: true,
      perPage: 25,
    });
    await open(
      page,
      `/loci?query=${encodeURIComponent(JSON.stringify({ currentPage: 1, filters: [], sortBy: 'ra', sortDesc: true, perPage: 7 }))}`,
    );
    await firstLocusIds(page);
    expect(listQuery(page).perPage).toBe(25);
  });

  it('shows the empty state for a search that matches nothing', async () => {
    await open(page, '/loci/lookup/no-such-object-anywhere');
    await page.getByRole('heading', { name: 'Nothing Matched Your Search' }).waitFor();
  });

  it('remembers the chosen columns in local storage', async () => {
    await open(page, '/loci');
    await firstLocusIds(page);
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByLabel('ZTF ID').uncheck();
    await page.keyboard.press('Escape');
    await page.reload({ waitUntil: 'networkidle' });
    await firstLocusIds(page);
    const headers = await page.locator('table.locus-table thead th').allTextContents();
    expect(headers.join('|')).not.toContain('ZTF ID');
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByLabel('ZTF ID').check();
    await page.keyboard.press('Escape');
  });
});

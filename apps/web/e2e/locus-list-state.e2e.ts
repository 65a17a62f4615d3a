import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { baseURL, expectNoSeriousViolations, firstLocusIds, listQuery, open } from './support/app';
import { requireChromium } from './support/chromium';
import { usePage } from './support/page';

// The locus list's URL state and search panel at their edges: a sort field the list does not offer,
// a search with no results, and the script view following the list's sort.
const enabled = requireChromium();
const DEFAULT_SORT = 'properties.newest_alert_observation_time';

async function statistics(filters: unknown[] = []): Promise<{ min_num_measurements: number | null; max_num_measurements: number | null }> {
  const query = filters.length
    ? `?elasticsearch_query%5Blocus_listing_statistic%5D=${encodeURIComponent(JSON.stringify({ query: { bool: { filter: filters } } }))}`
    : '';
  const document = (await (await fetch(`${baseURL()}/v1/loci/statistics${query}`)).json()) as {
    data: { attributes: { min_num_measurements: number | null; max_num_measurements: number | null } };
  };
  return document.data.attributes;
}

describe.skipIf(!enabled)('locus list state', () => {
  let page: Page;

  usePage((opened) => ({ page } = opened));

  it("ignores an unknown sort field in the URL (like malformed JSON) and keeps the link's filters", async () => {
    const filters = [
      { type: 'query_string', field: { fields: ['properties.ztf_object_id', 'locus_id'], query: '*ZTF*' }, text: 'ID Lookup: ZTF' },
    ];
    for (const sortBy of ['no_such_field', 'properties.no_such_property', 'tags']) {
      await open(
        page,
        `/loci?query=${encodeURIComponent(JSON.stringify({ currentPage: 2, filters, sortBy, sortDesc: false, perPage: 10 }))}`,
      );
      await firstLocusIds(page);
      expect(await page.getByText('Error Completing Your Search').count(), sortBy).toBe(0);
      expect(listQuery(page), sortBy).toEqual({ currentPage: 1, filters, sortBy: DEFAULT_SORT, sortDesc: true, perPage: 10 });
      await page.getByText('ID Lookup: ZTF').first().waitFor();
      expect(await page.locator('table.locus-table th[aria-sort=descending]').textContent()).toContain('Latest Alert');
    }
  });

  it('offers no made-up range of measurements for a search with no results', async () => {
    await open(page, '/loci/lookup/no-such-object-anywhere');
    await page.getByRole('heading', { name: 'Nothing Matched Your Search' }).waitFor();
    const { min_num_measurements, max_num_measurements } = await statistics([
      { query_string: { fields: ['properties.ztf_object_id', 'locus_id'], query: '*no-such-object-anywhere*' } },
    ]);
    expect([min_num_measurements, max_num_measurements]).toEqual([null, null]);
    const empty = page.getByTestId('num-measurements-empty');
    await empty.waitFor();
    expect(await empty.textContent()).toContain('Number of Measurements');
    expect(await page.locator('#num-measurements-min, #num-measurements-max').count()).toBe(0);
    expect(await page.getByText(/^1 - 100$/).count()).toBe(0);
    await expectNoSeriousViolations(page);

    // With results, the slider spans the server's bounds.
    await open(page, '/loci');
    await firstLocusIds(page);
    const bounds = await statistics();
    const slider = page.getByRole('group', { name: 'Number of Measurements' });
    await slider.waitFor();
    expect(await slider.locator('output').textContent()).toBe(`${bounds.min_num_measurements} - ${bounds.max_num_measurements}`);
    expect(await page.getByTestId('num-measurements-empty').count()).toBe(0);
  });

  it("describes and follows the list's current sort in the script view", async () => {
    await open(page, '/loci');
    await firstLocusIds(page);
    await page.getByRole('button', { name: 'Script', exact: true }).click();
    const script = page.getByTestId('panel-script');
    expect(await script.textContent()).toContain('# Sorted by Latest Alert (properties.newest_alert_observation_time), descending');
    await page.getByRole('button', { name: /^RA/ }).click();
    await page.waitForFunction(() => JSON.parse(new URL(location.href).searchParams.get('query') ?? '{}').sortBy === 'ra');
    const sortedByRa = (await script.textContent()) ?? '';
    expect(sortedByRa).toContain(`# Sorted by RA (ra), ${listQuery(page).sortDesc ? 'descending' : 'ascending'}`);
    expect(sortedByRa).not.toContain('newest_alert_observation_time), descending');
    expect(sortedByRa).toContain('return locus.ra');
    // The API Access modal shows the same script.
    await page.getByRole('button', { name: 'API Access' }).click();
    await page.getByRole('dialog', { name: 'ANTARES API' }).waitFor();
    expect(await page.getByTestId('api-script').textContent()).toBe(sortedByRa);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
  });
});

import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { baseURL, downloadBytes, expectNoSeriousViolations, firstLocusIds, listQuery, open } from './support/app';
import { requireChromium } from './support/chromium';
import { usePage } from './support/page';
import { requirePublishedClient, runWithPublishedClient } from './support/published-client';

// The locus list's API Access: the Python script it offers, downloaded from the page and run with the
// published antares-client 1.13.0 (../shared/clients, unmodified) against this same server. What the
// script prints must be the list the page shows, every page of it, in the same order.
const enabled = requireChromium();
const clientReady = enabled && requirePublishedClient();

interface Row {
  id: string;
  ztf: string;
  ra: string;
  dec: string;
}

async function showingTotal(page: Page): Promise<number> {
  await page.waitForFunction(() =>
    /^Showing \d+-\d+ of \d+$/.test(document.querySelector('[data-testid=showing-label]')?.textContent ?? ''),
  );
  return Number(((await page.getByTestId('showing-label').textContent()) ?? '').split(' of ')[1]);
}

/** Every row of the current list, page by page through the URL state the page keeps, as the table shows them. */
async function everyShownRow(page: Page): Promise<Row[]> {
  const query = listQuery(page);
  const total = await showingTotal(page);
  const rows: Row[] = [];
  for (let current = 1; (current - 1) * query.perPage < total; current++) {
    await open(page, `/loci?query=${encodeURIComponent(JSON.stringify({ ...query, currentPage: current }))}`);
    const from = (current - 1) * query.perPage + 1;
    await page.waitForFunction(
      (text) => (document.querySelector('[data-testid=showing-label]')?.textContent ?? '').startsWith(text),
      `Showing ${from}-`,
    );
    await firstLocusIds(page);
    const headers = (await page.locator('table.locus-table thead th').allTextContents()).map((h) => h.trim());
    const column = (name: string) => {
      const index = headers.findIndex((h) => new RegExp(`^${name}(?![A-Za-z])`).test(h));
      expect(index, `no ${name} column in ${headers.join('|')}`).toBeGreaterThanOrEqual(0);
      return index;
    };
    const [id, ztf, ra, dec] = [column('ID'), column('ZTF ID'), column('RA'), column('Dec')];
    for (const cells of await page
      .locator('[data-testid=locus-row]')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')))) {
      rows.push({ id: cells[id], ztf: cells[ztf], ra: cells[ra], dec: cells[dec] });
    }
  }
  expect(rows).toHaveLength(total);
  return rows;
}

/** The script's lines (`print(locus.locus_id, locus.ra, locus.dec, ztf_object_id)`) as the table shows such values. */
function printedRows(output: string): Row[] {
  return output
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, ra, dec, ztf] = line.split(' ');
      return { id, ztf: ztf === 'None' ? '' : ztf, ra: Number(ra).toFixed(2), dec: Number(dec).toFixed(2) };
    });
}

async function downloadScript(page: Page): Promise<{ script: string; file: Download }> {
  await page.getByRole('button', { name: 'API Access' }).click();
  await page.getByRole('dialog', { name: 'ANTARES API' }).waitFor();
  const script = (await page.getByTestId('api-script').textContent()) ?? '';
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download antares_search.py' }).click();
  const file = await download;
  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: 'ANTARES API' }).waitFor({ state: 'detached' });
  return { script, file };
}

describe.skipIf(!enabled)('API Access', () => {
  let page: Page;

  usePage((opened) => ({ page } = opened));

  it('offers a Python script that reproduces the current query', async () => {
    await open(page, '/loci/lookup/ZTF');
    await firstLocusIds(page);
    const { script, file } = await downloadScript(page);
    expect(script).toContain('from antares_client.search import search');
    expect(script).toContain('"query_string": {');
    expect(script).toContain('"*ZTF*"');
    expect(script).toContain('pip install "antares-client>=1.0"');
    expect(file.suggestedFilename()).toBe('antares_search.py');
    const downloaded = (await downloadBytes(file)).toString('utf8');
    expect(downloaded).toBe(script);
    expect(downloaded).toContain('os.environ.setdefault("ANTARES_API_BASE_URL"');
    // The search panel's Script tab shows the same script.
    await page.getByRole('button', { name: 'Script', exact: true }).click();
    expect(await page.getByTestId('panel-script').textContent()).toBe(script);
    await expectNoSeriousViolations(page);
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await page.getByLabel('Cone search centre (RA Dec)').waitFor();
  });

  it.skipIf(!clientReady)('runs with the published antares-client and prints every locus the list shows (ID lookup)', async () => {
    await open(page, '/loci/lookup/ZTF');
    await firstLocusIds(page);
    const { file } = await downloadScript(page);
    const printed = printedRows(runWithPublishedClient(await file.path()));
    const shown = await everyShownRow(page);
    // More than one page, so that the client follows links.next as the table pages.
    expect(shown.length).toBeGreaterThan(listQuery(page).perPage);
    expect(printed).toEqual(shown);
    expect(shown.every((row) => row.ztf.includes('ZTF'))).toBe(true);
  });

  it.skipIf(!clientReady)('runs with the published antares-client for a cone search made in the search panel, sorted by RA', async () => {
    await open(page, '/loci');
    const [centreId] = await firstLocusIds(page);
    const located = (await (await fetch(`${baseURL()}/v1/loci/${centreId}`)).json()) as {
      data: { attributes: { ra: number; dec: number } };
    };
    const { ra, dec } = located.data.attributes;
    await page.getByLabel('Cone search centre (RA Dec)').fill(`${ra} ${dec}`);
    await page.getByLabel('Radius', { exact: true }).fill('600');
    await page.getByLabel('Radius unit').selectOption('arcmin');
    await page.getByRole('button', { name: 'Apply Filters' }).click();
    await page.waitForFunction(() => JSON.parse(new URL(location.href).searchParams.get('query') ?? '{}').filters?.length === 1);
    expect(listQuery(page).filters[0].type).toBe('sky_distance');
    await firstLocusIds(page);
    // Sorted by RA (the header's first click: descending), which the script reproduces in Python.
    await page.getByRole('button', { name: /^RA/ }).click();
    await page.waitForFunction(() => JSON.parse(new URL(location.href).searchParams.get('query') ?? '{}').sortBy === 'ra');
    await page.waitForLoadState('networkidle');
    const { script, file } = await downloadScript(page);
    expect(script).toContain('"sky_distance": {');
    expect(script).toContain('RA (ra), descending');
    const printed = printedRows(runWithPublishedClient(await file.path()));
    const shown = await everyShownRow(page);
    expect(shown.map((row) => row.id)).toContain(centreId);
    expect(printed).toEqual(shown);
  });
});

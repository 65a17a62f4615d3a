import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { Locator, Page, Request } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';

import { baseURL, expectNoSeriousViolations, listQuery, open } from './support/app';
import { type CatalogManifest, GALAXY_CATALOG, MANIFEST_FILE, STAR_CATALOG } from './support/catalog-seed';
import { requireChromium } from './support/chromium';
import { type PageWatch, usePage } from './support/page';

const enabled = requireChromium();

/**
 * What the seeded catalogs match (written by the seed, e2e/support/seed.ts); absent when the tests
 * run against a server they did not seed (ANTARES_E2E_BASE_URL).
 */
function readManifest(): CatalogManifest | null {
  const dataDir = enabled ? inject('dataDir') : '';
  const file = dataDir ? path.join(dataDir, MANIFEST_FILE) : '';
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CatalogManifest) : null;
}
const manifest = readManifest();

const NO_MATCHES_NOTE = 'A 1 arcsec radius is used for point sources and variable radii for extended sources.';
const ERROR_DOCUMENT = { errors: [{ status: '500', title: 'Internal Server Error', detail: 'the catalog store is unavailable (e2e)' }] };
const MATCH_HEADERS = ['Object', 'RA', 'Dec', 'Catalog', 'Radius (arcsec)', 'Separation (arcsec)', 'Properties'];

interface SampleDocument {
  data: { id: string; attributes: { object_id: string; catalog_name: string; data: Record<string, unknown> } }[];
}

async function apiJson<T>(apiPath: string): Promise<T> {
  const response = await fetch(`${baseURL()}/v1${apiPath}`);
  if (!response.ok) throw new Error(`${apiPath}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The text of every cell of a table's body rows (the expanded property rows left out). */
async function bodyRows(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows
        .filter((row) => row.querySelectorAll('td').length > 1)
        .map((row) => [...row.querySelectorAll('td')].map((cell) => (cell.textContent ?? '').trim())),
    );
}

async function headerTexts(table: Locator): Promise<string[]> {
  return table.locator('thead th').evaluateAll((cells) => cells.map((cell) => (cell.textContent ?? '').replace(/[▲▼↕]/g, '').trim()));
}

/** Waits until the match table shows the given first object (rows arrive per page and sort). */
async function waitForFirstObject(page: Page, name: string): Promise<void> {
  await page.waitForFunction((expected) => document.querySelector('#catalog-matches tbody tr td')?.textContent?.trim() === expected, name);
}

describe.skipIf(!enabled)('catalogs', () => {
  let page: Page;
  let watch: PageWatch;
  const matchRequests: URL[] = [];

  usePage(async (opened) => {
    ({ page, watch } = opened);
    page.on('request', (request: Request) => {
      if (/\/v1\/loci\/[^/]+\/catalog-matches/.test(request.url())) matchRequests.push(new URL(request.url()));
    });
  });
  beforeEach(async () => {
    await page.unrouteAll({ behavior: 'wait' });
    matchRequests.length = 0;
  });

  it('shows one table of sample rows per catalog, with the developer kit note', async () => {
    const samples = await apiJson<SampleDocument>('/catalog_samples');
    const catalogs = [...new Set(samples.data.map((d) => d.attributes.catalog_name))];
    if (manifest) expect(catalogs).toEqual(expect.arrayContaining([GALAXY_CATALOG, STAR_CATALOG]));
    expect(catalogs.length).toBeGreaterThan(0);

    await open(page, '/catalogs');
    await page.getByRole('heading', { name: 'Catalogs', level: 1 }).waitFor();
    const headings = await page.locator('main section h2').allTextContents();
    expect(headings.map((h) => h.trim())).toEqual(catalogs);
    for (const name of catalogs) {
      const rows = samples.data.filter((d) => d.attributes.catalog_name === name);
      const table = page.getByRole('region', { name, exact: true }).getByRole('table');
      const columns = [...new Set(rows.flatMap((row) => Object.keys(row.attributes.data)))];
      expect(await headerTexts(table)).toEqual(columns);
      // Every value as the catalog has it: positions keep all their digits.
      expect(await bodyRows(table)).toEqual(rows.map((row) => columns.map((column) => String(row.attributes.data[column] ?? ''))));
    }
    if (manifest) {
      const stars = page.getByRole('region', { name: STAR_CATALOG, exact: true });
      expect(await stars.locator('tbody tr').count()).toBe(Math.min(5, manifest.stars.rows));
      await stars.getByRole('cell', { name: 'E2E Star 01', exact: true }).waitFor();
      expect(await page.getByRole('region', { name: GALAXY_CATALOG, exact: true }).locator('tbody tr').count()).toBe(
        manifest.galaxies.rows,
      );
    }
    const note = (await page.getByTestId('devkit-note').textContent()) ?? '';
    expect(note).toContain('developer kit');
    expect(note).toContain('dk.search_catalogs(ra, dec)');
    expect(note).toContain('locus.catalog_objects');
    await expectNoSeriousViolations(page);
    expect(watch.problems()).toEqual([]);
  });

  it.skipIf(!manifest)(
    'lists a locus catalog matches nearest first, 10 per page, with separation in arcsec and the catalog name; pages and sorts',
    async () => {
      const { locusId, matches } = manifest!.crowded;
      expect(matches.length).toBeGreaterThan(10);
      const expectedRow = (m: (typeof matches)[number]) => [
        m.objectName,
        m.catalog,
        m.radius === null ? 'N/A' : m.radius.toFixed(2),
        m.separation.toFixed(2),
      ];
      const shown = async () => (await bodyRows(page.locator('#catalog-matches'))).map((cells) => [cells[0], cells[3], cells[4], cells[5]]);

      await open(page, `/loci/${locusId}`);
      const section = page.locator('.card-section').filter({ has: page.getByRole('button', { name: 'Catalog Matches', exact: true }) });
      const table = section.locator('#catalog-matches');
      await waitForFirstObject(page, matches[0].objectName);
      expect(await headerTexts(table)).toEqual(MATCH_HEADERS);
      expect(await shown()).toEqual(matches.slice(0, 10).map(expectedRow));
      expect(await section.getByLabel('Show', { exact: true }).inputValue()).toBe('10');
      await section.getByText(`Showing 1 to 10 of ${matches.length} entries`).waitFor();
      const separationHeader = table.locator('th', { hasText: 'Separation (arcsec)' });
      expect(await separationHeader.getAttribute('aria-sort')).toBe('ascending');
      // RA and Dec in decimal degrees with 4 decimals.
      const [first] = await bodyRows(table);
      expect(first[1]).toMatch(/^\d+\.\d{4}$/);
      expect(first[2]).toMatch(/^-?\d+\.\d{4}$/);
      // The server pages and sorts: the first request asked for 10, nearest first.
      expect(matchRequests[0]?.searchParams.get('page[limit]')).toBe('10');
      expect(matchRequests[0]?.searchParams.get('page[offset]')).toBe('0');
      expect(matchRequests[0]?.searchParams.get('sort')).toBe('meta.separation');
      await expectNoSeriousViolations(page);

      // Page 2: the rest, the extended source (with its radius) last.
      await section.getByRole('button', { name: 'Page 2' }).click();
      await waitForFirstObject(page, matches[10].objectName);
      expect(await shown()).toEqual(matches.slice(10).map(expectedRow));
      await section.getByText(`Showing 11 to ${matches.length} of ${matches.length} entries`).waitFor();
      expect(matchRequests.at(-1)?.searchParams.get('page[offset]')).toBe('10');
      const galaxy = matches.find((m) => m.catalog === GALAXY_CATALOG)!;
      expect(galaxy.radius).not.toBeNull();

      // Sorting by separation turns it around (farthest first) and goes back to page 1.
      await separationHeader.getByRole('button').click();
      const reversed = [...matches].reverse();
      await waitForFirstObject(page, reversed[0].objectName);
      expect(await separationHeader.getAttribute('aria-sort')).toBe('descending');
      expect(await shown()).toEqual(reversed.slice(0, 10).map(expectedRow));
      expect(matchRequests.at(-1)?.searchParams.get('sort')).toBe('-meta.separation');
      expect(matchRequests.at(-1)?.searchParams.get('page[offset]')).toBe('0');

      // A row's properties: the catalog row itself.
      const toggle = section.getByRole('button', { name: `Show properties of ${galaxy.objectName}` });
      await toggle.click();
      const details = table.locator('dl');
      await details.waitFor();
      const properties = await details
        .locator('div')
        .evaluateAll((items) =>
          Object.fromEntries(
            items.map((item) => [item.querySelector('dt')?.textContent ?? '', item.querySelector('dd')?.textContent ?? '']),
          ),
        );
      expect(properties).toMatchObject({ id: galaxy.objectId, name: galaxy.objectName, major_axis_arcmin: '0.5', morphology: 'E2' });
      expect(await section.getByRole('button', { name: `Hide properties of ${galaxy.objectName}` }).getAttribute('aria-expanded')).toBe(
        'true',
      );

      // A bigger page shows everything at once, nearest first again after sorting back.
      await separationHeader.getByRole('button').click();
      await waitForFirstObject(page, matches[0].objectName);
      expect(await separationHeader.getAttribute('aria-sort')).toBe('ascending');
      await section.getByLabel('Show', { exact: true }).selectOption('25');
      await page.waitForFunction(
        (n) =>
          [...document.querySelectorAll('#catalog-matches tbody tr')].filter((row) => row.querySelectorAll('td').length > 1).length === n,
        matches.length,
      );
      await section.getByText(`Showing 1 to ${matches.length} of ${matches.length} entries`).waitFor();
      expect(matchRequests.at(-1)?.searchParams.get('page[limit]')).toBe('25');
      expect(await shown()).toEqual(matches.map(expectedRow));
      await expectNoSeriousViolations(page);
      expect(watch.problems()).toEqual([]);
    },
  );

  it.skipIf(!manifest)('shows the No Cross-Matches note for a locus without matches', async () => {
    await open(page, `/loci/${manifest!.unmatched.locusId}`);
    const section = page.locator('.card-section').filter({ has: page.getByRole('button', { name: 'Catalog Matches', exact: true }) });
    await section.getByRole('heading', { name: 'No Cross-Matches' }).waitFor();
    expect(await section.textContent()).toContain(NO_MATCHES_NOTE);
    expect(await section.locator('#catalog-matches').count()).toBe(0);
    await expectNoSeriousViolations(page);
    expect(watch.problems()).toEqual([]);
  });

  it.skipIf(!manifest)('filters the locus list by a catalog chosen in the search panel, whose options show counts', async () => {
    for (const { name, loci } of [manifest!.galaxies, manifest!.stars]) {
      await open(page, '/loci');
      await page.locator('[data-testid=locus-row]').first().waitFor();
      await page.locator('#catalogs-select').click();
      const option = page.locator(`#catalogs-select-${name}`);
      const label = page.locator(`label[for="catalogs-select-${name}"]`);
      // The option shows how many loci match the catalog.
      expect(await label.locator('.text-break').textContent()).toBe(name);
      expect(await label.locator('.badge').textContent()).toBe(String(loci.length));
      if (name === GALAXY_CATALOG) await expectNoSeriousViolations(page);
      await option.check();
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Apply Filters' }).click();
      await page.waitForFunction(
        (text) => (document.querySelector('[data-testid=active-filters]')?.textContent ?? '').includes(text),
        `Catalogs: ${name}`,
      );
      expect(listQuery(page).filters).toEqual([{ type: 'terms', field: 'catalogs', value: [name], text: `Catalogs: ${name}` }]);
      await page.getByText(`Showing 1-${loci.length} of ${loci.length}`, { exact: true }).waitFor();
      const ids = await page.locator('[data-testid=locus-row] td:first-child a').allTextContents();
      expect([...ids].sort()).toEqual(loci);
    }
    expect(watch.problems()).toEqual([]);
  });

  it('shows the error texts when the catalog API fails', async () => {
    const fail = { status: 500, contentType: 'application/vnd.api+json', body: JSON.stringify(ERROR_DOCUMENT) };
    await page.route(/\/v1\/catalog_samples/, (route) => route.fulfill(fail));
    await open(page, '/catalogs');
    const alert = page.getByRole('alert').filter({ hasText: 'Error Loading Catalogs' });
    await alert.waitFor();
    await alert.getByRole('heading', { name: 'Error Loading Catalogs' }).waitFor();
    expect(await alert.textContent()).toContain('There was an error loading catalog data.');
    // The first error object, as formatted JSON.
    expect(JSON.parse((await alert.locator('pre').textContent()) ?? '')).toEqual(ERROR_DOCUMENT.errors[0]);
    await expectNoSeriousViolations(page);

    // The locus list gives a locus; its catalog matches fail.
    const locusId = manifest?.crowded.locusId ?? (await apiJson<{ data: { id: string }[] }>('/loci?page%5Blimit%5D=1')).data[0].id;
    await page.route(/\/v1\/loci\/[^/]+\/catalog-matches/, (route) => route.fulfill(fail));
    await open(page, `/loci/${locusId}`);
    const section = page.locator('.card-section').filter({ has: page.getByRole('button', { name: 'Catalog Matches', exact: true }) });
    const matchAlert = section.getByRole('alert');
    await matchAlert.getByRole('heading', { name: 'Error Retrieving Cross-Matches' }).waitFor();
    expect(await matchAlert.textContent()).toContain(ERROR_DOCUMENT.errors[0].detail);
    expect(await section.locator('#catalog-matches').count()).toBe(0);
    await expectNoSeriousViolations(page);
    expect(watch.problems()).toEqual([]);
  });
});

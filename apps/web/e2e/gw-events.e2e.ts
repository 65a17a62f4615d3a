import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { formatArea } from '../src/features/gw-events/components/gw-format';
import { DENSITY_COLOURS } from '../src/features/gw-events/components/sky-map/sky-raster';
import { E2E_ACCOUNTS } from './support/accounts';
import { apiSession, expectNoSeriousViolations, listQuery, open } from './support/app';
import { requireChromium } from './support/chromium';
import { ensureGwEvent, GW_ID, type GwScenario, RETRACTED_ID } from './support/gw-scenario';
import { type PageWatch, usePage } from './support/page';

const enabled = requireChromium();

/** The rows of a table as cell texts. */
function rowTexts(page: Page, tableId: string): Promise<string[][]> {
  return page
    .locator(`#${tableId} tbody tr`)
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
}

/** Waits for a paged table's 'Showing ...' line and for its rows (not busy loading). */
async function waitForShowing(page: Page, tableId: string, text: string): Promise<void> {
  await page
    .locator('.data-table', { has: page.locator(`#${tableId}`) })
    .getByRole('status')
    .filter({ hasText: text })
    .waitFor();
  await page.locator(`#${tableId}[aria-busy="false"]`).waitFor();
}

function hex(colour: string): number[] {
  return [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
}

describe.skipIf(!enabled)('gravitational-wave events', () => {
  let page: Page;
  let watch: PageWatch;
  let scenario: GwScenario;

  usePage(async (opened) => {
    ({ page, watch } = opened);
    // A notice whose sky map covers seeded loci (posted once; a kept database already has it).
    scenario = await ensureGwEvent(await apiSession(E2E_ACCOUNTS.admin));
  });

  it('lists the event under GW Events in the navigation, with its latest notice, areas and loci', async () => {
    await open(page, '/loci');
    await page.getByRole('link', { name: 'GW Events', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/gw-events');
    await page.getByRole('heading', { name: 'Gravitational Wave Events' }).waitFor();
    expect(await page.title()).toBe('Gravitational Wave Events | ANTARES');
    const row = page.locator('#gw-events tbody tr', { has: page.getByRole('link', { name: GW_ID, exact: true }) });
    // allTextContents does not wait: the list may still be loading when the heading shows.
    await row.waitFor();
    const cells = (await row.locator('td').allTextContents()).map((t) => t.trim());
    const { area50, area90 } = scenario.event;
    expect(cells).toEqual([
      GW_ID,
      '2025-11-20 12:00:00',
      'PRELIMINARY',
      '5.18e-16 Hz',
      formatArea(area50),
      formatArea(area90),
      String(scenario.inside.length),
    ]);
    // A retracted event says so, and has no loci any more.
    const retracted = page.locator('#gw-events tbody tr', { has: page.getByRole('link', { name: RETRACTED_ID, exact: true }) });
    const retractedCells = (await retracted.locator('td').allTextContents()).map((t) => t.trim());
    expect(retractedCells[2]).toBe('RETRACTIONRetracted');
    expect(retractedCells.at(-1)).toBe('0');
    await expectNoSeriousViolations(page);
  });

  it('draws the sky map: density, the 50% and 90% regions, and every locus of the 90% region', async () => {
    await page.getByRole('link', { name: GW_ID, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/gw-events/${GW_ID}`);
    await page.getByRole('heading', { name: GW_ID, level: 1 }).waitFor();
    expect(await page.title()).toBe(`${GW_ID} | ANTARES`);
    const dots = page.locator('[data-testid=gw-sky-map] circle.gw-map-locus');
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=gw-sky-map] circle.gw-map-locus').length === n,
      scenario.inside.length,
    );
    const drawn = await dots.evaluateAll((circles) => circles.map((c) => c.getAttribute('data-locus-id') ?? ''));
    expect(drawn.sort()).toEqual(scenario.inside.map((l) => l.id).sort());

    // Where each dot falls against the drawn outlines, and the canvas colour under it.
    const placed = await page.evaluate(() => {
      const svg = document.querySelector('[data-testid=gw-sky-map] svg') as SVGSVGElement;
      const canvas = document.querySelector('[data-testid=gw-sky-map] canvas') as HTMLCanvasElement;
      const scale = canvas.width / svg.viewBox.baseVal.width;
      const context = canvas.getContext('2d')!;
      const region = (level: string) => svg.querySelector(`path.gw-credible-region[data-level="${level}"]`) as SVGPathElement;
      const inFill = (path: SVGPathElement, x: number, y: number) => path.isPointInFill(new DOMPoint(x, y));
      return [...svg.querySelectorAll('circle.gw-map-locus')].map((c) => {
        const x = Number(c.getAttribute('cx'));
        const y = Number(c.getAttribute('cy'));
        const rgba = [...context.getImageData(Math.floor(x * scale), Math.floor(y * scale), 1, 1).data];
        return { id: c.getAttribute('data-locus-id') ?? '', in50: inFill(region('0.5'), x, y), in90: inFill(region('0.9'), x, y), rgba };
      });
    });
    const byId = new Map(placed.map((p) => [p.id, p]));
    // Outlines follow the map's pixels: only loci well clear of an outline are checked against it.
    const clearlyIn50 = scenario.inside.filter((l) => l.level <= 0.35);
    const clearlyOnlyIn90 = scenario.inside.filter((l) => l.level >= 0.62 && l.level <= 0.85);
    expect(clearlyIn50.length).toBeGreaterThan(0);
    expect(clearlyOnlyIn90.length).toBeGreaterThan(0);
    for (const locus of clearlyIn50) expect(byId.get(locus.id), locus.id).toMatchObject({ in50: true, in90: true });
    for (const locus of clearlyOnlyIn90) expect(byId.get(locus.id), locus.id).toMatchObject({ in50: false, in90: true });
    // The densest place is painted with the darkest colour of the ramp.
    const peak = byId.get(scenario.centre.id)!;
    const darkest = hex(DENSITY_COLOURS.at(-1)!);
    expect(peak.rgba[3]).toBe(255);
    expect(Math.max(...darkest.map((v, i) => Math.abs(v - peak.rgba[i])))).toBeLessThan(12);

    const legend = page.getByTestId('gw-sky-map-legend');
    await legend.getByText(`50% credible region (${formatArea(scenario.event.area50)})`).waitFor();
    await legend.getByText(`90% credible region (${formatArea(scenario.event.area90)})`).waitFor();
    await expectNoSeriousViolations(page);
    expect(watch.problems()).toEqual([]);
  });

  it('pages through the loci of the 90% region, lowest credible level first, each linking its locus page', async () => {
    const total = scenario.inside.length;
    expect(total).toBeGreaterThan(10);
    await waitForShowing(page, 'gw-event-loci', `Showing 1 to 10 of ${total} entries`);
    const seen: string[][] = [...(await rowTexts(page, 'gw-event-loci'))];
    for (let from = 11; from <= total; from += 10) {
      await page.locator('nav[aria-label="Loci inside the 90% credible region pages"]').getByRole('button', { name: 'Next page' }).click();
      await waitForShowing(page, 'gw-event-loci', `Showing ${from} to ${Math.min(total, from + 9)} of ${total} entries`);
      seen.push(...(await rowTexts(page, 'gw-event-loci')));
    }
    const positions = new Map(scenario.inside.map((l) => [l.id, l]));
    expect(seen.map((cells) => cells[0]).sort()).toEqual([...positions.keys()].sort());
    for (const [id, ra, dec] of seen) expect([ra, dec], id).toEqual([positions.get(id)!.ra.toFixed(4), positions.get(id)!.dec.toFixed(4)]);
    const levels = seen.map((cells) => Number(cells[3]));
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    for (const [id, , , level] of seen) expect(Math.abs(Number(level) - positions.get(id)!.level * 100), id).toBeLessThan(1);

    await page.locator('nav[aria-label="Loci inside the 90% credible region pages"]').getByRole('button', { name: 'First page' }).click();
    await waitForShowing(page, 'gw-event-loci', `Showing 1 to 10 of ${total} entries`);
    const first = (await rowTexts(page, 'gw-event-loci'))[0][0];
    await page.locator('#gw-event-loci').getByRole('link', { name: first, exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/loci/${first}`);
  });

  it("shows the locus page's gravitational-wave tab as the alerts have it, paginated over 10 rows", async () => {
    const locus = scenario.mostAlerts;
    await open(page, `/loci/${locus.id}`);
    await page.getByRole('tab', { name: 'Gravitational wave events' }).click();
    const expected = locus.rows.map((r) => [
      r.gracedb_id,
      r.alert_id,
      r.mjd.toFixed(2),
      String(Math.round(r.contour_area)),
      String(r.contour_level),
    ]);
    expect(expected.length).toBeGreaterThan(0);
    const headers = (await page.locator('#locus-gw-events thead th').allTextContents()).map((t) => t.replace(/[▲▼↕]/g, '').trim());
    expect(headers).toEqual(['gracedb_id', 'id', 'mjd', 'contour_area', 'contour_level']);
    await page.locator('#locus-gw-events tbody tr td').first().waitFor();
    const pages = page.locator('nav[aria-label="Gravitational wave events pages"]');
    const seen = await rowTexts(page, 'locus-gw-events');
    if (expected.length > 10) {
      expect(seen.length).toBe(10);
      for (let p = 2; p <= Math.ceil(expected.length / 10); p += 1) {
        await pages.getByRole('button', { name: `Page ${p}` }).click();
        await waitForShowing(
          page,
          'locus-gw-events',
          `Showing ${(p - 1) * 10 + 1} to ${Math.min(expected.length, p * 10)} of ${expected.length} entries`,
        );
        seen.push(...(await rowTexts(page, 'locus-gw-events')));
      }
      expect(seen.length).toBe(expected.length);
    } else {
      // Pagination only when the rows exceed a page.
      expect(await pages.count()).toBe(0);
    }
    expect(seen.map((r) => r.join('|')).sort()).toEqual(expected.map((r) => r.join('|')).sort());
    await expect(page.getByRole('link', { name: `GW map ${GW_ID}` }).getAttribute('href')).resolves.toBe(
      `https://gracedb.ligo.org/superevents/${GW_ID}/view/`,
    );
    await expectNoSeriousViolations(page);
    // The event id leads to the event's page (page 1 holds rows of both events: 10 of the rows, at most 7 of one event).
    if (expected.length > 10) await pages.getByRole('button', { name: 'First page' }).click();
    await page.locator('#locus-gw-events').getByRole('link', { name: GW_ID, exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === `/gw-events/${GW_ID}`);

    await open(page, `/loci/${scenario.outside.id}`);
    await page.getByRole('tab', { name: 'Gravitational wave events' }).click();
    await page.getByText('No gravitational wave events associated to this locus').waitFor();
  });

  it("finds the event's loci with the search panel's GW filter (a prefix) and from the event page", async () => {
    const total = scenario.inside.length;
    const prefix = GW_ID.slice(0, 6);
    await open(page, '/loci');
    await page.getByLabel('Gravitational Wave Event ID').fill(prefix);
    await page.getByRole('button', { name: 'Apply Filters' }).click();
    await page.waitForFunction(() =>
      (document.querySelector('[data-testid=active-filters]')?.textContent ?? '').includes('Gravitational Wave Event'),
    );
    expect(listQuery(page).filters.at(-1)).toMatchObject({ type: 'wildcard', text: `Gravitational Wave Event: ${prefix}` });
    await page
      .getByTestId('showing-label')
      .filter({ hasText: new RegExp(` of ${total}$`) })
      .waitFor();
    const ids = await page.locator('[data-testid=locus-row] td:first-child a').allTextContents();
    const inside = new Set(scenario.inside.map((l) => l.id));
    expect(ids.length).toBe(Math.min(25, total));
    for (const id of ids) expect(inside.has(id), id).toBe(true);

    // A prefix no event has matches nothing.
    await page.getByRole('button', { name: /^Remove filter Gravitational Wave Event/ }).click();
    // The panel is remounted (in its reset state) once the URL holds the new filters: type after that,
    // or a slow navigation wipes what was typed.
    await page.waitForFunction(
      () => !(document.querySelector('[data-testid=active-filters]')?.textContent ?? '').includes('Gravitational Wave Event'),
    );
    await page.getByLabel('Gravitational Wave Event ID').fill('MS2511209');
    await page.getByRole('button', { name: 'Apply Filters' }).click();
    await page.getByRole('heading', { name: 'Nothing Matched Your Search' }).waitFor();

    await open(page, `/gw-events/${GW_ID}`);
    await page.getByRole('link', { name: 'View in the locus search' }).click();
    await page.waitForURL((url) => url.pathname === '/loci');
    expect(listQuery(page).filters).toEqual([
      { type: 'term', field: 'grav_wave_events', value: GW_ID, text: `Gravitational Wave Event: ${GW_ID}` },
    ]);
    await page
      .getByTestId('showing-label')
      .filter({ hasText: new RegExp(` of ${total}$`) })
      .waitFor();
  });

  it('shows a retracted event with a warning, no sky map and no loci', async () => {
    await open(page, `/gw-events/${RETRACTED_ID}`);
    await page.getByText('This event was retracted').waitFor();
    await page.getByText('No sky map is available for this event.').waitFor();
    await page.getByText('No locus lies inside the 90% credible region of this event.').waitFor();
    await expectNoSeriousViolations(page);
  });

  it('says Not Found for an unknown event', async () => {
    await open(page, '/gw-events/MS000101zz');
    await page.getByRole('heading', { name: 'Not Found' }).waitFor();
  });
});

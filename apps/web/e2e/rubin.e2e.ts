import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';

import { baseURL, expectNoSeriousViolations, listQuery, open } from './support/app';
import { requireChromium } from './support/chromium';
import { dropAlertFiles, inboxStates, pollUntil } from './support/inbox';
import { usePage } from './support/page';
import { WEB_ROOT } from './support/server';

/**
 * Rubin (LSST) loci end to end, on real alerts re-published by Fink (../shared/data/fink-broker, read
 * in place): dropped into the server's inbox, ingested like any other file, then looked up and shown.
 * Every Rubin id here exceeds 2^53, so a single JS number on the way would change its last digits.
 */
const enabled = requireChromium();
// The files are dropped into the inbox of a server the tests started (none for ANTARES_E2E_BASE_URL).
const dataDir = inject('dataDir');
const FINK = path.resolve(WEB_ROOT, '../../../shared/data/fink-broker');

/** Rubin schema 7.4: a detection with 2 earlier DiaSources (both removed by Level 1) and the brief's diaObjectId. */
const EXAMPLE = {
  file: 'rubin_v7.4_fink/58804293150441522_58804293150441522.avro',
  diaObjectId: '3677566298566426694',
  diaSourceId: '58804293150441522',
};
/**
 * Rubin schema 7.4: an i-band detection with 4 earlier g-band DiaSources and 7 forced-photometry
 * points, 3 of them on visits without a DiaSource: two faint (upper limits, no ant_mag) and one
 * at 5 sigma (a measurement).
 */
const HISTORY = {
  file: 'rubin_v7.4_fink/58804311353720877_58804311353720877.avro',
  diaObjectId: '3532695522663989281',
  diaSourceId: '58804311353720877',
  forcedMeasurement: 'lsst_forced:58804277715402768',
  forcedLimits: ['lsst_forced:58804260929798167', 'lsst_forced:58804269293240342'],
};
/** Rubin schema 9.0: a first detection (no history), its 18-digit diaObjectId equal to its diaSourceId. */
const V9 = { file: 'rubin_v9.0_fink_subset/169298432603193359_169298432603193359.avro', diaObjectId: '169298432603193359' };
/** Another 7.4 locus with forced photometry, so that more than one Rubin locus shares the field. */
const MORE = { file: 'rubin_v7.4_fink/58804302302412845_58804302302412845.avro' };

interface ApiAlert {
  id: string;
  attributes: { mjd: number; properties: Record<string, unknown> };
}

async function apiJson<T>(pathAndQuery: string): Promise<T> {
  const response = await fetch(`${baseURL()}/v1${pathAndQuery}`);
  if (!response.ok) throw new Error(`GET ${pathAndQuery}: ${response.status} ${await response.text()}`);
  // The raw text is checked too: ids above 2^53 must travel as strings, never as bare JSON numbers.
  return JSON.parse(await response.text()) as T;
}

/** The locus ids whose properties.survey.lsst.dia_object_id holds the id (a string term). */
async function lociOfDiaObject(diaObjectId: string): Promise<string[]> {
  const query = { query: { bool: { filter: [{ term: { 'properties.survey.lsst.dia_object_id': diaObjectId } }] } } };
  const document = await apiJson<{ data: { id: string }[] }>(
    `/loci?elasticsearch_query%5Blocus_listing%5D=${encodeURIComponent(JSON.stringify(query))}`,
  );
  return document.data.map((locus) => locus.id);
}

async function alertsOf(locusId: string): Promise<ApiAlert[]> {
  return (await apiJson<{ data: ApiAlert[] }>(`/loci/${locusId}/alerts?page%5Blimit%5D=100`)).data;
}

/** Waits until the locus list shows exactly these loci (a new lookup replaces the rows shortly after the URL). */
async function expectListedLoci(page: Page, expected: string[]): Promise<void> {
  const rows = page.locator('[data-testid=locus-row] td:first-child a');
  await expect.poll(() => rows.allTextContents(), { timeout: 15_000 }).toEqual(expected);
}

async function lookUp(page: Page, text: string): Promise<void> {
  const box = page.getByRole('search');
  await box.getByPlaceholder('Lookup Object by ID').fill(text);
  await box.getByRole('button', { name: 'Lookup' }).click();
  await page.waitForFunction(
    (expected) => JSON.parse(new URL(location.href).searchParams.get('query') ?? '{}').filters?.[0]?.text === expected,
    `ID Lookup: ${text}`,
  );
  await page.waitForLoadState('networkidle');
}

describe.skipIf(!enabled || !dataDir)('Rubin loci from real alerts', () => {
  let page: Page;
  let problems: () => string[];
  /** Locus ids, by the alert files above. */
  const locus = { example: '', history: '', v9: '' };
  let historyAlerts: ApiAlert[] = [];

  beforeAll(async () => {
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
    const files = dropAlertFiles(
      dataDir,
      [EXAMPLE, HISTORY, V9, MORE].map(({ file }) => path.join(FINK, file)),
      `rubin-${stamp}`,
    );
    const states = await pollUntil(
      () => Promise.resolve(inboxStates(dataDir, files)),
      (s) => !s.includes('waiting'),
      120_000,
      'Rubin inbox files',
    );
    expect(states, 'the server took every Rubin file (inbox/done)').toEqual(files.map(() => 'done'));
    // Each file holds one packet, stored now or by an earlier run (ingesting is idempotent).
    for (const name of files) {
      const summary = JSON.parse(readFileSync(path.join(dataDir, 'inbox', 'done', `${name}.summary.json`), 'utf8'));
      expect(summary.packets_stored + summary.already_ingested, name).toBe(1);
    }
    for (const [key, file] of [
      ['example', EXAMPLE],
      ['history', HISTORY],
      ['v9', V9],
    ] as const) {
      const ids = await pollUntil(
        () => lociOfDiaObject(file.diaObjectId),
        (found) => found.length > 0,
        30_000,
        `locus of diaObject ${file.diaObjectId}`,
      );
      expect(ids, file.diaObjectId).toHaveLength(1);
      locus[key] = ids[0];
    }
    historyAlerts = await alertsOf(locus.history);
  }, 300_000);
  usePage((opened) => {
    ({ page } = opened);
    ({ problems } = opened.watch);
  });

  it('ingested the Rubin alerts with their history and forced photometry, ids as exact strings', async () => {
    const ids = historyAlerts.map((alert) => alert.id).sort();
    expect(ids).toEqual(
      [
        `lsst:${HISTORY.diaSourceId}`,
        'lsst:58804235763974145',
        'lsst:58804244152582145',
        'lsst:58804252541190145',
        'lsst:58804286104010773',
        HISTORY.forcedMeasurement,
        ...HISTORY.forcedLimits,
      ].sort(),
    );
    const byId = new Map(historyAlerts.map((alert) => [alert.id, alert.attributes.properties]));
    // Every Rubin alert is ant_survey 4 (LSST, as TOMs read it); forced photometry is flagged (ADR 0013).
    for (const [id, properties] of byId)
      expect([id, properties.ant_survey, properties.ant_forced_photometry]).toEqual([
        id,
        4,
        id.startsWith('lsst_forced:') ? true : undefined,
      ]);
    expect(byId.get(`lsst:${HISTORY.diaSourceId}`)).toMatchObject({
      ant_passband: 'i',
      lsst_diaSource_diaSourceId: HISTORY.diaSourceId,
      lsst_diaSource_diaObjectId: HISTORY.diaObjectId,
    });
    expect(byId.get(HISTORY.forcedMeasurement)).toMatchObject({ ant_survey: 4, ant_passband: 'g' });
    expect(typeof byId.get(HISTORY.forcedMeasurement)?.ant_mag).toBe('number');
    for (const id of HISTORY.forcedLimits) {
      expect(byId.get(id)).toMatchObject({ ant_survey: 4 });
      expect(byId.get(id)?.ant_mag, `${id} is an upper limit`).toBeUndefined();
      expect(typeof byId.get(id)?.ant_maglim).toBe('number');
    }
  });

  it('looks up a locus by its Rubin diaObjectId (above 2^53): every digit survives in the URL, the list, the header and the Locus Properties', async () => {
    await open(page, '/loci');
    await lookUp(page, EXAMPLE.diaObjectId);
    // The id travels in the URL as the JSON string it is (a number would be 3677566298566426600).
    const raw = new URL(page.url()).searchParams.get('query') ?? '';
    expect(raw).toContain(`"value":"${EXAMPLE.diaObjectId}"`);
    expect(listQuery(page).filters).toEqual([
      {
        type: 'term',
        field: 'properties.survey.lsst.dia_object_id',
        value: EXAMPLE.diaObjectId,
        text: `ID Lookup: ${EXAMPLE.diaObjectId}`,
      },
    ]);
    await expectListedLoci(page, [locus.example]);
    // The list row shows the locus' newest Rubin cutouts.
    const rowThumbnails = page.locator('[data-testid=locus-row] img');
    await expect.poll(() => rowThumbnails.count()).toBe(3);
    for (const src of await rowThumbnails.evaluateAll((images) => images.map((image) => (image as HTMLImageElement).src))) {
      expect(src).toMatch(new RegExp(`/v1/thumbnails/diaSource${EXAMPLE.diaSourceId}_(sci|ref|diff)\\.fits\\.png$`));
    }

    await page.locator('[data-testid=locus-row] td:first-child a').first().click();
    await page.waitForURL((url) => url.pathname === `/loci/${locus.example}`);
    await page.getByTestId('survey-object-id').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('survey-object-id').textContent()).toBe(EXAMPLE.diaObjectId);
    await expect.poll(() => page.title()).toBe(`${locus.example} | ANTARES`);
    await page.getByTestId('locus-header').getByText(`ANTARES locus ${locus.example}`).waitFor();
    const email = (await page.getByRole('link', { name: 'Email a link to this locus' }).getAttribute('href')) ?? '';
    expect(decodeURIComponent(email)).toContain(`subject=ANTARES: ${EXAMPLE.diaObjectId}`);
    // Locus Information names the Rubin id; the ZTF one is not applicable.
    const info = await page.locator('main').innerText();
    expect(info).toMatch(new RegExp(`Rubin diaObject ID\\s+${EXAMPLE.diaObjectId}`));
    expect(info).toMatch(/ZTF Object ID\s+N\/A/);

    // Locus Properties (collapsed at first): the survey ids, as decimal strings.
    await page.getByRole('button', { name: 'Locus Properties' }).click();
    await page.locator('#locus-properties-page-size').selectOption('200');
    const surveyRow = page.locator('#locus-properties tbody tr').filter({ has: page.locator('td:first-child', { hasText: /^survey$/ }) });
    const surveyValue = (await surveyRow.locator('td').nth(1).textContent()) ?? '';
    expect(JSON.parse(surveyValue)).toMatchObject({ lsst: { dia_object_id: [EXAMPLE.diaObjectId] } });
    expect(surveyValue).toContain(`"${EXAMPLE.diaObjectId}"`);
    const newest = page
      .locator('#locus-properties tbody tr')
      .filter({ has: page.locator('td:first-child', { hasText: /^newest_alert_id$/ }) });
    expect(await newest.locator('td').nth(1).textContent()).toBe(`lsst:${EXAMPLE.diaSourceId}`);

    // The same lookup by URL (/loci/lookup/{id}), and an 18-digit id of schema 9.0.
    await open(page, `/loci/lookup/${EXAMPLE.diaObjectId}`);
    expect(listQuery(page).filters[0]).toMatchObject({ type: 'term', value: EXAMPLE.diaObjectId });
    await expectListedLoci(page, [locus.example]);
    await lookUp(page, V9.diaObjectId);
    expect(new URL(page.url()).searchParams.get('query')).toContain(`"value":"${V9.diaObjectId}"`);
    await expectListedLoci(page, [locus.v9]);
    expect(problems()).toEqual([]);
  });

  it('looks up a locus by a Rubin alert id (lsst:<diaSourceId>, lsst_forced:<diaForcedSourceId>)', async () => {
    await open(page, '/tags');
    for (const alertId of [`lsst:${HISTORY.diaSourceId}`, 'lsst:58804235763974145', HISTORY.forcedMeasurement]) {
      await lookUp(page, alertId);
      expect(listQuery(page).filters).toEqual([
        { type: 'terms', field: 'locus_id', value: [locus.history], text: `ID Lookup: ${alertId}` },
      ]);
      await expectListedLoci(page, [locus.history]);
    }
    await lookUp(page, `lsst:${EXAMPLE.diaSourceId}`);
    await expectListedLoci(page, [locus.example]);
    // One digit off: no such alert, nothing matches.
    await lookUp(page, `lsst:${HISTORY.diaSourceId.slice(0, -1)}8`);
    await page.getByRole('heading', { name: 'Nothing Matched Your Search' }).waitFor();
    expect(problems()).toEqual([]);
  });

  it('draws the Rubin lightcurve: its own bands and legend entries, detections and forced photometry (measurements and upper limits)', async () => {
    await open(page, `/loci/${locus.history}`);
    expect(await page.getByTestId('survey-object-id').textContent()).toBe(HISTORY.diaObjectId);
    const lightcurve = page.getByTestId('lightcurve');
    await lightcurve.locator('g.mark').first().waitFor();
    // Every limit drawn, one mark per alert (by default only the informative limits are).
    await page.getByLabel('All limits').check();
    const legend = (category: string) =>
      lightcurve.locator(`[data-legend^="${category}:"]`).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-legend')));
    expect(await legend('passband')).toEqual(['passband:g', 'passband:i']);
    expect(await legend('alertType')).toEqual(['alertType:rubin_detection', 'alertType:rubin_forced', 'alertType:rubin_upper_limit']);
    for (const label of ['Rubin detection', 'Rubin forced meas.', 'Rubin upper limit'])
      await lightcurve.locator('.legend-item', { hasText: label }).waitFor();
    const typeLegend = page.getByTestId('alert-type-legend');
    const types = await typeLegend.locator('ul').first().locator('li').allTextContents();
    expect(types).toEqual(['4Rubin detection', '4Rubin forced measurement', '4Rubin upper limit']);

    // One mark per alert, of its type and band: forced points without ant_mag are upper limits.
    const marks = lightcurve.locator('g.mark');
    const drawn = await marks.evaluateAll((nodes) =>
      nodes.map((n) => [n.getAttribute('data-alert-type'), n.getAttribute('data-passband'), n.getAttribute('data-kind')].join(' ')),
    );
    const typeOf = (id: string, mag: unknown) =>
      !id.startsWith('lsst_forced:') ? 'rubin_detection' : typeof mag === 'number' ? 'rubin_forced' : 'rubin_upper_limit';
    const expected = historyAlerts.map(
      ({ id, attributes: { properties: p } }) =>
        `${typeOf(id, p.ant_mag)} ${p.ant_passband} ${typeof p.ant_mag === 'number' ? 'magnitude' : 'upper_limit'}`,
    );
    expect(drawn.sort()).toEqual(expected.sort());
    expect(drawn).toEqual(
      expect.arrayContaining([
        'rubin_detection g magnitude',
        'rubin_detection i magnitude',
        'rubin_forced g magnitude',
        'rubin_upper_limit g upper_limit',
      ]),
    );
    // g and i in their own colours.
    const colour = (band: string) => lightcurve.locator(`g.mark[data-passband="${band}"] path.symbol`).first().getAttribute('stroke');
    expect(await colour('g')).not.toBe(await colour('i'));
    // The magnitude axis spans the measurements, not the 63-mag error bar of the newest detection
    // (an i-band flux at the noise level): every tick lies between 20 and 32.
    const ticks = (await lightcurve.locator('.y-axis .tick text').allTextContents()).map((text) => Number(text.replace(/\u2212/g, '-')));
    expect(ticks.length).toBeGreaterThan(2);
    for (const tick of ticks) expect(tick, `y tick ${tick}`).toBeGreaterThanOrEqual(20);
    for (const tick of ticks) expect(tick, `y tick ${tick}`).toBeLessThanOrEqual(32);

    // Selecting a legend entry shows only its marks: the forced measurement, then the upper limits.
    const shownMarks = async () =>
      (await marks.evaluateAll((nodes) => nodes.map((n) => `${n.getAttribute('data-alert-type')} ${n.getAttribute('data-kind')}`))).sort();
    await lightcurve.locator('[data-legend="alertType:rubin_forced"]').click();
    expect(await shownMarks()).toEqual(['rubin_forced magnitude']);
    await lightcurve.locator('[data-legend="alertType:rubin_upper_limit"]').click();
    expect(await shownMarks()).toEqual(['rubin_upper_limit upper_limit', 'rubin_upper_limit upper_limit']);
    await lightcurve.locator('[data-legend="alertType:rubin_upper_limit"]').click();
    expect(await marks.count()).toBe(historyAlerts.length);
    await expectNoSeriousViolations(page);
    expect(problems()).toEqual([]);
  });

  it('shows the Rubin cutouts in the thumbnails gallery, rendered from plain FITS to PNG by the server', async () => {
    await open(page, `/loci/${locus.history}`);
    const select = page.getByTestId('thumbnail-alert-select');
    // Alerts with a magnitude, oldest first; the newest (the packet's own detection) is selected.
    await expect(select.inputValue()).resolves.toBe(`lsst:${HISTORY.diaSourceId}`);
    const options = await select.locator('option').evaluateAll((nodes) => nodes.map((n) => (n as HTMLOptionElement).value));
    expect(options).toContain(HISTORY.forcedMeasurement);
    for (const limit of HISTORY.forcedLimits) expect(options).not.toContain(limit);
    const gallery = page.getByTestId('thumbnail-gallery');
    for (const type of ['science', 'template', 'difference']) {
      const image = gallery.getByAltText(`lsst:${HISTORY.diaSourceId} ${type} cutout`);
      await image.scrollIntoViewIfNeeded();
      await page.waitForFunction(
        (element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth > 0,
        await image.elementHandle(),
      );
      // Rubin cutouts are 30x30 pixel FITS images.
      expect(
        await image.evaluate((element) => [(element as HTMLImageElement).naturalWidth, (element as HTMLImageElement).naturalHeight]),
      ).toEqual([30, 30]);
      const src = (await image.getAttribute('src')) ?? '';
      expect(src).toMatch(/\/v1\/thumbnails\/diaSource58804311353720877_(sci|ref|diff)\.fits\.png$/);
      const response = await fetch(src);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await response.arrayBuffer())
          .subarray(1, 4)
          .toString('latin1'),
      ).toBe('PNG');
    }
    // History points came without cutouts.
    await select.selectOption(HISTORY.forcedMeasurement);
    await gallery.getByText('No thumbnails are stored for this alert.').waitFor();
    expect(problems()).toEqual([]);
  });

  it('lists the lsst: and lsst_forced: alerts with their exact ids, and shows a packet with its Rubin ids', async () => {
    await open(page, `/loci/${locus.history}`);
    const table = page.locator('#locus-alerts');
    await table.locator('tbody tr').first().waitFor();
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
    const shown = rows.map((cells) => cells[4].replace(/^Show /, ''));
    expect(shown.sort()).toEqual(historyAlerts.map((alert) => alert.id).sort());
    // Upper limits have no magnitude; everything else shows it with 2 decimals.
    for (const cells of rows) {
      const id = cells[4].replace(/^Show /, '');
      if (HISTORY.forcedLimits.includes(id)) expect(cells[2], id).toBe('');
      else expect(cells[2], id).toMatch(/^\d+\.\d{2}$/);
    }

    await table.getByRole('button', { name: `Show lsst:${HISTORY.diaSourceId}`, exact: true }).click();
    const packet = page.locator(`#alert-packet-lsst_${HISTORY.diaSourceId}`);
    await packet.locator('tbody tr').first().waitFor();
    const pages = page.getByRole('navigation', { name: `Properties of alert lsst:${HISTORY.diaSourceId} pages` });
    const values = new Map<string, string>();
    for (let n = 0; n < 40 && !(values.has('lsst_diaSource_diaObjectId') && values.has('lsst_diaSource_diaSourceId')); n++) {
      for (const [key, value] of await packet
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''))))
        values.set(key, value);
      const next = pages.getByLabel('Next page');
      if (
        (await next.count()) === 0 ||
        (await next.evaluate((element) => element.closest('.disabled') !== null || element.hasAttribute('disabled')))
      )
        break;
      await next.click();
    }
    expect(values.get('lsst_diaSource_diaSourceId')).toBe(HISTORY.diaSourceId);
    expect(values.get('lsst_diaSource_diaObjectId')).toBe(HISTORY.diaObjectId);
    expect(values.get('ant_survey')).toBe('4');
    expect(problems()).toEqual([]);
  });
});

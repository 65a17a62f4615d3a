import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { downloadBytes, expectNoSeriousViolations, firstLocusIds, open, pdfText } from './support/app';
import { type BrowserSession, requireChromium } from './support/chromium';
import { usePage } from './support/page';

const enabled = requireChromium();

/** The x-axis tick labels of the lightcurve (they change with zoom and axis mode). */
async function xTicks(page: Page): Promise<string[]> {
  return page.locator('[data-testid=lightcurve] .x-axis .tick text').allTextContents();
}

describe.skipIf(!enabled)('locus detail', () => {
  let session: BrowserSession;
  let page: Page;
  let locusId: string;

  usePage(async (opened) => {
    ({ page, session } = opened);
    // The locus with the most measurements makes the richest lightcurve.
    await open(
      page,
      `/loci?query=${encodeURIComponent(JSON.stringify({ currentPage: 1, filters: [], sortBy: 'properties.num_mag_values', sortDesc: true, perPage: 5 }))}`,
    );
    [locusId] = await firstLocusIds(page);
  });

  it('opens a locus from the list with its title, header and sections', async () => {
    await page.locator('[data-testid=locus-row] td:first-child a').first().click();
    await page.waitForURL(`**/loci/${locusId}`);
    await page.waitForFunction((title) => document.title === title, `${locusId} | ANTARES`);
    await page.waitForLoadState('networkidle');
    const coordinates = (await page.getByTestId('coordinates').textContent()) ?? '';
    expect(coordinates).toMatch(/ICRS: \d\d:\d\d:\d\d\.\d\d [+-]\d\d:\d\d:\d\d\.\d\d/);
    expect(coordinates).toMatch(/ICRS: \d+\.\d{4} -?\d+\.\d{4}/);
    expect(coordinates).toMatch(/Gal: \d+\.\d{4} -?\d+\.\d{4}/);
    for (const section of ['Lightcurve', 'Alert Thumbnails', 'Alerts', 'Catalog Matches', 'Locus Properties']) {
      await page.getByRole('button', { name: section, exact: true }).waitFor();
    }
    expect(await page.getByRole('button', { name: 'Locus Properties', exact: true }).getAttribute('aria-expanded')).toBe('false');
    await page.getByPlaceholder('Enter a comment for this locus').waitFor();
    const email = (await page.getByRole('link', { name: 'Email a link to this locus' }).getAttribute('href')) ?? '';
    expect(decodeURIComponent(email)).toContain(`/loci/${locusId}`);
    expect(decodeURIComponent(email)).toContain('subject=ANTARES: ');
    // No network in tests: the sky viewer shows its placeholder instead of Aladin Lite.
    await page.getByTestId('sky-viewer-placeholder').getByText('Sky viewer unavailable').waitFor({ timeout: 20_000 });
    await expectNoSeriousViolations(page);
  });

  it('brushes the lightcurve and zooms to the selection, in, out and back', async () => {
    const svg = page.getByTestId('lightcurve');
    await svg.scrollIntoViewIfNeeded();
    const full = await xTicks(page);
    const box = (await svg.boundingBox())!;
    await page.mouse.move(box.x + 120, box.y + 40);
    await page.mouse.down();
    await page.mouse.move(box.x + 420, box.y + 420, { steps: 8 });
    await page.mouse.up();
    const zoomToSelection = page.getByRole('button', { name: 'Zoom to Selection' });
    await expect.poll(() => zoomToSelection.isEnabled()).toBe(true);
    await zoomToSelection.click();
    await page.waitForTimeout(1300);
    const zoomed = await xTicks(page);
    expect(zoomed).not.toEqual(full);
    await page.getByRole('button', { name: 'Zoom In' }).click();
    await page.waitForTimeout(700);
    expect(await xTicks(page)).not.toEqual(zoomed);
    await page.getByRole('button', { name: 'Zoom Out' }).click();
    await page.waitForTimeout(700);
    await page.getByRole('button', { name: 'Clear Zoom' }).click();
    await page.waitForTimeout(1300);
    expect(await xTicks(page)).toEqual(full);
    await page.getByRole('button', { name: 'Clear Selection' }).click();
    expect(await zoomToSelection.isDisabled()).toBe(true);
  });

  it('toggles a legend entry and the time axis', async () => {
    const marks = page.locator('[data-testid=lightcurve] g.mark');
    const all = await marks.count();
    const passband = await page.locator('[data-testid=lightcurve] [data-legend^="passband:"]').first().getAttribute('data-legend');
    await page.locator(`[data-testid=lightcurve] [data-legend="${passband}"]`).click();
    const band = passband!.split(':')[1];
    const shown = await marks.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-passband')));
    expect(new Set(shown)).toEqual(new Set([band]));
    await page.locator(`[data-testid=lightcurve] [data-legend="${passband}"]`).click();
    expect(await marks.count()).toBe(all);
    await page.locator('[data-testid=lightcurve] [data-legend^="axis:"]').click();
    expect(await page.locator('[data-testid=lightcurve] .x-label').textContent()).toBe('Date (UTC)');
    expect((await xTicks(page))[0]).toMatch(/^\d{4}-\d\d-\d\d$|^\d\d-\d\d \d\d:\d\d$/);
    await page.locator('[data-testid=lightcurve] [data-legend^="axis:"]').click();
    expect(await page.locator('[data-testid=lightcurve] .x-label').textContent()).toBe('MJD');
  });

  it('exports the lightcurve as a vector PDF', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export to PDF' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`antares-lightcurve-${locusId}.pdf`);
    const bytes = await downloadBytes(file);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // Vector: no embedded raster image, and the axis label is real text.
    expect(bytes.toString('latin1')).not.toContain('/Subtype /Image');
    expect(pdfText(bytes)).toContain('Magnitude');
  });

  it('steps through the alert thumbnails', async () => {
    const select = page.getByTestId('thumbnail-alert-select');
    await select.scrollIntoViewIfNeeded();
    const options = await select.locator('option').count();
    expect(options).toBeGreaterThan(0);
    const last = await select.inputValue();
    expect(last).toBe(await select.locator('option').last().getAttribute('value'));
    await page.getByTestId('thumbnail-gallery').locator('img').first().waitFor();
    if (options > 1) {
      await page.getByRole('button', { name: 'Previous alert' }).click();
      expect(await select.inputValue()).not.toBe(last);
      const src = await page.getByTestId('thumbnail-gallery').locator('img').first().getAttribute('src');
      await page.getByRole('button', { name: 'Next alert' }).click();
      expect(await select.inputValue()).toBe(last);
      await page.waitForFunction(
        (before) => document.querySelector('[data-testid=thumbnail-gallery] img')?.getAttribute('src') !== before,
        src,
      );
    }
    await page.getByRole('radio', { name: 'MJD' }).check();
    expect(await select.locator('option').first().textContent()).toMatch(/^\d+\.\d{5} /);
    await page.getByLabel('Invert').check();
    await expect(page.getByTestId('thumbnail-gallery').locator('img.thumb-invert').count()).resolves.toBe(3);
  });

  it('lists the alerts by MJD descending and expands an alert packet', async () => {
    const table = page.locator('#locus-alerts');
    await table.scrollIntoViewIfNeeded();
    const mjds = (await table.locator('tbody tr td:first-child').allTextContents()).map(Number);
    expect(mjds).toEqual([...mjds].sort((a, b) => b - a));
    expect(
      await page
        .getByText(/^Showing 1 to \d+ of \d+ entries$/)
        .first()
        .textContent(),
    ).toBeTruthy();
    await table
      .getByRole('button', { name: /^Show / })
      .first()
      .click();
    await page.locator('[id^=alert-packet-]').first().waitFor();
  });

  it('exports the locus properties as CSV', async () => {
    await page.getByRole('button', { name: 'Locus Properties', exact: true }).click();
    await page.locator('#locus-properties tbody tr').first().waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`antares-locus-${locusId}-properties.csv`);
    const csv = (await downloadBytes(file)).toString('utf8');
    expect(csv.split('\r\n')[0]).toBe('key,value');
    expect(csv).toContain('num_mag_values,');
  });

  it('downloads the finder chart as a PDF naming the locus', async () => {
    const button = page.getByRole('button', { name: 'Finder Chart' });
    // Either the PDF arrives or the page shows why not (then the test fails with that message).
    const message = page.getByText(/^The finder chart could not be made/);
    const download = page.waitForEvent('download', { timeout: 60_000 }).catch(() => null);
    const failure = message.waitFor({ timeout: 60_000 }).then(
      () => message.textContent(),
      () => null,
    );
    // The request is held back a moment so that the button can be seen disabled while it runs.
    const finderCharts = (url: URL) => url.pathname === `/v1/loci/${locusId}/finder-charts`;
    await page.route(finderCharts, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await button.click();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('button')].some((b) => b.textContent?.includes('Finder Chart') && b.disabled),
    );
    const file = await Promise.race([download, failure]);
    await page.unroute(finderCharts);
    if (file === null || typeof file === 'string') throw new Error(file ?? 'no finder chart was downloaded');
    expect(file.suggestedFilename()).toBe(`antares-locus-${locusId}.pdf`);
    const bytes = await downloadBytes(file);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfText(bytes)).toContain(locusId);
    await expect.poll(() => button.isDisabled()).toBe(false);
  });

  it('shows a Rubin locus: diaObjectId as survey id, the six Rubin bands and ZTF R in their own colours, Rubin alert types', async () => {
    // The server's documents for one Rubin locus are stood in for, in the wire format (ids above 2^53 as
    // strings, lowercase u g r i z y, ant_survey 4 for every Rubin alert), with a DECam point (code 3)
    // that no survey of ours sends but a client-facing code must still be named right.
    const rubinLocus = 'ANT2026rubin0000001';
    const diaObjectId = '169298432598474793';
    const header =
      'time,alert_id,ant_mjd,ant_survey,ant_ra,ant_dec,ant_passband,ant_mag,ant_magerr,ant_maglim,ant_mag_corrected,ant_magerr_corrected,ant_magulim_corrected,ant_magllim_corrected';
    const rows: [string, number, number, string, string, string, string][] = [
      ['lsst:169298432598474701', 60800.1, 4, 'u', '21.0', '0.1', ''],
      ['lsst:169298432598474702', 60800.2, 4, 'g', '20.5', '0.1', ''],
      ['lsst:169298432598474703', 60801.1, 4, 'r', '20.3', '0.1', ''],
      ['lsst:169298432598474704', 60801.2, 4, 'i', '20.2', '0.1', ''],
      ['lsst:169298432598474705', 60802.1, 4, 'z', '20.1', '0.1', ''],
      ['lsst:169298432598474706', 60802.2, 4, 'y', '20.0', '0.1', ''],
      ['lsst_forced:169298432598474707', 60803.1, 4, 'r', '', '', '24.1'],
      ['lsst_forced:169298432598474708', 60803.2, 4, 'g', '21.2', '0.2', ''],
      ['ztf_candidate:2552120390115015005', 60804.1, 1, 'R', '19.8', '0.1', '20.5'],
      ['ztf_upper_limit:ZTF25aaaaaaa-2552120390115', 60805.1, 2, 'g', '', '', '20.4'],
      ['decam:1234567', 60806.1, 3, 'r', '', '', '23.0'],
    ];
    const lightcurve = [
      header,
      ...rows.map(([id, mjd, survey, band, mag, err, lim]) => `x,${id},${mjd},${survey},150.0,2.0,${band},${mag},${err},${lim},,,,`),
    ].join('\n');
    const properties = {
      num_alerts: rows.length,
      num_mag_values: 8,
      newest_alert_observation_time: 60805.1,
      oldest_alert_observation_time: 60800.1,
      survey: { lsst: { dia_object_id: [diaObjectId] } },
    };
    const locusDocument = {
      data: {
        type: 'locus',
        id: rubinLocus,
        attributes: { ra: 150.0, dec: 2.0, htm16: 2 ** 35, properties, tags: [], catalogs: [], grav_wave_events: [], lightcurve },
        meta: { coordinates: { galactic: { l: 236.8, b: 42.1 } } },
      },
      meta: { coordinates: { galactic: { l: 236.8, b: 42.1 } }, newest_thumbnails: [] },
    };
    const alertsDocument = {
      data: rows.map(([id, mjd, survey, band, mag, err, lim]) => ({
        type: 'alert',
        id,
        attributes: {
          mjd,
          grav_wave_events: [],
          properties: {
            ant_mjd: mjd,
            ant_survey: survey,
            ant_passband: band,
            ...(mag ? { ant_mag: Number(mag), ant_magerr: Number(err) } : {}),
            ...(lim ? { ant_maglim: Number(lim) } : {}),
          },
        },
      })),
      meta: { count: rows.length },
      links: {},
    };
    const rubinPage = await session.context.newPage();
    const json = (body: unknown) => ({ contentType: 'application/vnd.api+json', body: JSON.stringify(body) });
    await rubinPage.route(
      (url) => url.pathname === `/v1/loci/${rubinLocus}`,
      (route) => route.fulfill(json(locusDocument)),
    );
    await rubinPage.route(
      (url) => url.pathname === `/v1/loci/${rubinLocus}/alerts`,
      (route) => route.fulfill(json(alertsDocument)),
    );
    try {
      await open(rubinPage, `/loci/${rubinLocus}`);
      expect(await rubinPage.title()).toBe(`${rubinLocus} | ANTARES`);
      expect(await rubinPage.getByTestId('survey-object-id').textContent()).toBe(diaObjectId);
      const email = (await rubinPage.getByRole('link', { name: 'Email a link to this locus' }).getAttribute('href')) ?? '';
      expect(decodeURIComponent(email)).toContain(`subject=ANTARES: ${diaObjectId}`);

      // Every limit drawn (by default only the informative ones are: locus-detail-views.e2e.ts).
      await rubinPage.getByLabel('All limits').check();
      const legend = (category: string) =>
        rubinPage
          .locator(`[data-testid=lightcurve] [data-legend^="${category}:"]`)
          .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-legend')));
      expect(await legend('passband')).toEqual([
        'passband:u',
        'passband:g',
        'passband:r',
        'passband:R',
        'passband:i',
        'passband:z',
        'passband:y',
      ]);
      expect(await legend('alertType')).toEqual(
        ['ztf_detection', 'ztf_upper_limit', 'decam', 'rubin_detection', 'rubin_forced', 'rubin_upper_limit'].map(
          (type) => `alertType:${type}`,
        ),
      );
      const typeLegend = await rubinPage.getByTestId('alert-type-legend').locator('ul').first().locator('li').allTextContents();
      expect(typeLegend).toEqual([
        '1ZTF detection',
        '2ZTF upper limit',
        '3DECam',
        '4Rubin detection',
        '4Rubin forced measurement',
        '4Rubin upper limit',
      ]);
      // The chart's legend has less room.
      for (const label of ['Rubin detection', 'Rubin forced meas.', 'Rubin upper limit', 'ZTF detection', 'ZTF upper limit', 'DECam']) {
        await rubinPage.locator('[data-testid=lightcurve] .legend-item', { hasText: label }).waitFor();
      }
      // One colour per passband, ZTF's R unlike Rubin's r.
      const colours = new Map<string, string>();
      for (const band of ['u', 'g', 'r', 'R', 'i', 'z', 'y']) {
        colours.set(
          band,
          (await rubinPage
            .locator(`[data-testid=lightcurve] g.mark[data-passband="${band}"] path.symbol`)
            .first()
            .getAttribute('stroke')) ?? '',
        );
      }
      expect(new Set(colours.values()).size).toBe(7);
      expect(colours.get('R')).not.toBe(colours.get('r'));

      // Forced photometry without a magnitude is an upper limit; selecting a type shows only its marks.
      const marks = rubinPage.locator('[data-testid=lightcurve] g.mark');
      const shown = () =>
        marks.evaluateAll((nodes) =>
          nodes.map((n) => [n.getAttribute('data-alert-type'), n.getAttribute('data-passband'), n.getAttribute('data-kind')]),
        );
      const select = (type: string) => rubinPage.locator(`[data-testid=lightcurve] [data-legend="alertType:${type}"]`).click();
      await select('rubin_upper_limit');
      expect(await shown()).toEqual([['rubin_upper_limit', 'r', 'upper_limit']]);
      await select('rubin_forced');
      expect(await shown()).toEqual([['rubin_forced', 'g', 'magnitude']]);
      await select('decam');
      expect(await shown()).toEqual([['decam', 'r', 'upper_limit']]);
      await select('decam');
      expect(await marks.count()).toBe(rows.length);
      // The long alert ids survive the round trip (thumbnail selector values).
      expect(await rubinPage.getByTestId('thumbnail-alert-select').inputValue()).toBe('ztf_candidate:2552120390115015005');
      expect(await rubinPage.getByTestId('thumbnail-alert-select').locator('option').first().getAttribute('value')).toBe(
        'lsst:169298432598474701',
      );
      await expectNoSeriousViolations(rubinPage);
    } finally {
      await rubinPage.close();
    }
  });
});

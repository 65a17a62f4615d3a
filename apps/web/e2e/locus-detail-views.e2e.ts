import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { baseURL, downloadBytes, expectNoSeriousViolations, open } from './support/app';
import { requireChromium } from './support/chromium';
import { usePage } from './support/page';
import { SURVEY } from './support/seed';

/**
 * The locus page beyond the spec (#18 points 3-5): magnitude / flux toggle, periodogram and folded
 * view, tooltips and picking, CSV export, enlarged cutouts with stretches computed from the FITS
 * pixels, the FITS download and full precision on hover and in copies.
 */
const enabled = requireChromium();
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The simulator's own truth for the e2e survey: its best-sampled RR Lyrae (most detections) and that
 * star's period, read off the simulator's light-curve function (the smallest shift that repeats it).
 */
function periodicTruth(): { objectId: string; period: number } {
  const code = `import { planSurvey, DEFAULT_START_MJD } from '@antares/pipeline/simulate';
const plan = planSurvey({ objects: ${SURVEY.objects}, nights: ${SURVEY.nights}, seed: ${SURVEY.seed}, startMjd: DEFAULT_START_MJD });
const star = plan.objects.filter((o) => o.cls === 'RR Lyrae').sort((a, b) => b.obs.filter((x) => x.detected).length - a.obs.filter((x) => x.detected).length)[0];
const f = (t) => star.lc.flux(1, t);
const ts = Array.from({ length: 400 }, (_, i) => DEFAULT_START_MJD + i * 0.0371);
const cost = (T) => ts.reduce((s, t) => s + Math.abs(f(t + T) - f(t)), 0);
const grid = [];
for (let T = 0.1; T < 2; T += 0.0005) grid.push([T, cost(T)]);
const scale = grid.map((g) => g[1]).sort((a, b) => a - b)[grid.length >> 1];
let k = grid.findIndex(([, c]) => c < 0.05 * scale);
while (k + 1 < grid.length && grid[k + 1][1] < grid[k][1]) k++;
let [best, bestCost] = grid[k];
for (let step = 1e-4; step > 1e-9; step /= 10) for (let T = best - 10 * step; T <= best + 10 * step; T += step) { const c = cost(T); if (c < bestCost) { bestCost = c; best = T; } }
console.log(JSON.stringify({ objectId: star.objectId, period: best }));`;
  const result = spawnSync('npx', ['tsx', '--eval', code], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`planning the simulated survey failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}');
}

async function locusOfZtfObject(objectId: string): Promise<string> {
  const query = { query: { bool: { filter: { term: { 'properties.ztf_object_id': objectId } } } } };
  const response = await fetch(`${baseURL()}/v1/loci?elasticsearch_query%5Blocus_listing%5D=${encodeURIComponent(JSON.stringify(query))}`);
  const body = (await response.json()) as { data: { id: string }[] };
  if (!body.data[0]) throw new Error(`no locus for ${objectId}`);
  return body.data[0].id;
}

const marks = (page: Page) => page.locator('[data-testid=lightcurve] g.mark');

/** The centre of a mark's symbol on the screen. */
async function markCentre(page: Page, selector: string): Promise<{ x: number; y: number; alertId: string }> {
  return page
    .locator(selector)
    .first()
    .evaluate((g) => {
      const box = g.querySelector('path.symbol')!.getBoundingClientRect();
      return { x: box.x + box.width / 2, y: box.y + box.height / 2, alertId: g.getAttribute('data-alert-id')! };
    });
}

async function downloadText(page: Page, button: string): Promise<{ name: string; text: string }> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: button, exact: true }).click();
  const file = await download;
  return { name: file.suggestedFilename(), text: (await downloadBytes(file)).toString('utf8') };
}

function csvRows(text: string): string[][] {
  return text
    .trim()
    .split(/\r\n/)
    .map((line) => line.split(','));
}

/** Python with astropy computes what a stretch of a FITS file looks like; null when astropy is missing. */
function astropyLevels(fitsFile: string, stretch: 'zscale' | 'asinh'): number[] | null {
  const probe = spawnSync('/usr/bin/python3', ['-c', 'import astropy, numpy'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    if (process.env.CI === 'true') throw new Error('astropy is missing: apt-get install -y python3-astropy python3-numpy');
    console.warn('skipping the astropy comparison of the cutout stretch: apt-get install -y python3-astropy python3-numpy');
    return null;
  }
  const script = `
import json, sys, numpy as np
from astropy.io import fits
from astropy.visualization import ZScaleInterval, PercentileInterval, AsinhStretch, LinearStretch
data = fits.getdata(sys.argv[1]).astype(np.float64)
interval = ZScaleInterval() if sys.argv[2] == 'zscale' else PercentileInterval(99.5)
stretch = LinearStretch() if sys.argv[2] == 'zscale' else AsinhStretch()
lo, hi = interval.get_limits(data)
norm = stretch(np.clip((data - lo) / (hi - lo), 0, 1))
levels = np.where(np.isfinite(data), np.round(norm * 255), -1)
print(json.dumps(levels.ravel().astype(int).tolist()))`;
  const result = spawnSync('/usr/bin/python3', ['-c', script, fitsFile, stretch], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

describe.skipIf(!enabled)('locus detail views', () => {
  let page: Page;
  let truth: { objectId: string; period: number };
  let locusId: string;

  usePage(async (opened) => {
    ({ page } = opened);
    truth = periodicTruth();
    locusId = await locusOfZtfObject(truth.objectId);
    await open(page, `/loci/${locusId}`);
    await marks(page).first().waitFor();
  });

  it('fills its card and finds the simulated RR Lyrae period (within 1 %), then folds at it', async () => {
    const { svg, box } = await page
      .getByTestId('lightcurve')
      .evaluate((node) => ({ svg: node.getBoundingClientRect().width, box: node.parentElement!.clientWidth }));
    expect(svg).toBeGreaterThan(750);
    expect(Math.abs(svg - box)).toBeLessThanOrEqual(1);
    const best = page.getByTestId('periodogram-best');
    await best.waitFor();
    const found = Number(/Highest peak: ([\d.]+) d/.exec((await best.textContent()) ?? '')![1]);
    expect(Math.abs(found - truth.period) / truth.period).toBeLessThan(0.01);

    const inTime = await marks(page).count();
    await page.getByRole('button', { name: /^Phase-folded at / }).click();
    expect(await page.locator('[data-testid=lightcurve] .x-label').textContent()).toBe('Phase');
    // Two cycles: every mark twice.
    expect(await marks(page).count()).toBe(2 * inTime);
    await expectNoSeriousViolations(page);

    // Fold at the simulator's own period: the exported phases are (mjd - first mjd) / P mod 1.
    await page.getByLabel('Period (days)').fill(String(truth.period));
    await page.getByLabel('Period (days)').press('Enter');
    await page.getByRole('button', { name: `Phase-folded at ${truth.period.toPrecision(6)} d` }).waitFor();
    const { name, text } = await downloadText(page, 'Export to CSV');
    expect(name).toBe(`antares-lightcurve-${locusId}-folded-${truth.period.toPrecision(7)}d.csv`);
    const [header, ...rows] = csvRows(text);
    expect(header).toEqual(['alert_id', 'mjd', 'phase', 'passband', 'alert_type', 'mark', 'magnitude', 'magnitude_error']);
    expect(rows.length).toBe(inTime);
    const epoch = Math.min(...rows.map((row) => Number(row[1])));
    for (const row of rows) {
      const phase = ((((Number(row[1]) - epoch) / truth.period) % 1) + 1) % 1;
      expect(Number(row[2])).toBeCloseTo(phase, 9);
    }
    await page.getByRole('button', { name: 'Time', exact: true }).click();
    expect(await page.locator('[data-testid=lightcurve] .x-label').textContent()).toBe('MJD');
  });

  it('exports the plotted points as CSV, one row per mark drawn', async () => {
    const drawn = await marks(page).evaluateAll((nodes) =>
      nodes.map((n) => `${n.getAttribute('data-alert-id')}|${n.getAttribute('data-kind')}`),
    );
    const { name, text } = await downloadText(page, 'Export to CSV');
    expect(name).toBe(`antares-lightcurve-${locusId}.csv`);
    const [header, ...rows] = csvRows(text);
    expect(header).toEqual(['alert_id', 'mjd', 'passband', 'alert_type', 'mark', 'magnitude', 'magnitude_error']);
    const kinds: Record<string, string> = {
      measurement: 'magnitude',
      upper_limit: 'upper_limit',
      lower_limit: 'lower_limit',
      other: 'other',
    };
    expect(rows.map((row) => `${row[0]}|${kinds[row[4]]}`).sort()).toEqual(drawn.sort());
    expect(page.getByTestId('limit-rule')).toBeTruthy();
    expect(await page.getByTestId('limit-rule').textContent()).toContain('one per band and night');
  });

  it('shows a tooltip on hover and picks the alert in the table and the gallery on click', async () => {
    const mark = await markCentre(page, '[data-testid=lightcurve] g.mark[data-kind=magnitude]');
    await page.mouse.move(mark.x, mark.y);
    const tooltip = page.getByTestId('lightcurve-tooltip');
    await tooltip.waitFor();
    const text = (await tooltip.textContent()) ?? '';
    expect(text).toContain(mark.alertId);
    expect(text).toMatch(/MJD \d+\.\d{5} \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)/);
    expect(text).toMatch(/(g|R|i) · ZTF detection · \d+\.\d{3} ± \d+\.\d{3} mag/);
    await page.mouse.click(mark.x, mark.y);
    await page.getByTestId('alerts-picked').waitFor();
    expect(await page.getByTestId('alerts-picked').textContent()).toContain(mark.alertId);
    const rows = page.locator('#locus-alerts tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(mark.alertId);
    expect(await page.getByTestId('thumbnail-alert-select').inputValue()).toBe(mark.alertId);
    expect(await page.locator(`[data-testid=lightcurve] g.mark[data-picked=true]`).first().getAttribute('data-alert-id')).toBe(
      mark.alertId,
    );
    await page.getByRole('button', { name: 'Show all alerts' }).click();
    expect(await rows.count()).toBeGreaterThan(1);
  });

  it('switches to difference fluxes in nJy computed from the alert fields', async () => {
    await page.getByRole('button', { name: 'Difference flux (nJy)' }).click();
    expect(await page.locator('[data-testid=lightcurve] .y-label').textContent()).toBe('Difference flux (nJy)');
    const mark = await markCentre(page, '[data-testid=lightcurve] g.mark[data-kind=magnitude]');
    await page.mouse.move(mark.x + 40, mark.y + 200);
    await page.mouse.move(mark.x, mark.y);
    const text = (await page.getByTestId('lightcurve-tooltip').textContent()) ?? '';
    expect(text).toContain(mark.alertId);
    const shown = Number(/(-?\d+\.\d) ± [\d.]+ nJy/.exec(text)![1]);
    const alert = (await (await fetch(`${baseURL()}/v1/alerts/${encodeURIComponent(mark.alertId)}`)).json()) as {
      data: { attributes: { properties: Record<string, unknown> } };
    };
    const p = alert.data.attributes.properties;
    const sign = p.ztf_isdiffpos === 't' || p.ztf_isdiffpos === '1' ? 1 : -1;
    expect(shown).toBeCloseTo(sign * 10 ** (-0.4 * ((p.ztf_magpsf as number) - 31.4)), 0);
    await page.getByRole('button', { name: 'Magnitude', exact: true }).click();
    expect(await page.locator('[data-testid=lightcurve] .y-label').textContent()).toBe('Magnitude');
  });

  it('enlarges a cutout, stretches it from the FITS pixels as astropy does, and downloads the FITS file', async () => {
    // The newest alert has cutouts (history points from prv_candidates have none).
    const select = page.getByTestId('thumbnail-alert-select');
    await select.selectOption((await select.locator('option').last().getAttribute('value'))!);
    await page.getByRole('button', { name: 'Enlarge the science cutout' }).click();
    const canvas = page.getByTestId('cutout-canvas');
    await canvas.waitFor();
    const alertId = await page.getByTestId('thumbnail-alert-select').inputValue();
    const fitsBytes = Buffer.from(
      await (await fetch(`${baseURL()}/v1/alerts/${encodeURIComponent(alertId)}/cutouts/science.fits`)).arrayBuffer(),
    );
    expect(fitsBytes.subarray(0, 9).toString('latin1')).toBe('SIMPLE  =');
    const dir = mkdtempSync(path.join(tmpdir(), 'antares-cutout-'));
    const fitsFile = path.join(dir, 'science.fits');
    writeFileSync(fitsFile, fitsBytes);
    const canvasLevels = () =>
      canvas.evaluate((node: HTMLCanvasElement) => {
        const { data } = node.getContext('2d')!.getImageData(0, 0, node.width, node.height);
        return Array.from({ length: node.width * node.height }, (_, i) => (data[i * 4 + 3] === 0 ? -1 : data[i * 4]));
      });
    const zscaled = await canvasLevels();
    await page.getByLabel('Stretch', { exact: true }).selectOption('asinh');
    await page.waitForFunction(() => document.querySelector('[data-testid=cutout-canvas]')?.getAttribute('data-stretch') === 'asinh');
    const asinh = await canvasLevels();
    expect(asinh).not.toEqual(zscaled);
    for (const [stretch, levels] of [
      ['zscale', zscaled],
      ['asinh', asinh],
    ] as const) {
      const expected = astropyLevels(fitsFile, stretch);
      if (!expected) continue;
      expect(levels.length).toBe(expected.length);
      const off = levels.filter((level, i) => Math.abs(level - expected[i]) > 1).length;
      expect(off, `${stretch}: pixels more than one level from astropy's`).toBe(0);
    }
    await expectNoSeriousViolations(page);
    await page.getByLabel('Colour map', { exact: true }).selectOption('viridis');
    const [r, g, b] = await canvas.evaluate((node: HTMLCanvasElement) =>
      Array.from(node.getContext('2d')!.getImageData(0, 0, 1, 1).data.slice(0, 3)),
    );
    expect(r === g && g === b).toBe(false);
    const download = page.waitForEvent('download');
    await page.getByTestId('cutout-download').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/_science\.fits$/);
    expect((await downloadBytes(file)).equals(fitsBytes)).toBe(true);
    await page.getByRole('button', { name: 'Close' }).click();
  });

  it('shows and copies full precision in the alert properties and the locus properties', async () => {
    const table = page.locator('#locus-alerts');
    await table
      .getByRole('button', { name: /^Show ztf_candidate:/ })
      .first()
      .click();
    const cell = page.locator('[id^=alert-packet-] [data-full-value]').first();
    await cell.waitFor();
    const shown = (await cell.textContent()) ?? '';
    const full = (await cell.getAttribute('data-full-value')) ?? '';
    expect(shown).toMatch(/^-?\d+\.\d\d$/);
    expect(Number(full).toFixed(2)).toBe(shown);
    expect(full.length).toBeGreaterThan(shown.length);
    expect(await cell.getAttribute('title')).toBe(full);
    // Copying the selected cell gives the full value.
    const copied = await cell.evaluate((node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      window.getSelection()!.removeAllRanges();
      window.getSelection()!.addRange(range);
      const data = new DataTransfer();
      node.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }));
      return data.getData('text/plain');
    });
    expect(copied).toBe(full);
    // A selection over whole rows of the locus properties copies every rounded value in full.
    await page.getByRole('button', { name: 'Locus Properties', exact: true }).click();
    const properties = page.locator('#locus-properties');
    // Wait for a rounded value, not just a row: the rows can show before their values are formatted.
    await properties.locator('tbody [data-full-value]').first().waitFor();
    const { text, expected } = await properties.evaluate((tableNode) => {
      const body = tableNode.querySelector('tbody')!;
      const range = document.createRange();
      range.selectNodeContents(body);
      window.getSelection()!.removeAllRanges();
      window.getSelection()!.addRange(range);
      const data = new DataTransfer();
      tableNode.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }));
      return {
        text: data.getData('text/plain'),
        expected: Array.from(body.querySelectorAll('[data-full-value]')).map((n) => n.getAttribute('data-full-value')!),
      };
    });
    expect(expected.length).toBeGreaterThan(0);
    for (const value of expected) expect(text).toContain(value);
  });
});

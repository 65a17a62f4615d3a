import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';

import { GwNoticeError, parseIgwnNotice, readSkyMap, skyMapPeak } from './notice.ts';

// Real IGWN notices and sky maps of ../shared/data: their credible areas against INDEX_gw.csv.
const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');
const index = Papa.parse<Record<string, string>>(readFileSync(path.join(DATA, 'INDEX_gw.csv'), 'utf8'), {
  header: true,
  skipEmptyLines: true,
}).data;

describe('gravitational-wave sky maps', () => {
  for (const row of index) {
    it(`${row.superevent_id} (${row.skymap_format}): 50% and 90% areas as INDEX_gw.csv gives them, within 1%`, () => {
      const bytes = readFileSync(path.join(DATA, row.file));
      const map = row.file.endsWith('.json') ? parseIgwnNotice(bytes.toString('utf8')).skymap! : readSkyMap(bytes);
      expect(map.totalProbability).toBeCloseTo(1, 6);
      expect(Math.abs(map.areaOf(0.5) / Number(row.area50_deg2) - 1)).toBeLessThan(0.01);
      expect(Math.abs(map.areaOf(0.9) / Number(row.area90_deg2) - 1)).toBeLessThan(0.01);
      // The densest pixel is at the bottom of the credible levels; somewhere far from the event is
      // outside the 90% region; and a position's level and area agree with the region areas.
      const peak = skyMapPeak(map);
      expect(map.regionAt(peak.ra, peak.dec)!.level).toBeLessThan(0.001);
      const area90 = map.areaOf(0.9);
      let farthest = { level: 0, areaDeg2: 0 };
      for (let i = 0; i < 400; i++) {
        const dec = (Math.asin(-1 + (2 * (i + 0.5)) / 400) * 180) / Math.PI;
        const region = map.regionAt((i * 137.508) % 360, dec)!;
        expect(region.level <= 0.9).toBe(region.areaDeg2 <= area90 + 1e-9);
        if (region.level > farthest.level) farthest = region;
      }
      expect(farthest.level).toBeGreaterThan(0.9);
    }, 240_000); // a 12-million-pixel map takes over a minute on a loaded 2-core machine
  }

  it('reads an IGWN notice: ids, times, false alarm rate; a retraction has no map', () => {
    const notice = parseIgwnNotice(readFileSync(path.join(DATA, 'skyportal/gw/igwn_gwalert_preliminary.json'), 'utf8'));
    expect(notice).toMatchObject({
      gracedb_id: 'MS260605l',
      notice_type: 'PRELIMINARY',
      notice_datetime: '2026-06-05T12:01:07.000Z',
      event_datetime: '2026-06-05T11:57:26.395Z',
    });
    expect(notice.false_alarm_rate).toBeCloseTo(5.177e-16, 18);
    const retraction = parseIgwnNotice(readFileSync(path.join(DATA, 'skyportal/gw/igwn_gwalert_retraction.json'), 'utf8'));
    expect(retraction.notice_type).toBe('RETRACTION');
    expect(retraction.skymap).toBeNull();
  });

  it('rejects malformed notices with a clear error', () => {
    const good = JSON.parse(readFileSync(path.join(DATA, 'fink-mm/lvk/MS230518e_INITIAL_mock.json'), 'utf8'));
    const fits = Buffer.from(good.event.skymap, 'base64');
    const cases: Array<[unknown, RegExp]> = [
      ['{not json', /not valid JSON/],
      [{ ...good, alert_type: 'GUESS' }, /alert_type "GUESS" is not one of/],
      [{ ...good, superevent_id: 'x' }, /not a GraceDB superevent id/],
      [{ ...good, event: { ...good.event, skymap: '***not base64***' } }, /not base64/],
      [
        { ...good, event: { ...good.event, skymap: fits.subarray(0, fits.length / 3).toString('base64') } },
        /not a readable FITS file: .*truncated/,
      ],
      [{ ...good, event: { ...good.event, time: 'yesterday' } }, /event.time "yesterday" is not a time/],
      [{ ...good, event: null }, /needs its event/],
    ];
    for (const [input, message] of cases) {
      expect(() => parseIgwnNotice(typeof input === 'string' ? input : (input as Record<string, unknown>))).toThrow(GwNoticeError);
      expect(() => parseIgwnNotice(typeof input === 'string' ? input : (input as Record<string, unknown>))).toThrow(message);
    }
  });
});

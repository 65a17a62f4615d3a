import { describe, expect, it } from 'vitest';

import { parseLightcurve } from '@/features/locus-detail/api/lightcurve';

import { buildMarks, type Mark } from './lightcurve-marks';
import { buildFluxMarks, detectionsByBand, foldMarks, informativeMarks, nightOf, plottedRows } from './lightcurve-views';

const HEADER = 'alert_id,ant_mjd,ant_survey,ant_passband,ant_mag,ant_magerr,ant_maglim';

const limit = (id: string, mjd: number, mag: number, passband = 'g'): Mark => ({
  key: `${id}:u`,
  alertId: id,
  kind: 'upper_limit',
  passband,
  mjd,
  x: mjd,
  y: mag,
});
const point = (id: string, mjd: number, mag: number, err = 0.05, passband = 'g'): Mark => ({
  key: `${id}:m`,
  alertId: id,
  kind: 'magnitude',
  passband,
  mjd,
  x: mjd,
  y: mag,
  err,
});
const lower = (id: string, mjd: number, mag: number): Mark => ({
  key: `${id}:l`,
  alertId: id,
  kind: 'lower_limit',
  passband: 'g',
  mjd,
  x: mjd,
  y: mag,
});

describe('flux marks', () => {
  it('signs ZTF fluxes by isdiffpos, reads Rubin psfFlux as is, and turns ZTF non-detections into flux limits', () => {
    const points = parseLightcurve(
      [
        HEADER,
        'ztf_candidate:1,60000.2,1,g,21.4,0.1,20.5',
        'ztf_candidate:2,60001.2,1,g,21.4,0.1,20.5',
        'ztf_upper_limit:ZTF1-3,60002.2,2,g,,,20.4',
        'lsst_forced:4,60003.2,4,r,,,24.1',
        'lsst:5,60004.2,4,r,23.0,0.2,24.0',
      ].join('\n'),
    );
    const properties: Record<string, Record<string, unknown>> = {
      'ztf_candidate:1': { ztf_magpsf: 21.4, ztf_sigmapsf: 0.1, ztf_isdiffpos: 't' },
      'ztf_candidate:2': { ztf_magpsf: 21.4, ztf_sigmapsf: 0.1, ztf_isdiffpos: 'f' },
      'lsst_forced:4': { lsst_diaForcedSource_psfFlux: -120.5, lsst_diaForcedSource_psfFluxErr: 80 },
      'lsst:5': { lsst_diaSource_psfFlux: 2290.9, lsst_diaSource_psfFluxErr: 420 },
    };
    const marks = buildFluxMarks(points, (id) => properties[id], new Map());
    expect(marks.map((m) => m.kind)).toEqual(['magnitude', 'magnitude', 'upper_limit', 'magnitude', 'magnitude']);
    expect(marks[0].y).toBeCloseTo(10_000, 6);
    expect(marks[0].err).toBeCloseTo(921.034, 3);
    expect(marks[1].y).toBeCloseTo(-10_000, 6);
    expect(marks[2].y).toBeCloseTo(10 ** (-0.4 * (20.4 - 31.4)), 6);
    // A forced point is a measurement in flux, negative or not.
    expect([marks[3].y, marks[3].err]).toEqual([-120.5, 80]);
    expect([marks[4].y, marks[4].err]).toEqual([2290.9, 420]);
    // Before the alerts arrive nothing is signed: no flux is invented.
    expect(buildFluxMarks(points.slice(0, 1), () => undefined, new Map())[0].kind).toBe('other');
  });
});

describe('informative limits', () => {
  it("keeps the deepest upper limit per band and night, only if fainter than the band's brightest detection", () => {
    const marks = [
      point('d1', 60000.3, 19.0),
      point('d2', 60003.3, 20.0),
      limit('a', 60001.2, 19.5),
      limit('b', 60001.4, 19.9),
      limit('c', 60002.2, 18.5),
      limit('e', 60002.3, 18.9, 'R'),
    ];
    const kept = informativeMarks(marks, 'magnitude').map((m) => m.alertId);
    // a and b share a night: b, the deeper; c is no fainter than the brightest g detection (19.0);
    // e is in a band without detections: kept.
    expect(kept).toEqual(['d1', 'd2', 'b', 'e']);
  });

  it('turns the rule over for fluxes: the smallest limiting flux, below the largest detected flux', () => {
    const marks = [point('d', 60000.3, 5000), limit('a', 60001.2, 3000), limit('b', 60001.3, 2000), limit('c', 60002.2, 6000)];
    expect(informativeMarks(marks, 'flux').map((m) => m.alertId)).toEqual(['d', 'b']);
  });

  it("drops lower limits inside their point's error bar and keeps the brightest per night", () => {
    const marks = [
      point('p', 60000.3, 19.0, 0.2),
      lower('p', 60000.3, 19.1),
      point('q', 60000.4, 19.0, 0.05),
      lower('q', 60000.4, 19.6),
      point('s', 60000.45, 19.0, 0.05),
      lower('s', 60000.45, 19.4),
    ];
    expect(
      informativeMarks(marks, 'magnitude')
        .filter((m) => m.kind === 'lower_limit')
        .map((m) => m.alertId),
    ).toEqual(['s']);
  });

  it('splits nights in the afternoon at both sites', () => {
    // ZTF visits 03:00-13:00 UTC and Rubin's 23:00-10:00 UTC each fall in one night.
    expect(nightOf(60000.125)).toBe(nightOf(60000.54));
    expect(nightOf(59999.96)).toBe(nightOf(60000.42));
    expect(nightOf(60000.42)).not.toBe(nightOf(60000.96));
  });
});

describe('folding and CSV', () => {
  it('folds at a period over two cycles and exports one row per point with its phase', () => {
    const marks = [point('x', 60000.0, 18), point('y', 60000.75, 18.5), point('z', 60002.25, 18.2)];
    const folded = foldMarks(marks, 0.5);
    expect(folded.map((m) => +m.x.toFixed(6))).toEqual([0, 1, 0.5, 1.5, 0.5, 1.5]);
    const rows = plottedRows(folded, 'magnitude', 0.5);
    expect(rows[0]).toEqual(['alert_id', 'mjd', 'phase', 'passband', 'alert_type', 'mark', 'magnitude', 'magnitude_error']);
    expect(rows.slice(1).map((row) => [row[0], row[2], row[5]])).toEqual([
      ['x', 0, 'measurement'],
      ['y', 0.5, 'measurement'],
      ['z', 0.5, 'measurement'],
    ]);
    expect(plottedRows(marks, 'flux')[0]).toEqual(['alert_id', 'mjd', 'passband', 'alert_type', 'mark', 'flux_njy', 'flux_error_njy']);
  });

  it("collects each band's detections for the periodogram (limits left out)", () => {
    const points = parseLightcurve([HEADER, 'a,1,1,g,18,0.1,20', 'b,2,1,g,18.2,0.1,20', 'c,3,2,g,,,20', 'd,4,1,R,17,0.1,20'].join('\n'));
    const bands = detectionsByBand(points);
    expect(bands.get('g')).toEqual({ t: [1, 2], y: [18, 18.2], dy: [0.1, 0.1] });
    expect(bands.get('R')?.t).toEqual([4]);
    expect(buildMarks(points, new Map()).length).toBe(4);
  });
});

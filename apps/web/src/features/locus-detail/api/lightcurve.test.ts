import { describe, expect, it } from 'vitest';

import { buildMarks, fullDomains } from '@/features/locus-detail/components/lightcurve/lightcurve-marks';

import { isDrawable, LightcurveParseError, parseLightcurve } from './lightcurve';

const HEADER =
  'time,alert_id,ant_mjd,ant_survey,ant_ra,ant_dec,ant_passband,ant_mag,ant_magerr,ant_maglim,ant_mag_corrected,ant_magerr_corrected,ant_magulim_corrected,ant_magllim_corrected';

describe('lightcurve', () => {
  it('derives the magnitude type by priority', () => {
    const csv = [
      HEADER,
      '2020-01-01 00:00:00.000,a1,58849.0,1,10,20,g,18.5,0.1,20.1,18.2,0.05,18.3,18.1',
      '2020-01-02 00:00:00.000,a2,58850.0,2,10,20,R,,,20.3,,,19.9,',
      '2020-01-03 00:00:00.000,a3,58851.0,1,10,20,R,18.7,0.2,20.0,,,,',
      '2020-01-04 00:00:00.000,a4,58852.0,2,10,20,g,,,20.5,,,,',
      '2020-01-05 00:00:00.000,a5,58853.0,2,10,20,g,,,,,,,',
    ].join('\n');
    const points = parseLightcurve(csv);
    expect(points.map((p) => p.frontend_mag_type)).toEqual(['calibrated', 'calibrated_maglim', 'raw', 'raw_maglim', 'ERROR_OTHER']);
    expect(points[0]).toMatchObject({ frontend_mag: 18.2, frontend_magerr: 0.05, frontend_magulim: 18.3, frontend_magllim: 18.1 });
    expect(points[1].frontend_magulim).toBe(19.9);
    expect(points[3].frontend_magulim).toBe(20.5);
    const kinds = buildMarks(points, new Map()).map((m) => m.kind);
    expect(kinds).toEqual(['magnitude', 'lower_limit', 'upper_limit', 'magnitude', 'upper_limit', 'other']);
  });

  it('aborts on any parse error', () => {
    expect(() => parseLightcurve(`${HEADER}\nx,a1,notanumber,1,10,20,g,18,0.1,20,,,,`)).toThrow(LightcurveParseError);
    expect(() => parseLightcurve(`${HEADER}\nx,a1,58849`)).toThrow(LightcurveParseError);
    expect(parseLightcurve('')).toEqual([]);
  });

  it('does not draw negative magnitudes or limits, and widens a short time range to a day around the mean', () => {
    const points = parseLightcurve(
      [
        HEADER,
        'x,a1,58849.0,1,10,20,g,-1,0.1,20,,,,',
        'x,a2,58849.1,1,10,20,g,18,0.1,20,,,,',
        'x,a3,58849.3,1,10,20,g,18.4,0.1,20,,,,',
      ].join('\n'),
    );
    expect(points.map(isDrawable)).toEqual([false, true, true]);
    const marks = buildMarks(points, new Map());
    expect(marks).toHaveLength(2);
    const { x } = fullDomains(marks);
    const mean = (58849.1 + 58849.3) / 2;
    expect((x[0] + x[1]) / 2).toBeCloseTo(mean, 9);
    expect(x[1] - x[0]).toBeCloseTo(1.1, 9);
  });
});

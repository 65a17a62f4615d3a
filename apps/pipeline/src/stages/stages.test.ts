import { htmId } from '@antares/astro';
import { describe, expect, it } from 'vitest';

import { LocusIndex, nearestLocus, newLocusId } from './associate.ts';
import { level1, level1Time } from './level1.ts';
import { lightcurveFeatures, seriesFeatures } from './lightcurve-features.ts';
import { summarizeLocus } from './locus-properties.ts';

const series = (values: number[], errors = values.map(() => 1)) => values.map((value, i) => ({ t: i, value, error: errors[i] }));

describe('light-curve features (values computed by hand)', () => {
  it('matches the textbook values of 1, 2, 3, 4', () => {
    const f = seriesFeatures(series([1, 2, 3, 4]));
    expect(f.amplitude).toBe(1.5);
    expect(f.mean).toBe(2.5);
    expect(f.median).toBe(2.5);
    expect(f.weighted_mean).toBe(2.5);
    expect(f.standard_deviation).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(f.percent_amplitude).toBe(1.5);
    expect(f.beyond_1_std).toBe(0.5);
    expect(f.linear_fit_slope).toBeCloseTo(1, 12);
    expect(f.skew).toBeCloseTo(0, 12);
    expect(f.kurtosis).toBeCloseTo(-1.2, 12); // pandas Series([1,2,3,4]).kurt()
    expect(f.stetson_k).toBeCloseTo(4 / Math.sqrt(20), 12);
  });

  it('computes the adjusted skewness of 1, 2, 4, 8 (pandas: 1.1376)', () => {
    expect(seriesFeatures(series([1, 2, 4, 8])).skew).toBeCloseTo(1.13763, 4);
  });

  it('computes the skewness and excess kurtosis of a skewed series as pandas does', () => {
    // pandas Series([1, 2, 4, 8, 3.5]): .skew() 1.1846760609959823, .kurt() 1.7267071759259256
    const f = seriesFeatures(series([1, 2, 4, 8, 3.5]));
    expect(f.skew).toBeCloseTo(1.1846760609959823, 13);
    expect(f.kurtosis).toBeCloseTo(1.7267071759259256, 13);
  });

  it('weights the mean by inverse squared errors', () => {
    expect(seriesFeatures(series([10, 20], [1, 2])).weighted_mean).toBeCloseTo((10 + 20 / 4) / (1 + 1 / 4), 12);
  });

  it('leaves out features that need more points', () => {
    expect(seriesFeatures(series([1]))).toEqual({});
    const two = seriesFeatures(series([1, 2]));
    expect(two.skew).toBeUndefined();
    expect(two.kurtosis).toBeUndefined();
    expect(two.amplitude).toBe(0.5);
  });

  it('names features per band and series, in magnitudes and fluxes', () => {
    const f = lightcurveFeatures([
      { mjd: 1, band: 'g', mag: 18, magerr: 0.1 },
      { mjd: 2, band: 'g', mag: 19, magerr: 0.1 },
      { mjd: 3, band: 'R', mag: 17, magerr: 0.1 },
    ]);
    expect(f.feature_amplitude_magn_g).toBe(0.5);
    expect(f.feature_mean_flux_g).toBeCloseTo((10 ** (-0.4 * (18 - 23.9)) + 10 ** (-0.4 * (19 - 23.9))) / 2, 9);
    expect(f.feature_amplitude_magn_r).toBeUndefined();
  });
});

describe('Level 1', () => {
  it('keeps good alerts and skips checks whose field is absent', () => {
    expect(level1({ rb: 0.9, nbad: 0, magdiff: 0.1, fwhm: 2, elong: 1.05 })).toEqual({ passed: true });
    expect(level1({})).toEqual({ passed: true });
  });

  it('drops bogus and bad-seeing alerts with a reason', () => {
    expect(level1({ rb: 0.54 })).toMatchObject({ passed: false, stage: 'bogus', reason: 'rb 0.54 < 0.55' });
    expect(level1({ rb: 0.55 }).passed).toBe(true);
    expect(level1({ nbad: 1 })).toMatchObject({ stage: 'bogus' });
    expect(level1({ magdiff: -1.01 })).toMatchObject({ stage: 'bogus' });
    expect(level1({ magdiff: 1.0 }).passed).toBe(true);
    expect(level1({ fwhm: 5.01 })).toMatchObject({ stage: 'bad_seeing' });
    expect(level1({ elong: 1.21 })).toMatchObject({ stage: 'bad_seeing' });
  });

  it('drops rows observed outside 1950-2100, and those without a time', () => {
    expect(level1Time(60000.5)).toEqual({ passed: true });
    expect(level1Time(33282)).toEqual({ passed: true });
    expect(level1Time(1e300 - 2400000.5)).toMatchObject({ passed: false, stage: 'bad_time' });
    expect(level1Time(-2400000.5)).toMatchObject({ passed: false, stage: 'bad_time', reason: 'MJD -2400000.5 outside 33282-88069' });
    expect(level1Time(Number.NaN)).toMatchObject({ passed: false, stage: 'bad_time' });
  });
});

describe('locus summary', () => {
  const alert = (id: string, mjd: number, properties: Record<string, unknown>) => ({ alert_id: id, mjd, properties });
  it('computes the standard properties from detections and upper limits', () => {
    const alerts = [
      alert('ztf_upper_limit:ZTF1-1', 100, { ant_maglim: 20.5, ant_passband: 'g', ztf_object_id: 'ZTF1' }),
      alert('ztf_candidate:2', 101, {
        ant_mag: 19,
        ant_magerr: 0.1,
        ant_passband: 'g',
        ant_ra: 359.99999,
        ant_dec: 10,
        ztf_object_id: 'ZTF1',
        ztf_rcid: 3,
        ztf_field: 500,
      }),
      alert('ztf_candidate:3', 102, {
        ant_mag: 18,
        ant_magerr: 0.1,
        ant_passband: 'g',
        ant_ra: 0.00001,
        ant_dec: 10,
        ztf_object_id: 'ZTF1',
        ztf_rcid: 3,
        ztf_field: 501,
        ztf_ssnamenr: 'null',
        ant_mag_corrected: 17.9,
      }),
    ];
    const s = summarizeLocus(alerts, { ra: 0, dec: 0 });
    expect(s.properties).toMatchObject({
      num_alerts: 3,
      num_mag_values: 2,
      oldest_alert_id: 'ztf_candidate:2',
      oldest_alert_magnitude: 19,
      oldest_alert_observation_time: 101,
      newest_alert_id: 'ztf_candidate:3',
      newest_alert_magnitude: 18,
      newest_alert_observation_time: 102,
      brightest_alert_id: 'ztf_candidate:3',
      brightest_alert_magnitude: 18,
      is_corrected: 'true',
      ztf_object_id: 'ZTF1',
      survey: { ztf: { id: ['ZTF1'], rcid: [3], field: [500, 501], ssnamenr: [] } },
    });
    expect(s.properties.ztf_ssnamenr).toBeUndefined();
    // The mean of positions either side of RA 0 is at RA 0, not 180.
    expect(Math.min(s.ra, 360 - s.ra)).toBeLessThan(1e-6);
    expect(s.htm16).toBe(htmId(s.ra, s.dec));
  });
});

describe('association', () => {
  it('takes the nearest locus within 1 arcsecond', () => {
    const loci = [
      { locus_id: 'a', ra: 10, dec: 10 },
      { locus_id: 'b', ra: 10 + 0.5 / 3600, dec: 10 },
    ];
    expect(nearestLocus(10 + 0.4 / 3600, 10, loci)?.locus_id).toBe('b');
    expect(nearestLocus(10, 10 + 1.01 / 3600, loci)).toBeNull();
  });
  it('finds through the declination-band index exactly what a search of all loci finds', () => {
    let seed = 1;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const loci = Array.from({ length: 3000 }, (_, i) => ({ locus_id: `L${i}`, ra: 10 + random() * 0.01, dec: -89.999 + random() * 0.002 }));
    loci.push(
      ...Array.from({ length: 3000 }, (_, i) => ({
        locus_id: `M${i}`,
        ra: 359.999 + random() * 0.002 - (random() < 0.5 ? 360 : 0) + 0,
        dec: 20 + random() * 0.005,
      })).map((l) => ({ ...l, ra: (l.ra + 360) % 360 })),
    );
    const index = new LocusIndex(loci);
    for (let i = 0; i < 2000; i++) {
      const probe = loci[Math.floor(random() * loci.length)];
      const ra = (probe.ra + ((random() - 0.5) * 2) / 3600 + 360) % 360;
      const dec = Math.max(-90, Math.min(90, probe.dec + ((random() - 0.5) * 2) / 3600));
      expect(index.nearest(ra, dec)?.locus_id).toBe(nearestLocus(ra, dec, loci)?.locus_id);
    }
  });

  it('names loci ANT<year><12 characters>', () => {
    expect(newLocusId(2026)).toMatch(/^ANT2026[a-z0-9]{12}$/);
  });
});

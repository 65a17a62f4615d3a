import { describe, expect, it } from 'vitest';

import { fullDomains, type Mark, MAX_DOMAIN_ERROR } from './lightcurve-marks';

const mark = (mjd: number, mag: number, err?: number): Mark => ({
  key: `${mjd}`,
  alertId: `lsst:${mjd}`,
  kind: 'magnitude',
  passband: 'g',
  mjd,
  x: mjd,
  y: mag,
  err,
});

describe('fullDomains', () => {
  it('spans the magnitudes and their error bars, padded by 1.1', () => {
    const { y } = fullDomains([mark(60776.7, 22.9, 0.1), mark(60776.8, 23.5, 0.2)]);
    expect(y[0]).toBeCloseTo(22.8 - 0.045, 6);
    expect(y[1]).toBeCloseTo(23.7 + 0.045, 6);
  });

  it('does not let a huge error bar (a detection at the noise level) stretch the magnitude axis', () => {
    // Real Rubin data: lsst:58804311353720877 has ant_mag 28.67 with ant_magerr 63.37.
    const { y } = fullDomains([mark(60776.7, 22.93, 0.12), mark(60776.83, 23.53, 0.22), mark(60776.84, 28.67, 63.37)]);
    expect(y[0]).toBeGreaterThan(22.93 - MAX_DOMAIN_ERROR - 1);
    expect(y[1]).toBeLessThan(28.67 + MAX_DOMAIN_ERROR + 1);
  });
});

import { describe, expect, it } from 'vitest';

import { galacticToIcrs, icrsToGalactic } from './galactic.ts';
import { angularSeparationDeg } from './sphere.ts';

describe('icrsToGalactic', () => {
  it('puts the galactic centre (ICRS 266.40500, -28.93617) at l = 0, b = 0', () => {
    // Hipparcos definition of the galactic frame (ESA SP-1200, Vol. 1, sec. 1.5.3).
    const { l, b } = icrsToGalactic(266.405, -28.93617);
    expect(angularSeparationDeg(l, b, 0, 0)).toBeLessThan(1e-3);
  });

  it('puts the north galactic pole (ICRS 192.85948, +27.12825) at b = 90', () => {
    expect(icrsToGalactic(192.85948, 27.12825).b).toBeCloseTo(90, 5);
  });

  it('puts the north celestial pole at l = 122.93192, b = 27.12825 (Hipparcos frame constants)', () => {
    const { l, b } = icrsToGalactic(0, 90);
    expect(l).toBeCloseTo(122.93192, 5);
    expect(b).toBeCloseTo(27.12825, 5);
  });

  it('gives M31 (10.68458, 41.26917) at l = 121.1744, b = -21.5729 (NED; astropy docs: 121.17424, -21.57289)', () => {
    const { l, b } = icrsToGalactic(10.68458, 41.26917);
    expect(l).toBeCloseTo(121.1744, 3);
    expect(b).toBeCloseTo(-21.5729, 3);
  });

  it('returns l in [0, 360)', () => {
    const { l } = icrsToGalactic(266.405, -28.936 - 0.01); // just south-west of the centre, l slightly below 360
    expect(l).toBeGreaterThanOrEqual(0);
    expect(l).toBeLessThan(360);
  });

  it('is inverted by galacticToIcrs', () => {
    for (const [ra, dec] of [
      [10.68458, 41.26917],
      [266.405, -28.93617],
      [300, -80],
      [0, 0],
    ]) {
      const { l, b } = icrsToGalactic(ra, dec);
      const back = galacticToIcrs(l, b);
      expect(angularSeparationDeg(ra, dec, back.ra, back.dec)).toBeLessThan(1e-10);
    }
  });
});

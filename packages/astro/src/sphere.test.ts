import { describe, expect, it } from 'vitest';

import { angularSeparationDeg, ARCSEC, MAS, normalizeRa, radecToUnitVector, unitVectorToRadec } from './sphere.ts';

const dms = (d: number, m: number, s: number): number => d + m / 60 + s / 3600;

describe('angularSeparationDeg', () => {
  it('matches published separations computed by astropy SkyCoord.separation', () => {
    // Source: arrafmousa/AstroPy Q&A dataset on huggingface.co (answers produced by astropy, ICRS).
    const published: Array<[number, number, number, number, number]> = [
      [73.56, -52.22, 85.68, -74.73, dms(23, 2, 32.19653873)],
      [89.56, 5.43, 70.91, -50.86, dms(58, 32, 2.29341082)],
      [65.94, 5.84, 35.86, -88.84, dms(94, 50, 9.37441133)],
      [27.47, 73.12, 58.05, 12.62, dms(63, 3, 45.82599731)],
      [81.88, 74.18, 10.51, 66.91, dms(23, 11, 25.43455056)],
      [91.84, -53.84, 98.83, -2.98, dms(51, 10, 58.05735462)],
      [39.04, -35.15, 31.44, -14.25, dms(21, 59, 27.49128354)],
    ];
    for (const [ra1, dec1, ra2, dec2, expected] of published) {
      expect(Math.abs(angularSeparationDeg(ra1, dec1, ra2, dec2) - expected) / ARCSEC).toBeLessThan(1e-5);
    }
  });

  it('matches Meeus, Astronomical Algorithms, example 17.a (Arcturus - Spica = 32.7930 deg)', () => {
    expect(angularSeparationDeg(213.9154, 19.1825, 201.2983, -11.1614)).toBeCloseTo(32.793, 4);
  });

  it('is exact along a meridian and along the equator, including across RA 0/360', () => {
    expect(angularSeparationDeg(123, -10, 123, 35)).toBeCloseTo(45, 12);
    expect(angularSeparationDeg(0, 0, 90, 0)).toBeCloseTo(90, 12);
    expect(angularSeparationDeg(359.9999, 0, 0.0001, 0)).toBeCloseTo(0.0002, 12);
  });

  it('gives exactly 180 degrees for antipodes and 0 for identical points', () => {
    expect(angularSeparationDeg(10, 0, 190, 0)).toBe(180);
    expect(angularSeparationDeg(0, 90, 77, -90)).toBe(180);
    expect(angularSeparationDeg(33.3, -12.5, 213.3, 12.5)).toBeCloseTo(180, 12);
    expect(angularSeparationDeg(42, 42, 42, 42)).toBe(0);
  });

  it('is accurate to ~1e-9 relative at 1 milliarcsecond', () => {
    // Along a meridian the separation is the Dec difference itself (the
    // difference of the two doubles, which is exact here, not MAS: 2.2 + MAS
    // is itself rounded by ~1e-9 relative to MAS).
    const dec2 = 2.2 + MAS;
    const decStep = angularSeparationDeg(150, 2.2, 150, dec2);
    expect(Math.abs(decStep - (dec2 - 2.2)) / MAS).toBeLessThan(1e-12);
    // For two points at the same Dec the closed form is 2 asin(cos(dec) sin(dRA / 2)).
    for (const dec of [0, 41.26917, -75, 89.5]) {
      const ra2 = 10.68458 + MAS / Math.cos((dec * Math.PI) / 180);
      const deltaRa = ra2 - 10.68458;
      const expected = (2 * Math.asin(Math.cos((dec * Math.PI) / 180) * Math.sin((deltaRa * Math.PI) / 360)) * 180) / Math.PI;
      const got = angularSeparationDeg(10.68458, dec, ra2, dec);
      expect(Math.abs(got - expected) / expected).toBeLessThan(1e-9);
    }
  });

  it('is symmetric', () => {
    expect(angularSeparationDeg(1, 2, 3, 4)).toBeCloseTo(angularSeparationDeg(3, 4, 1, 2), 13);
  });
});

describe('normalizeRa', () => {
  it('wraps into [0, 360)', () => {
    expect(normalizeRa(0)).toBe(0);
    expect(normalizeRa(360)).toBe(0);
    expect(normalizeRa(-90)).toBe(270);
    expect(normalizeRa(725)).toBe(5);
    expect(normalizeRa(-1e-20)).toBe(0); // 360 - 1e-20 rounds to 360, which must wrap to 0
    expect(Object.is(normalizeRa(-0), 0)).toBe(true);
  });
});

describe('unit vectors', () => {
  it('puts RA multiples of 90 exactly on the axes', () => {
    expect(radecToUnitVector(0, 0)).toEqual([1, 0, 0]);
    expect(radecToUnitVector(90, 0)).toEqual([0, 1, 0]);
    expect(radecToUnitVector(180, 0)).toEqual([-1, 0, 0]);
    expect(radecToUnitVector(270, 0)).toEqual([0, -1, 0]);
  });

  it('round-trips', () => {
    const { ra, dec } = unitVectorToRadec(radecToUnitVector(287.87029928, -16.22908364));
    expect(ra).toBeCloseTo(287.87029928, 10);
    expect(dec).toBeCloseTo(-16.22908364, 10);
  });
});

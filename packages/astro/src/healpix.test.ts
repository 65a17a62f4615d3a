import { describe, expect, it } from 'vitest';

import {
  HEALPIX_MAX_ORDER,
  healpixFromUniq,
  healpixNestCenter,
  healpixNestPixel,
  healpixNestPixelNumber,
  healpixPixelAreaSr,
  healpixPixelCount,
  healpixUniq,
} from './healpix.ts';
import { CredibleSkyMap } from './skymap.ts';
import { angularSeparationDeg } from './sphere.ts';
import { randomGenerator } from './test-random.ts';

describe('HEALPix NESTED', () => {
  it('numbers the 12 base pixels as the HEALPix papers draw them', () => {
    // Base pixel centres: 0-3 around the north pole at RA 45, 135, 225, 315; 4-7 on the equator at
    // RA 0, 90, 180, 270; 8-11 around the south pole.
    expect([45, 135, 225, 315].map((ra) => healpixNestPixel(0, ra, 41.8))).toEqual([0n, 1n, 2n, 3n]);
    expect([0, 90, 180, 270].map((ra) => healpixNestPixel(0, ra, 0))).toEqual([4n, 5n, 6n, 7n]);
    expect([45, 135, 225, 315].map((ra) => healpixNestPixel(0, ra, -41.8))).toEqual([8n, 9n, 10n, 11n]);
    expect(healpixNestCenter(0, 4n)).toEqual({ ra: 0, dec: 0 });
    const north = healpixNestCenter(0, 0n);
    expect(north.ra).toBeCloseTo(45, 10);
    expect(north.dec).toBeCloseTo((Math.asin(2 / 3) * 180) / Math.PI, 10); // z = 2/3
  });

  it('subdivides NESTED-ly: a pixel at order k+1 lies in pixel >> 2 at order k', () => {
    const random = randomGenerator(3);
    for (let i = 0; i < 500; i++) {
      const ra = 360 * random();
      const dec = (Math.asin(2 * random() - 1) * 180) / Math.PI;
      const order = 1 + Math.floor(random() * HEALPIX_MAX_ORDER);
      expect(healpixNestPixel(order, ra, dec) >> 2n).toBe(healpixNestPixel(order - 1, ra, dec));
      if (order <= 24) expect(healpixNestPixelNumber(order, ra, dec)).toBe(Number(healpixNestPixel(order, ra, dec)));
    }
  });

  it('places every position in the pixel whose centre is near it, at every order up to 29', () => {
    const random = randomGenerator(4);
    for (let order = 0; order <= HEALPIX_MAX_ORDER; order++) {
      // A pixel is about sqrt(area) across; its centre is within that of any point inside it.
      const size = (Math.sqrt(healpixPixelAreaSr(order)) * 180) / Math.PI;
      for (let i = 0; i < 40; i++) {
        const ra = 360 * random();
        const dec = i < 4 ? (i % 2 ? 1 : -1) * (89.9 + 0.1 * random()) : (Math.asin(2 * random() - 1) * 180) / Math.PI;
        const pixel = healpixNestPixel(order, ra, dec);
        expect(pixel).toBeLessThan(healpixPixelCount(order));
        const centre = healpixNestCenter(order, pixel);
        expect(angularSeparationDeg(ra, dec, centre.ra, centre.dec)).toBeLessThan(1.5 * size);
        if (order <= 18) expect(healpixNestPixel(order, centre.ra, centre.dec)).toBe(pixel);
      }
    }
  });

  it('converts NUNIQ ids both ways and knows pixel counts and areas', () => {
    expect(healpixUniq(0, 0n)).toBe(4n);
    expect(healpixUniq(29, 5n)).toBe(4n * 4n ** 29n + 5n);
    expect(healpixFromUniq(4n * 4n ** 29n + 5n)).toEqual({ order: 29, pixel: 5n });
    expect(healpixFromUniq(16n)).toEqual({ order: 1, pixel: 0n });
    expect(healpixFromUniq(63n)).toEqual({ order: 1, pixel: 47n });
    expect(() => healpixFromUniq(3n)).toThrow(RangeError);
    expect(healpixPixelCount(29)).toBe(12n * 4n ** 29n);
    expect(healpixPixelAreaSr(0) * 12).toBeCloseTo(4 * Math.PI, 12);
    expect(() => healpixNestPixel(30, 0, 0)).toThrow(RangeError);
  });
});

describe('credible regions', () => {
  it('ranks pixels by density: a two-order map with known areas and levels', () => {
    // Order 0: 11 base pixels of probability 0.05 each; base pixel 4 split into four order-1 pixels
    // holding 0.3, 0.1, 0.03 and 0.02.
    const uniq: bigint[] = [];
    const density: number[] = [];
    const a0 = healpixPixelAreaSr(0);
    const a1 = healpixPixelAreaSr(1);
    for (let p = 0; p < 12; p++)
      if (p !== 4) {
        uniq.push(healpixUniq(0, BigInt(p)));
        density.push(0.05 / a0);
      }
    [0.3, 0.1, 0.03, 0.02].forEach((prob, k) => {
      uniq.push(healpixUniq(1, BigInt(16 + k)));
      density.push(prob / a1);
    });
    const map = CredibleSkyMap.fromUniq(uniq, density);
    expect(map.totalProbability).toBeCloseTo(1, 12);
    const deg2 = (sr: number) => sr * (180 / Math.PI) ** 2;
    // Densest first: 0.3, 0.1, 0.03, 0.02 (order-1 pixels), then the base pixels.
    expect(map.areaOf(0.2)).toBe(0);
    expect(map.areaOf(0.35)).toBeCloseTo(deg2(a1), 6);
    expect(map.areaOf(0.42)).toBeCloseTo(deg2(2 * a1), 6);
    expect(map.areaOf(0.44)).toBeCloseTo(deg2(3 * a1), 6);
    expect(map.areaOf(0.55)).toBeCloseTo(deg2(4 * a1 + 2 * a0), 6);
    const best = healpixNestCenter(1, 16n);
    expect(map.regionAt(best.ra, best.dec)).toEqual({ level: expect.closeTo(0.3, 12), areaDeg2: expect.closeTo(deg2(a1), 6) });
    const base = healpixNestCenter(0, 0n);
    expect(map.regionAt(base.ra, base.dec)!.level).toBeGreaterThan(0.45);
    expect(map.densestPixel).toEqual({ order: 1, pixel: 16 });
  });
});

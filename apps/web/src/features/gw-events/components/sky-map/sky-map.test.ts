import { angularSeparationDeg, healpixNestCenter } from '@antares/astro';
import { describe, expect, it } from 'vitest';

import type { SkyMapPixel } from '@/features/gw-events/api/get-skymap';

import { mollweideRaw, skyFrame } from './sky-projection';
import { colourTable, credibleContours, densestPosition, DENSITY_COLOURS, indexSkyMap, paintDensity, rasterizeSkyMap } from './sky-raster';

/** A Gaussian blob (sigma in degrees) at order 4, with credible levels computed the textbook way. */
function gaussianMap(ra0: number, dec0: number, sigma: number, order = 4): SkyMapPixel[] {
  const count = 12 * 4 ** order;
  const pixelArea = 41252.96 / count;
  const pixels = Array.from({ length: count }, (_, i) => {
    const { ra, dec } = healpixNestCenter(order, BigInt(i));
    const d = angularSeparationDeg(ra, dec, ra0, dec0);
    return { ra, dec, probability_density: Math.exp((-d * d) / (2 * sigma * sigma)), level: 0 };
  });
  const total = pixels.reduce((sum, p) => sum + p.probability_density * pixelArea, 0);
  for (const p of pixels) p.probability_density /= total;
  let cumulative = 0;
  for (const p of [...pixels].sort((a, b) => b.probability_density - a.probability_density)) {
    cumulative += p.probability_density * pixelArea;
    p.level = cumulative;
  }
  // Shuffled: the drawing must not depend on the list order.
  return pixels.reverse();
}

/** Planar point-in-multipolygon (even-odd over every ring). */
function inside(point: [number, number], polygons: number[][][][]): boolean {
  let result = false;
  for (const ring of polygons.flat()) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) {
      const [xi, yi] = ring[i];
      const [xj, yj] = ring[j];
      if (yi > point[1] !== yj > point[1] && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) result = !result;
    }
  }
  return result;
}

describe('the Mollweide projection', () => {
  it('maps the centre, the equator ends and the poles where the ellipse has them', () => {
    expect(mollweideRaw(0, 0)).toEqual([0, 0]);
    const [x, y] = mollweideRaw(Math.PI, 0);
    expect(x).toBeCloseTo(2 * Math.SQRT2, 10);
    expect(y).toBeCloseTo(0, 10);
    expect(mollweideRaw(0, Math.PI / 2)[1]).toBeCloseTo(Math.SQRT2, 10);
  });

  it('inverts its own output', () => {
    for (const [lambda, phi] of [
      [0.3, 0.2],
      [-2.9, -1.2],
      [1.7, 1.45],
      [-0.01, -0.7],
    ]) {
      const [x, y] = mollweideRaw(lambda, phi);
      const back = mollweideRaw.invert!(x, y)!;
      expect(back[0]).toBeCloseTo(lambda, 9);
      expect(back[1]).toBeCloseTo(phi, 9);
    }
  });

  it('puts RA 180 in the middle with RA increasing to the left, and finds positions back', () => {
    const frame = skyFrame(800, 400);
    const [cx, cy] = frame.toFrame(180, 0);
    expect(cx).toBeCloseTo(400, 6);
    expect(cy).toBeCloseTo(200, 6);
    expect(frame.toFrame(90, 0)[0]).toBeGreaterThan(400);
    expect(frame.toFrame(270, 0)[0]).toBeLessThan(400);
    expect(frame.toFrame(180, 60)[1]).toBeLessThan(200);
    for (const [ra, dec] of [
      [10.68, 41.27],
      [359.5, -20],
      [0.5, 75],
      [200, -60],
    ]) {
      const [x, y] = frame.toFrame(ra, dec);
      const sky = frame.toSky(x, y)!;
      expect(sky.ra).toBeCloseTo(ra, 6);
      expect(sky.dec).toBeCloseTo(dec, 6);
    }
    expect(frame.toSky(2, 2)).toBeNull();
    expect(frame.toSky(798, 398)).toBeNull();
  });
});

describe('the sky map raster', () => {
  const frame = skyFrame(720, 360);
  const index = indexSkyMap({ order: 4, pixels: gaussianMap(60, 20, 8) });
  const raster = rasterizeSkyMap(index, frame, 2);

  it('indexes every pixel by its own position', () => {
    expect(index.density.every(Number.isFinite)).toBe(true);
    const peak = index.density.indexOf(index.maxDensity);
    const centre = densestPosition(index)!;
    expect(angularSeparationDeg(centre.ra, centre.dec, 60, 20)).toBeLessThan(3);
    expect(densestPosition({ ...index, maxDensity: 0 })).toBeNull();
    // The densest pixel's level is its own probability (~3% for this blob at order 4).
    expect(index.level[peak]).toBeLessThan(0.05);
  });

  it('gives off-sky cells no density and the densest cells the darkest colour', () => {
    expect(raster.cols).toBe(360);
    expect(raster.rows).toBe(180);
    expect(Number.isNaN(raster.density[0])).toBe(true);
    const table = colourTable();
    const rgba = paintDensity(raster, index.maxDensity, table);
    expect(rgba[3]).toBe(0);
    const [x, y] = frame.toFrame(60, 20);
    const cell = Math.floor(y / 2) * raster.cols + Math.floor(x / 2);
    const darkest = DENSITY_COLOURS.at(-1)!;
    const expected = [1, 3, 5].map((i) => parseInt(darkest.slice(i, i + 2), 16));
    expect(Math.max(...[0, 1, 2].map((i) => Math.abs(rgba[cell * 4 + i] - expected[i])))).toBeLessThan(25);
    expect(Array.from(table.slice(0, 3))).toEqual([0xfb, 0xfb, 0xf7]);
  });

  it('draws the 50% region inside the 90% one, around the peak, and not across the sky', () => {
    const [c50, c90] = credibleContours(raster, [0.5, 0.9]);
    expect(c50.level).toBe(0.5);
    expect(c90.level).toBe(0.9);
    const peak = frame.toFrame(60, 20);
    expect(inside(peak, c50.geometry.coordinates)).toBe(true);
    expect(inside(peak, c90.geometry.coordinates)).toBe(true);
    // Gaussian radii: 50% within 1.18 sigma, 90% within 2.15 sigma.
    const between = frame.toFrame(60, 20 + 1.6 * 8);
    expect(inside(between, c50.geometry.coordinates)).toBe(false);
    expect(inside(between, c90.geometry.coordinates)).toBe(true);
    const far = frame.toFrame(240, -20);
    expect(inside(far, c90.geometry.coordinates)).toBe(false);
  });

  it('splits a region across RA 0 into the two edges of the map, leaving the middle out', () => {
    const wrapped = rasterizeSkyMap(indexSkyMap({ order: 4, pixels: gaussianMap(2, 0, 8) }), frame, 2);
    const [c50] = credibleContours(wrapped, [0.5]);
    expect(inside(frame.toFrame(358, 0), c50.geometry.coordinates)).toBe(true);
    expect(inside(frame.toFrame(6, 0), c50.geometry.coordinates)).toBe(true);
    expect(inside(frame.toFrame(180, 0), c50.geometry.coordinates)).toBe(false);
    expect(inside(frame.toFrame(90, 0), c50.geometry.coordinates)).toBe(false);
  });
});

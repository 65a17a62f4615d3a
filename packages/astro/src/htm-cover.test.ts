import { describe, expect, it } from 'vitest';

import { htmId, htmIdOfVector, htmPathOfVector, htmTrixelVertices } from './htm.ts';
import { htmCircleCover, type HtmIdRange, htmSmallCapCover, htmSmallCapRange, htmTrixelHoldingCap } from './htm-cover.ts';
import { angularSeparationDeg, ARCSEC, radecToUnitVector } from './sphere.ts';
import { randomGenerator } from './test-random.ts';

const toRad = Math.PI / 180;

/** Point at angular distance `distance` from (ra, dec) towards position angle `bearing` (spherical trig). */
function offsetPoint(ra: number, dec: number, distance: number, bearing: number): [number, number] {
  const d = distance * toRad;
  const phi1 = dec * toRad;
  const theta = bearing * toRad;
  const phi2 = Math.asin(Math.sin(phi1) * Math.cos(d) + Math.cos(phi1) * Math.sin(d) * Math.cos(theta));
  const lambda = Math.atan2(Math.sin(theta) * Math.sin(d) * Math.cos(phi1), Math.cos(d) - Math.sin(phi1) * Math.sin(phi2));
  return [(((ra + lambda / toRad) % 360) + 360) % 360, phi2 / toRad];
}

function isCovered(ranges: HtmIdRange[], id: number): boolean {
  return ranges.some(([low, high]) => id >= low && id <= high);
}

/** Number of level-16 ids in the ranges. */
function totalIds(ranges: HtmIdRange[]): number {
  return ranges.reduce((sum, [low, high]) => sum + high - low + 1, 0);
}

type Center = [number, number];

/** Centres stressing the awkward places: poles, the RA 0/360 seam, root edges, and anywhere. */
function randomCenter(random: () => number, kind: number): Center {
  const uniformDec = (Math.asin(2 * random() - 1) * 180) / Math.PI;
  switch (kind % 5) {
    case 0:
      return [random() * 360, 89.9 + random() * 0.1];
    case 1:
      return [random() * 360, -89.9 - random() * 0.1];
    case 2:
      return [random() < 0.5 ? random() * 0.05 : 360 - random() * 0.05, uniformDec];
    case 3:
      return [90 * Math.floor(random() * 4) + (random() - 0.5) * 1e-3, (random() - 0.5) * 1e-3];
    default:
      return [random() * 360, uniformDec];
  }
}

/** Sample points inside the circle, half of them hugging its edge where misses would show. */
function pointsInCircle(random: () => number, [ra, dec]: Center, radius: number, count: number): Center[] {
  const points: Center[] = [[ra, dec]];
  for (let i = 0; i < count; i++) {
    const distance = i % 2 === 0 ? radius * Math.sqrt(random()) : radius * (1 - 1e-6 * random());
    const point = offsetPoint(ra, dec, distance, random() * 360);
    if (angularSeparationDeg(ra, dec, point[0], point[1]) <= radius) points.push(point);
  }
  return points;
}

function expectWellFormed(ranges: HtmIdRange[], level = 16): void {
  for (let i = 0; i < ranges.length; i++) {
    const [low, high] = ranges[i];
    expect(Number.isInteger(low) && Number.isInteger(high)).toBe(true);
    expect(low).toBeLessThanOrEqual(high);
    expect(low).toBeGreaterThanOrEqual(8 * 4 ** level);
    expect(high).toBeLessThan(16 * 4 ** level);
    // Sorted, disjoint and not touching (touching ranges must have been merged).
    if (i > 0) expect(low).toBeGreaterThan(ranges[i - 1][1] + 1);
  }
}

describe('htmCircleCover', () => {
  it('contains the level-16 id of every sampled point within the radius (random circles, 1 arcsec .. 10 deg)', () => {
    const random = randomGenerator(20240601);
    let checkedPoints = 0;
    for (let circle = 0; circle < 250; circle++) {
      const center = randomCenter(random, circle);
      const radius = ARCSEC * 36000 ** random(); // log-uniform from 1 arcsec to 10 deg
      const ranges = htmCircleCover(center[0], center[1], radius);
      expect(ranges.length).toBeLessThanOrEqual(48);
      expectWellFormed(ranges);
      for (const [ra, dec] of pointsInCircle(random, center, radius, 12)) {
        const id = htmId(ra, dec);
        if (!isCovered(ranges, id)) {
          throw new Error(`missed point (${ra}, ${dec}) id ${id} for circle (${center}) r=${radius}`);
        }
        checkedPoints++;
      }
    }
    expect(checkedPoints).toBeGreaterThan(3000);
  });

  it('honours small and large range budgets without losing points', () => {
    const random = randomGenerator(7);
    for (const maxRanges of [1, 2, 5, 8, 20, 200]) {
      for (let circle = 0; circle < 20; circle++) {
        const center = randomCenter(random, circle);
        const radius = ARCSEC * 36000 ** random();
        const ranges = htmCircleCover(center[0], center[1], radius, { maxRanges });
        expect(ranges.length).toBeLessThanOrEqual(maxRanges);
        expectWellFormed(ranges);
        for (const [ra, dec] of pointsInCircle(random, center, radius, 10)) {
          expect(isCovered(ranges, htmId(ra, dec))).toBe(true);
        }
      }
    }
  });

  it('works at other levels', () => {
    const random = randomGenerator(11);
    for (const level of [0, 5, 10, 20]) {
      for (let circle = 0; circle < 20; circle++) {
        const center = randomCenter(random, circle);
        const radius = ARCSEC * 36000 ** random();
        const ranges = htmCircleCover(center[0], center[1], radius, { level });
        expectWellFormed(ranges, level);
        for (const [ra, dec] of pointsInCircle(random, center, radius, 10)) {
          expect(isCovered(ranges, htmId(ra, dec, level))).toBe(true);
        }
      }
    }
  });

  it('stays tight for tiny circles: 0.1 and 1 arcsec need only a handful of 5-arcsec trixels', () => {
    for (const [ra, dec] of [
      [10.68458, 41.26917],
      [0, 0],
      [0, 90],
      [359.99999, -89.99999],
      [90, 0],
    ] as Center[]) {
      for (const radius of [0.1 * ARCSEC, ARCSEC]) {
        const ranges = htmCircleCover(ra, dec, radius);
        expect(isCovered(ranges, htmId(ra, dec))).toBe(true);
        // A point where several trixels meet (root corners) can touch up to 8 of them.
        expect(totalIds(ranges)).toBeLessThanOrEqual(12);
      }
    }
  });

  it('is tight for larger circles: points at 1.5 r are almost never inside the cover', () => {
    // Trixels are ~5 arcsec at level 16, so for r >= 1 arcmin a ring at 1.5 r
    // should fall outside a reasonable 48-range cover.
    for (const [ra, dec, radius] of [
      [123.4, -45.6, 10],
      [123.4, -45.6, 1],
      [0, 90, 1],
      [10, 10, 1 / 60],
    ]) {
      const ranges = htmCircleCover(ra, dec, radius);
      let covered = 0;
      const samples = 720;
      for (let i = 0; i < samples; i++) {
        const [pointRa, pointDec] = offsetPoint(ra, dec, 1.5 * radius, (i * 360) / samples);
        if (isCovered(ranges, htmId(pointRa, pointDec))) covered++;
      }
      expect(covered / samples).toBeLessThan(0.05);
    }
  });

  it('handles radius 0 (the point itself) and 180 degrees (the whole sky)', () => {
    const id = htmId(33, 44);
    expect(isCovered(htmCircleCover(33, 44, 0), id)).toBe(true);
    expect(htmCircleCover(33, 44, 180)).toEqual([[2 ** 35, 2 ** 36 - 1]]);
    expect(htmCircleCover(33, 44, 500)).toEqual([[2 ** 35, 2 ** 36 - 1]]);
  });

  it('covers the whole northern hemisphere for a 90 degree circle around the north pole', () => {
    const ranges = htmCircleCover(0, 90, 90);
    // N0..N3 are ids 12..15, i.e. the level-16 block [12 * 4^16, 16 * 4^16 - 1].
    expect(ranges.some(([low, high]) => low <= 12 * 4 ** 16 && high >= 16 * 4 ** 16 - 1)).toBe(true);
    // Equator points belong to the closed circle too.
    for (const ra of [0, 45, 90, 180, 271.5]) expect(isCovered(ranges, htmId(ra, 0))).toBe(true);
  });

  it('covers both sides of the RA 0/360 seam', () => {
    const ranges = htmCircleCover(0.0001, 12, 2 * ARCSEC);
    expect(isCovered(ranges, htmId(359.9999, 12))).toBe(true);
    expect(isCovered(ranges, htmId(0.0003, 12))).toBe(true);
  });

  it('rejects invalid arguments', () => {
    expect(() => htmCircleCover(0, 95, 1)).toThrow(RangeError);
    expect(() => htmCircleCover(0, 0, -1)).toThrow(RangeError);
    expect(() => htmCircleCover(0, 0, Number.NaN)).toThrow(RangeError);
    expect(() => htmCircleCover(0, 0, 1, { maxRanges: 0 })).toThrow(RangeError);
    expect(() => htmCircleCover(0, 0, 1, { level: 30 })).toThrow(RangeError);
  });
});

describe('htmTrixelHoldingCap', () => {
  it('names a trixel only when the whole cap lies in it, which is then the whole cover at that level', () => {
    const random = randomGenerator(35);
    let held = 0;
    for (let circle = 0; circle < 2000; circle++) {
      const center = randomCenter(random, circle);
      const radius = ARCSEC * 2 * 360 ** random(); // 2" .. 12'
      const level = 4 + (circle % 9);
      const id = htmTrixelHoldingCap(center[0], center[1], radius, level);
      if (id === undefined) continue;
      held++;
      expect(htmCircleCover(center[0], center[1], radius, { level })).toEqual([[id, id]]);
      for (const [ra, dec] of pointsInCircle(random, center, radius, 16)) expect(htmId(ra, dec, level)).toBe(id);
    }
    expect(held).toBeGreaterThan(500);
  });

  it('names none for a cap over an edge or a corner of its trixel', () => {
    const random = randomGenerator(36);
    for (let k = 0; k < 300; k++) {
      const level = 8;
      const id = htmId(random() * 360, Math.asin(2 * random() - 1) / toRad, level);
      const [a, b] = htmTrixelVertices(id);
      // A point on the edge a-b (its midpoint) or on the corner a, moved by less than the radius.
      const onEdge = k % 2 === 0 ? [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2] : [...a];
      const length = Math.hypot(onEdge[0], onEdge[1], onEdge[2]);
      const ra = (((Math.atan2(onEdge[1], onEdge[0]) / toRad) % 360) + 360) % 360;
      const dec = Math.asin(onEdge[2] / length) / toRad;
      const [nearRa, nearDec] = offsetPoint(ra, dec, ARCSEC * random(), random() * 360);
      expect(htmTrixelHoldingCap(nearRa, nearDec, 2 * ARCSEC, level)).toBeUndefined();
    }
  });

  it('holds most 2" caps at level 8, the sky locks of ingestion', () => {
    const random = randomGenerator(37);
    let held = 0;
    for (let k = 0; k < 5000; k++) {
      if (htmTrixelHoldingCap(random() * 360, Math.asin(2 * random() - 1) / toRad, 2 * ARCSEC, 8) !== undefined) held++;
    }
    expect(held).toBeGreaterThan(4900);
  });
});

describe('htmSmallCapRange', () => {
  it('gives one range that holds every trixel of the cover and every point of the cap', () => {
    const random = randomGenerator(38);
    let given = 0;
    for (let circle = 0; circle < 3000; circle++) {
      const center = randomCenter(random, circle);
      const radius = ARCSEC * (0.5 + 3 * random()); // the association (1") and sky-lock (2") caps and about
      const range = htmSmallCapRange(center[0], center[1], radius);
      if (range === undefined) continue;
      given++;
      const [low, high] = range;
      // One trixel's ids, 16 levels deep, from 0 to 2 levels above: 1, 4 or 16 of them, aligned.
      expect([1, 4, 16]).toContain(high - low + 1);
      expect(low % (high - low + 1)).toBe(0);
      for (const [from, to] of htmCircleCover(center[0], center[1], radius)) {
        // The cover's ranges may run over trixels the cap only nears; those it touches are all inside.
        for (let id = from; id <= to; id++) if (id < low || id > high) expect(htmTrixelHoldingCapOf(id, center, radius)).toBe(false);
      }
      for (const [ra, dec] of pointsInCircle(random, center, radius, 16)) expect(isCovered([range], htmId(ra, dec))).toBe(true);
    }
    expect(given).toBeGreaterThan(1000);
  });

  it('holds most 1" caps (association) in one trixel of level 16 to 14', () => {
    const random = randomGenerator(40);
    let given = 0;
    for (let k = 0; k < 5000; k++) if (htmSmallCapRange(random() * 360, Math.asin(2 * random() - 1) / toRad, ARCSEC) !== undefined) given++;
    expect(given).toBeGreaterThan(3500); // 72.6 % of 20,000 random positions when measured
  });

  it('gives none for a cap over the edges of its trixels at each of those levels', () => {
    // On the edge between root trixels (RA 0, the equator), no trixel of any level holds the cap.
    expect(htmSmallCapRange(0, 0, ARCSEC)).toBeUndefined();
    expect(htmSmallCapRange(90, 0.00001, ARCSEC)).toBeUndefined();
    expect(htmSmallCapRange(10, 20, 90)).toBeUndefined();
  });

  it('walks the same trixels as the id look-up', () => {
    const random = randomGenerator(39);
    for (let k = 0; k < 200; k++) {
      const point = radecToUnitVector(random() * 360, Math.asin(2 * random() - 1) / toRad);
      const path = htmPathOfVector(point, 16);
      expect(path).toHaveLength(17);
      for (const [level, step] of path.entries()) {
        expect(step.id).toBe(htmIdOfVector(point, level));
        expect(step.triangle).toEqual(htmTrixelVertices(step.id));
      }
    }
  });
});

/** Whether the level-16 trixel `id` meets the cap: some sampled point of the cap lies in it. */
function htmTrixelHoldingCapOf(id: number, center: Center, radius: number): boolean {
  const random = randomGenerator(id % 1000);
  return pointsInCircle(random, center, radius, 200).some(([ra, dec]) => htmId(ra, dec) === id);
}

describe('htmSmallCapCover', () => {
  it("gives htmCircleCover's ranges for small caps, walked from the deepest trixel holding the cap", () => {
    const random = randomGenerator(41);
    let walked = 0;
    for (let circle = 0; circle < 3000; circle++) {
      const [ra, dec] = randomCenter(random, circle);
      const radius = ARCSEC * (0.5 + 3 * random());
      const cover = htmSmallCapCover(ra, dec, radius);
      const range = htmSmallCapRange(ra, dec, radius);
      if (range) expect(cover).toEqual([range]);
      else {
        walked++;
        expect(cover).toEqual(htmCircleCover(ra, dec, radius));
      }
    }
    expect(walked).toBeGreaterThan(500);
  });

  it('walks from the root trixels when no trixel holds the cap, and covers large caps too', () => {
    expect(htmSmallCapCover(0, 0, ARCSEC)).toEqual(htmCircleCover(0, 0, ARCSEC));
    expect(htmSmallCapCover(10, 20, 3)).toEqual(htmCircleCover(10, 20, 3));
  });
});

import { describe, expect, it } from 'vitest';

import {
  htmChildTriangles,
  htmId,
  htmIdOfVector,
  htmIdRangeAtLevel,
  htmIdToName,
  htmLevelOfId,
  htmNameToId,
  htmPathOfVector,
  htmRootTriangle,
  htmTrixelOfVector,
  htmTrixelVertices,
  type Triangle,
} from './htm.ts';
import { radecToUnitVector } from './sphere.ts';
import { randomGenerator } from './test-random.ts';
import { add, cross, dot, normalize, type Vec3 } from './vec3.ts';

type V = [number, number, number];

/**
 * Deliberately separate HTM walk used as an oracle: plain trig for the
 * vector, all 8 roots tried by solving for barycentric coordinates with
 * Cramer's rule (instead of octants and edge-plane signs), BigInt id
 * arithmetic. Only used on random points, which are never on an edge, where
 * tie-breaking conventions could legitimately differ.
 */
function naiveHtmId(raDeg: number, decDeg: number, level: number): bigint {
  const ra = (raDeg * Math.PI) / 180;
  const dec = (decDeg * Math.PI) / 180;
  const p: V = [Math.cos(dec) * Math.cos(ra), Math.cos(dec) * Math.sin(ra), Math.sin(dec)];
  const det = (a: V, b: V, c: V): number =>
    a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
  const barycentricMin = ([a, b, c]: V[]): number => {
    const d = det(a, b, c);
    return Math.min(det(p, b, c) / d, det(a, p, c) / d, det(a, b, p) / d);
  };
  const mid = (a: V, b: V): V => {
    const s: V = [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
    const n = Math.sqrt(s[0] ** 2 + s[1] ** 2 + s[2] ** 2);
    return [s[0] / n, s[1] / n, s[2] / n];
  };
  const v: V[] = [
    [0, 0, 1],
    [1, 0, 0],
    [0, 1, 0],
    [-1, 0, 0],
    [0, -1, 0],
    [0, 0, -1],
  ];
  const roots: Array<[bigint, V[]]> = [
    [8n, [v[1], v[5], v[2]]],
    [9n, [v[2], v[5], v[3]]],
    [10n, [v[3], v[5], v[4]]],
    [11n, [v[4], v[5], v[1]]],
    [12n, [v[1], v[0], v[4]]],
    [13n, [v[4], v[0], v[3]]],
    [14n, [v[3], v[0], v[2]]],
    [15n, [v[2], v[0], v[1]]],
  ];
  let [id, tri] = roots.reduce((best, root) => (barycentricMin(root[1]) > barycentricMin(best[1]) ? root : best));
  for (let depth = 0; depth < level; depth++) {
    const [a, b, c] = tri;
    const w0 = mid(b, c);
    const w1 = mid(a, c);
    const w2 = mid(a, b);
    const children: V[][] = [
      [a, w2, w1],
      [b, w0, w2],
      [c, w1, w0],
      [w0, w1, w2],
    ];
    const scores = children.map(barycentricMin);
    const k = scores.indexOf(Math.max(...scores));
    id = id * 4n + BigInt(k);
    tri = children[k];
  }
  return id;
}

function randomSkyPoint(random: () => number): [number, number] {
  // Uniform on the sphere: uniform RA, uniform sin(Dec).
  return [random() * 360, (Math.asin(2 * random() - 1) * 180) / Math.PI];
}

describe('htmId: published values', () => {
  // SDSS SkyServer dbo.fHtmEq / fHtmGetString (level 20), as frozen in the
  // DESI desitarget test suite (desihub/desitarget py/desitarget/test/test_htm.py).
  const skyServer: Array<[number, number, number, string]> = [
    [287.87029928, 16.22908364, 14015193368226, 'N023330222213310122202'],
    [223.95814592, -53.49629596, 12043250829178, 'S233100021230000131322'],
    [328.99793884, 24.40112077, 14104942108414, 'N031100100010011323332'],
    [127.24251626, -23.14789754, 10813196528989, 'S131112210233032311131'],
  ];

  it('reproduces SkyServer level-20 ids and names', () => {
    for (const [ra, dec, id, name] of skyServer) {
      expect(htmId(ra, dec, 20)).toBe(id);
      expect(htmIdToName(htmId(ra, dec, 20))).toBe(name);
      expect(htmNameToId(name)).toBe(id);
    }
  });

  it('gives the level-16 prefix of those ids by default (4 levels = 8 bits = /256)', () => {
    for (const [ra, dec, id] of skyServer) expect(htmId(ra, dec)).toBe(Math.floor(id / 256));
  });

  it('agrees with the desitarget corner cases a few micro-arcseconds from root corners', () => {
    const corners: Array<[number, number, string]> = [
      [0 + 1e-9, 90 - 1e-9, 'N310000000000000000000'],
      [0 - 1e-9, 90 - 1e-9, 'N010000000000000000000'],
      [180 + 1e-9, 0 + 1e-9, 'N120000000000000000000'],
      [180 - 1e-9, 0 - 1e-9, 'S120000000000000000000'],
    ];
    for (const [ra, dec, name] of corners) expect(htmIdToName(htmId(ra, dec, 20))).toBe(name);
  });

  it('matches the JHU HTM library name/id encoding (HTMfunc tests: N32030330012 = 16305926)', () => {
    expect(htmNameToId('N32030330012')).toBe(16305926);
    expect(htmNameToId('N320303300120212220333')).toBe(17098002819647);
    expect(htmIdToName(17098002819647)).toBe('N320303300120212220333');
  });
});

describe('htmId: conventions and structure', () => {
  it('numbers the roots S0..S3 = 8..11 and N0..N3 = 12..15', () => {
    // One point well inside each root triangle (the centroid direction of its octant).
    expect(htmId(45, -35, 0)).toBe(8); // S0: x>0, y>0, z<0
    expect(htmId(135, -35, 0)).toBe(9); // S1
    expect(htmId(225, -35, 0)).toBe(10); // S2
    expect(htmId(315, -35, 0)).toBe(11); // S3
    expect(htmId(315, 35, 0)).toBe(12); // N0: x>0, y<0, z>0
    expect(htmId(225, 35, 0)).toBe(13); // N1
    expect(htmId(135, 35, 0)).toBe(14); // N2
    expect(htmId(45, 35, 0)).toBe(15); // N3
  });

  it('puts (ra=0, dec=0) in N32000...0', () => {
    // (0,0) is the root vertex v1 = (1,0,0), shared by S0, S3, N0 and N3. The
    // JHU lookup picks the root by octant with ties going to x>0, y>=0, z>=0,
    // i.e. N3 = (v2, v0, v1). There v1 is the third corner, so the first step
    // is child 2 = (v1, w1, w0), in which it is the first corner: every later
    // step is child 0. Id = 15 * 4^16 + 2 * 4^15.
    expect(htmIdToName(htmId(0, 0))).toBe('N32000000000000000');
    expect(htmId(0, 0)).toBe(15 * 4 ** 16 + 2 * 4 ** 15);
    expect(htmId(0, 0)).toBe(66571993088);
  });

  it('assigns exact equator points to the northern root (JHU startpane: z >= 0 is north)', () => {
    expect(htmIdToName(htmId(200, 0, 1))).toMatch(/^N1/);
    expect(htmIdToName(htmId(20, 0, 1))).toMatch(/^N3/);
  });

  it('handles the poles', () => {
    expect(htmIdToName(htmId(0, 90, 3))).toBe('N3100');
    expect(htmIdToName(htmId(0, -90, 3))).toBe('S0100');
    // Every trixel chosen for a pole has the pole as a corner.
    for (const ra of [0, 45, 90, 135, 180, 270, 359.9]) {
      const [a, b, c] = htmTrixelVertices(htmId(ra, 90));
      expect([a, b, c].some((v) => v[2] === 1)).toBe(true);
    }
  });

  it('treats RA 360 like RA 0 and negative RA like RA + 360', () => {
    expect(htmId(360, 12)).toBe(htmId(0, 12));
    expect(htmId(-10, 12)).toBe(htmId(350, 12));
  });

  it('agrees with an independent naive walk for random points, at levels 16 and 20', () => {
    const random = randomGenerator(1);
    for (let i = 0; i < 500; i++) {
      const [ra, dec] = randomSkyPoint(random);
      expect(htmId(ra, dec)).toBe(Number(naiveHtmId(ra, dec, 16)));
      expect(htmId(ra, dec, 20)).toBe(Number(naiveHtmId(ra, dec, 20)));
    }
  });

  it('descends as htmChildTriangles and the JHU child test do, bit for bit, on edges and corners too', () => {
    // The descent through arrays that htmIdOfVector replaced (it allocated at every level).
    const insideness = (p: Vec3, [a, b, c]: Triangle) => Math.min(dot(cross(a, b), p), dot(cross(b, c), p), dot(cross(c, a), p));
    const reference = (p: Vec3, level: number) => {
      const [x, y, z] = p;
      let id = z >= 0 ? (x > 0 && y >= 0 ? 15 : x <= 0 && y > 0 ? 14 : x < 0 && y <= 0 ? 13 : x >= 0 && y < 0 ? 12 : 15) : 0;
      if (z < 0) id = x > 0 && y >= 0 ? 8 : x <= 0 && y > 0 ? 9 : x < 0 && y <= 0 ? 10 : x >= 0 && y < 0 ? 11 : 8;
      let triangle = htmRootTriangle(id);
      const path = [{ id, triangle }];
      for (let depth = 0; depth < level; depth++) {
        const children = htmChildTriangles(triangle);
        const values = children.map((child) => insideness(p, child));
        let k = values.findIndex((v) => v >= -1e-15);
        if (k < 0) k = values.indexOf(Math.max(...values));
        id = id * 4 + k;
        triangle = children[k];
        path.push({ id, triangle });
      }
      return path;
    };
    const random = randomGenerator(11);
    const points: Vec3[] = [];
    for (let i = 0; i < 2000; i++) points.push(radecToUnitVector(...randomSkyPoint(random)));
    // Points on trixel edges and corners, where the tolerance and the order of the tests decide.
    for (let i = 0; i < 300; i++) {
      const [a, b, c] = htmTrixelVertices(htmId(...randomSkyPoint(random), 1 + (i % 12)));
      points.push(a, b, c, normalize(add(a, b)), normalize(add(b, c)), normalize(add(c, a)));
    }
    points.push([0, 0, 1], [0, 0, -1], [1, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0], radecToUnitVector(45, 0));
    for (const p of points) {
      const expected = reference(p, 20);
      expect(htmPathOfVector(p, 20)).toEqual(expected);
      expect(htmIdOfVector(p, 20)).toBe(expected[20].id);
      expect(htmIdOfVector(p, 7)).toBe(expected[7].id);
      expect(htmTrixelOfVector(p, 14)).toEqual(expected[14]);
      expect(htmPathOfVector(p, 16, 14)).toEqual(expected.slice(14, 17));
    }
  });

  it('keeps level-16 ids in [2^35, 2^36) and level-L ids in [8 * 4^L, 16 * 4^L)', () => {
    const random = randomGenerator(2);
    for (let i = 0; i < 500; i++) {
      const [ra, dec] = randomSkyPoint(random);
      const id = htmId(ra, dec);
      expect(id).toBeGreaterThanOrEqual(2 ** 35);
      expect(id).toBeLessThan(2 ** 36);
      expect(Number.isInteger(id)).toBe(true);
      const level = Math.floor(random() * 25);
      const deep = htmId(ra, dec, level);
      expect(deep).toBeGreaterThanOrEqual(8 * 4 ** level);
      expect(deep).toBeLessThan(16 * 4 ** level);
    }
  });

  it('dropping 2 bits (id / 4) gives the parent, which contains the point', () => {
    const random = randomGenerator(3);
    for (let i = 0; i < 200; i++) {
      const [ra, dec] = randomSkyPoint(random);
      const id = htmId(ra, dec);
      for (let up = 0; up <= 16; up++) {
        expect(Math.floor(id / 4 ** up)).toBe(htmId(ra, dec, 16 - up));
      }
    }
  });

  it('returns trixel corners that contain the point they were looked up from', () => {
    const random = randomGenerator(4);
    for (let i = 0; i < 300; i++) {
      const [ra, dec] = randomSkyPoint(random);
      const r = (ra * Math.PI) / 180;
      const d = (dec * Math.PI) / 180;
      const p = [Math.cos(d) * Math.cos(r), Math.cos(d) * Math.sin(r), Math.sin(d)];
      const [a, b, c] = htmTrixelVertices(htmId(ra, dec));
      const side = (u: readonly number[], v: readonly number[]): number =>
        (u[1] * v[2] - u[2] * v[1]) * p[0] + (u[2] * v[0] - u[0] * v[2]) * p[1] + (u[0] * v[1] - u[1] * v[0]) * p[2];
      expect(Math.min(side(a, b), side(b, c), side(c, a))).toBeGreaterThanOrEqual(-1e-15);
      // A level-16 trixel is a few arcseconds across (90 deg / 2^16 = 4.9 arcsec for the octant edge split).
      const corner = Math.acos(Math.min(1, a[0] * b[0] + a[1] * b[1] + a[2] * b[2])) * (180 / Math.PI) * 3600;
      expect(corner).toBeGreaterThan(2);
      expect(corner).toBeLessThan(10);
    }
  });

  it('knows the level of an id and its range at a deeper level', () => {
    expect(htmLevelOfId(8)).toBe(0);
    expect(htmLevelOfId(2 ** 35)).toBe(16);
    expect(htmLevelOfId(2 ** 36 - 1)).toBe(16);
    expect(htmIdRangeAtLevel(15, 16)).toEqual([15 * 4 ** 16, 16 * 4 ** 16 - 1]);
    expect(htmIdRangeAtLevel(2 ** 35, 16)).toEqual([2 ** 35, 2 ** 35]);
  });

  it('rejects invalid input', () => {
    expect(() => htmId(0, 91)).toThrow(RangeError);
    expect(() => htmId(Number.NaN, 0)).toThrow(RangeError);
    expect(() => htmId(0, 0, 25)).toThrow(RangeError);
    expect(() => htmId(0, 0, 1.5)).toThrow(RangeError);
    expect(() => htmTrixelVertices(7)).toThrow(RangeError);
    expect(() => htmTrixelVertices(20)).toThrow(RangeError); // binary 10100: leading pair 01 is not a root
    expect(() => htmNameToId('X012')).toThrow(RangeError);
  });
});

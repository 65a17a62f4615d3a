import { angularSeparationDeg, htmId } from '@antares/astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestDatabase, type TestDatabase } from '../testing.ts';
import { compileLocusSearch } from './locus-query.ts';

// Cone searches must return exactly what a brute-force distance check returns.
let database: TestDatabase;
const loci: Array<{ locus_id: string; ra: number; dec: number }> = [];

// A small deterministic PRNG so that a failure can be reproduced.
let state = 12345;
const random = () => {
  state = (state * 1664525 + 1013904223) % 4294967296;
  return state / 4294967296;
};

/** A point at a given angular distance and bearing from a centre (spherical trigonometry). */
function offset(ra: number, dec: number, distanceDeg: number, bearingDeg: number) {
  const d = (distanceDeg * Math.PI) / 180;
  const b = (bearingDeg * Math.PI) / 180;
  const dec1 = (dec * Math.PI) / 180;
  const ra1 = (ra * Math.PI) / 180;
  const dec2 = Math.asin(Math.sin(dec1) * Math.cos(d) + Math.cos(dec1) * Math.sin(d) * Math.cos(b));
  const ra2 = ra1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(dec1), Math.cos(d) - Math.sin(dec1) * Math.sin(dec2));
  return { ra: ((((ra2 * 180) / Math.PI) % 360) + 360) % 360, dec: (dec2 * 180) / Math.PI };
}

const CENTRES = [
  { ra: 10.68458, dec: 41.26917 },
  { ra: 0.0001, dec: 5 }, // across RA 0/360
  { ra: 359.9999, dec: -20 },
  { ra: 123.4, dec: 89.9999 }, // the north pole
  { ra: 300, dec: -89.9995 }, // the south pole
  { ra: 180, dec: 0 },
  { ra: 45, dec: 60 },
];
const RADII_ARCSEC = [1, 5, 60, 600, 3600, 36000];

beforeAll(async () => {
  database = await createTestDatabase();
  let n = 0;
  for (const centre of CENTRES) {
    for (let i = 0; i < 1500; i++) {
      // Log-uniform distances from 0.1 arcsec to 15 degrees put points on both sides of every radius.
      const distance = 10 ** (Math.log10(0.1 / 3600) + random() * (Math.log10(15) - Math.log10(0.1 / 3600)));
      loci.push({ locus_id: `L${n++}`, ...offset(centre.ra, centre.dec, distance, random() * 360) });
    }
  }
  for (let i = 0; i < 3000; i++) {
    loci.push({ locus_id: `L${n++}`, ra: random() * 360, dec: (Math.asin(2 * random() - 1) * 180) / Math.PI });
  }
  for (let i = 0; i < loci.length; i += 2000) {
    await database.repos.loci.insertMany(loci.slice(i, i + 2000).map((l) => ({ ...l, htm16: htmId(l.ra, l.dec) })));
  }
});
afterAll(async () => database?.close());

describe('sky_distance cone search', () => {
  for (const centre of CENTRES) {
    it(`matches a brute-force check around (${centre.ra}, ${centre.dec}) for radii 1" to 10 deg`, async () => {
      for (const radiusArcsec of RADII_ARCSEC) {
        const radius = radiusArcsec / 3600;
        const search = compileLocusSearch({
          query: { bool: { filter: { sky_distance: { distance: `${radius} degree`, htm16: { center: `${centre.ra} ${centre.dec}` } } } } },
        });
        const found: string[] = [];
        for (let offset = 0, more = true; more; offset += 1000) {
          const page = await database.repos.loci.search({ search, sort: [], limit: 1000, offset });
          found.push(...page.rows.map((r) => r.locus_id));
          more = page.hasMore;
        }
        const expected = loci.filter((l) => angularSeparationDeg(centre.ra, centre.dec, l.ra, l.dec) <= radius);
        // Points within a rounding error of the edge may fall either way; none is expected there.
        const ambiguous = loci.filter((l) => Math.abs(angularSeparationDeg(centre.ra, centre.dec, l.ra, l.dec) - radius) < radius * 1e-9);
        expect(ambiguous).toEqual([]);
        expect(found.sort(), `${radiusArcsec}"`).toEqual(expected.map((l) => l.locus_id).sort());
        expect(expected.length, 'the test data puts points inside every cone').toBeGreaterThan(0);
      }
    });
  }
});

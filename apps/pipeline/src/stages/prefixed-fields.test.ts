import { createTestDatabase, type TestDatabase } from '@antares/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { jsonbKeyOrder, prefixedFields } from './prefixed-fields.ts';

// Alert properties are written with their keys in jsonb's order, so that the server need not sort
// them (prefixed-fields.ts). The order must be the server's own, and the fields those of the source
// under the prefix with the added ones, whatever the object's class.
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

/** A record of a class, as the Avro decoder makes them (one builder is compiled per class). */
class Source {
  [field: string]: unknown;
  x = 1.5;
  ra = 10;
  band = 'g';
  psfFlux: number | undefined = undefined;
  isDipole = false;
  ünïcode = 'ü';
}

describe('prefixedFields', () => {
  it('orders keys shorter first, then by their bytes', () => {
    const fields = prefixedFields('lsst_diaSource_', new Source(), { ant_ra: 10, ant_time_received: 5, ant_mag: 20 });
    expect(Object.keys(fields)).toEqual([
      'ant_ra',
      'ant_mag',
      'lsst_diaSource_x',
      'ant_time_received',
      'lsst_diaSource_ra',
      'lsst_diaSource_band',
      'lsst_diaSource_psfFlux',
      'lsst_diaSource_isDipole',
      // 'ü' and 'ï' are two bytes each in UTF-8.
      'lsst_diaSource_ünïcode',
    ]);
  });

  it('gives the source fields under the prefix, undefined as null, and the added fields, for a class or a plain object', () => {
    const expected = {
      lsst_diaSource_x: 1.5,
      lsst_diaSource_ra: 10,
      lsst_diaSource_band: 'g',
      lsst_diaSource_psfFlux: null,
      lsst_diaSource_isDipole: false,
      lsst_diaSource_ünïcode: 'ü',
      ant_mag: 19,
    };
    const fromClass = prefixedFields('lsst_diaSource_', new Source(), { ant_mag: 19 });
    const fromPlain = prefixedFields('lsst_diaSource_', { ...new Source() }, { ant_mag: 19 });
    expect(fromClass).toEqual(expected);
    expect(JSON.stringify(fromPlain)).toBe(JSON.stringify(fromClass));
    // Other added fields, same class: another builder, not the first one's fields.
    expect(prefixedFields('lsst_diaSource_', new Source(), { ant_mjd: 1 })).toEqual({ ...expected, ant_mag: undefined, ant_mjd: 1 });
  });

  it('writes keys in the order the database keeps them in jsonb', async () => {
    const names = ['b', 'a', 'ab', 'B', 'aa', 'ant_time_received', 'lsst_diaSource_ra', 'é', 'z', 'lsst_diaSource_x', 'ant_ra', '_x'];
    const sorted = [...names].sort(jsonbKeyOrder);
    const text = JSON.stringify(Object.fromEntries(names.map((n, i) => [n, i])));
    const { rows } = await sql<{ properties: Record<string, number> }>`SELECT ${text}::jsonb AS properties`.execute(database.db);
    expect(Object.keys(rows[0].properties)).toEqual(sorted);
  });
});

// Test support: what ingestion stored, to compare two runs over the same alerts (one worker and two,
// containers and framed records).
import type { TestDatabase } from '@antares/db';
import { expect } from 'vitest';

/** A database to read what was stored from. */
type Stored = Pick<TestDatabase, 'db'>;

export interface Outcome {
  loci: number;
  alerts: number;
  /** Per locus, keyed by its alerts' ids: its position, properties, newest cutouts and ZTF names. */
  byAlerts: Map<string, { ra: number; dec: number; properties: unknown }>;
  positions: Array<{ ra: number; dec: number }>;
}

export async function outcomeOf(database: Stored): Promise<Outcome> {
  const { db } = database;
  const loci = await db
    .selectFrom('locus')
    .select(['locus_id', 'ra', 'dec', 'properties', 'newest_thumbnail_alert_id', 'ztf_object_ids'])
    .execute();
  const alerts = await db.selectFrom('alert').select(['alert_id', 'locus_id']).execute();
  const idsByLocus = new Map<string, string[]>();
  for (const a of alerts) idsByLocus.set(a.locus_id, [...(idsByLocus.get(a.locus_id) ?? []), a.alert_id]);
  const byAlerts = new Map<string, { ra: number; dec: number; properties: unknown }>();
  for (const l of loci) {
    const { ra, dec, properties, newest_thumbnail_alert_id, ztf_object_ids } = l;
    byAlerts.set((idsByLocus.get(l.locus_id) ?? []).sort().join(','), {
      ra,
      dec,
      properties: { properties, newest_thumbnail_alert_id, ztf_object_ids },
    });
  }
  return { loci: loci.length, alerts: alerts.length, byAlerts, positions: loci.map((l) => ({ ra: l.ra, dec: l.dec })) };
}

/** Asserts that `got` stored what `expected` did: the same loci, with the same alerts, position and properties. */
export async function expectSameOutcome(single: Stored, parallel: Stored): Promise<Outcome> {
  const expected = await outcomeOf(single);
  const got = await outcomeOf(parallel);
  expect(got.loci).toBe(expected.loci);
  expect(got.alerts).toBe(expected.alerts);
  // The same alerts on each locus, and the same position and properties computed from them.
  expect([...got.byAlerts.keys()].sort()).toEqual([...expected.byAlerts.keys()].sort());
  for (const [key, locus] of got.byAlerts) {
    const want = expected.byAlerts.get(key)!;
    expect(locus.ra).toBeCloseTo(want.ra, 9);
    expect(locus.dec).toBeCloseTo(want.dec, 9);
    expect(locus.properties).toEqual(want.properties);
  }
  return got;
}

import { htmId } from '@antares/astro';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestDatabase, type TestDatabase } from '../testing.ts';
import { type CopyTarget, pgCopyTarget, pgliteCopyTarget, prefillArchive, type PrefillResult } from './prefill.ts';

// The benchmark archive must be one the normal repositories read like an ingested one.
let database: TestDatabase;
let target: CopyTarget;
let result: PrefillResult;
const anchor = { ra: 150.25, dec: -12.5 };
const BEFORE = 61000;

beforeAll(async () => {
  database = await createTestDatabase();
  if (database.pglite) target = pgliteCopyTarget(database.pglite);
  else target = await pgCopyTarget(database.url!);
  result = await prefillArchive(database.db, target, { alerts: 2_000, beforeMjd: BEFORE, anchors: [anchor] });
});

afterAll(async () => {
  await target.close();
  await database.close();
});

describe('prefillArchive', () => {
  it('writes exactly the alerts asked for over about a tenth as many loci', async () => {
    expect(result.reused).toBe(false);
    const alerts = await sql<{ n: number }>`SELECT count(*)::int AS n FROM alert`.execute(database.db);
    expect(alerts.rows[0].n).toBe(2_000);
    expect(await database.repos.loci.count()).toBe(result.loci);
    expect(result.loci).toBeGreaterThan(180);
    expect(result.loci).toBeLessThan(220);
    expect(result.bytes).toBeGreaterThan(0);
  });

  it('places the first locus on the anchor, found by position like any ingested locus', async () => {
    const found = await database.repos.loci.findInHtmRanges([[htmId(anchor.ra, anchor.dec), htmId(anchor.ra, anchor.dec)]]);
    expect(found.map((l) => l.locus_id)).toContain('ANT2024pf0000000000');
  });

  it("gives a locus page its alerts, oldest first, within the two years before the first night, matching the locus' properties", async () => {
    const locus = await database.repos.loci.findById('ANT2024pf0000000003');
    expect(locus).toBeDefined();
    const alerts = await database.repos.alerts.listByLocus('ANT2024pf0000000003');
    expect(alerts.length).toBe(locus?.properties.num_alerts);
    const mjds = alerts.map((a) => a.mjd);
    expect(mjds).toEqual([...mjds].sort((a, b) => a - b));
    expect(Math.min(...mjds)).toBeGreaterThanOrEqual(BEFORE - 730);
    expect(Math.max(...mjds)).toBeLessThan(BEFORE);
    const detections = alerts.filter((a) => a.alert_id.startsWith('ztf_candidate:'));
    expect(locus?.properties.num_mag_values).toBe(detections.length);
    expect(locus?.properties.newest_alert_id).toBe(detections[detections.length - 1].alert_id);
    expect(detections[0].properties).toMatchObject({ ztf_object_id: locus?.properties.ztf_object_id, ant_survey: 1 });
    const summaries = await database.repos.alerts.listSummariesByLoci(['ANT2024pf0000000003']);
    expect(summaries.map((s) => s.alert_id)).toEqual(alerts.map((a) => a.alert_id));
    expect(summaries[0].properties).toHaveProperty('ztf_object_id', locus?.properties.ztf_object_id);
  });

  it('keeps the indexes the migrations made, and is reused on a second call', async () => {
    const indexes = await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'alert' ORDER BY 1`.execute(
      database.db,
    );
    expect(indexes.rows.map((r) => r.name)).toEqual(['alert_locus_mjd', 'alert_mjd', 'alert_pkey']);
    // Rebuilt on every monthly partition too, and valid on the parent (an index made "ON ONLY alert" is neither).
    const perPartition = await sql<{ n: number }>`SELECT count(i.indexrelid)::int AS n
      FROM pg_inherits h LEFT JOIN pg_index i ON i.indrelid = h.inhrelid
      WHERE h.inhparent = 'alert'::regclass GROUP BY h.inhrelid`.execute(database.db);
    expect(perPartition.rows.length).toBeGreaterThan(20);
    expect(perPartition.rows.every((r) => r.n === 3)).toBe(true);
    const invalid = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_index
      WHERE indrelid = 'alert'::regclass AND NOT indisvalid`.execute(database.db);
    expect(invalid.rows[0].n).toBe(0);
    const again = await prefillArchive(database.db, target, { alerts: 2_000, beforeMjd: BEFORE });
    expect(again.reused).toBe(true);
    const alerts = await sql<{ n: number }>`SELECT count(*)::int AS n FROM alert`.execute(database.db);
    expect(alerts.rows[0].n).toBe(2_000);
  });
});

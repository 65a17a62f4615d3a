import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestDatabase, type TestDatabase } from './testing.ts';

// After a bulk load, ingestion refreshes the planner statistics of the tables it changed, and only of
// those that changed by a tenth: ANALYZE samples 30,000 rows of a table however little moved, which
// at 1 M loci took seconds after every file the inbox ingested.
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const DAY_MJD = 61_000.5;

async function addLoci(from: number, count: number): Promise<void> {
  await sql`INSERT INTO locus (locus_id, ra, dec, htm16)
    SELECT 'ANT2026stats' || i, 0, 0, 0 FROM generate_series(${from}::int, ${from + count - 1}::int) i`.execute(database.db);
}

async function addAlerts(from: number, count: number): Promise<void> {
  const { repos } = database;
  await repos.alerts.insertMany(
    Array.from({ length: count }, (_, k) => ({
      alert_id: `ztf_candidate:${from + k}`,
      locus_id: `ANT2026stats${from + k}`,
      survey: 'ztf',
      mjd: DAY_MJD,
      properties: { ant_mjd: DAY_MJD, ant_mag: 19 },
      summary: { ant_mag: 19 },
    })),
  );
}

async function plannerRows(table: string): Promise<number> {
  const result = await sql<{ reltuples: number }>`SELECT reltuples::float8 AS reltuples FROM pg_class WHERE relname = ${table}`.execute(
    database.db,
  );
  return Number(result.rows[0].reltuples);
}

describe('Repositories.afterBulkLoad', () => {
  it('analyzes the loci and the alert partitions a load changed by a tenth or more, and leaves the others', async () => {
    const { repos } = database;
    await addLoci(1, 3000);
    await addAlerts(1, 3000);
    const partition = (await repos.alertPartitions.listAttached()).find((p) => p.fromMjd <= DAY_MJD && DAY_MJD < p.toMjd)?.name;
    expect(partition).toBeDefined();
    // The server's autovacuum would analyze them on its own now and then, between a load and the check.
    for (const table of ['locus', partition!])
      await sql`ALTER TABLE ${sql.table(table)} SET (autovacuum_enabled = false)`.execute(database.db);

    // A first load: both tables are new to the planner.
    const first = await repos.afterBulkLoad();
    expect(first).toEqual(expect.arrayContaining(['locus', partition]));
    expect(await plannerRows('locus')).toBe(3000);
    expect(await plannerRows(partition!)).toBe(3000);

    // A few rows more (a page or two of tables of dozens): nothing is sampled again.
    await addLoci(3001, 5);
    await addAlerts(3001, 5);
    expect(await repos.afterBulkLoad()).toEqual([]);
    expect(await plannerRows('locus')).toBe(3000);

    // Half as many again: both are analyzed and the planner counts the new rows.
    await addLoci(3006, 1500);
    await addAlerts(3006, 1500);
    expect((await repos.afterBulkLoad()).sort()).toEqual(['locus', partition].sort());
    expect(await plannerRows('locus')).toBe(4505);
    expect(await plannerRows(partition!)).toBe(4505);
  });
});

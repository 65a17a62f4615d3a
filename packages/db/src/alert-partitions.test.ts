import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { migrate } from './migrate.ts';
import { openDatabase } from './open.ts';
import { AlertPartitionRepository } from './repositories/alert-partitions.ts';
import type { NewAlert } from './repositories/alerts.ts';
import type { JsonObject } from './schema.ts';
import { createTestDatabase, type TestDatabase } from './testing.ts';

// Alert rows partitioned by 30 days of MJD (migration 0017, ADR 0036): rows land in the partition of
// their month, made on first use; old months are archived (detached) and restored.
let database: TestDatabase;

function alertAt(alertId: string, mjd: number, locusId = 'ANT2026parts'): NewAlert {
  return { alert_id: alertId, locus_id: locusId, survey: 'ztf', mjd, properties: { ant_mag: 19, ant_mjd: mjd }, summary: { ant_mag: 19 } };
}

async function partitionOfEachAlert(): Promise<Record<string, string>> {
  const rows = await sql<{ alert_id: string; partition: string }>`
    SELECT alert_id, tableoid::regclass::text AS partition FROM alert ORDER BY alert_id`.execute(database.db);
  return Object.fromEntries(rows.rows.map((r) => [r.alert_id, r.partition]));
}

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

describe('migration 0017_alert_partitions', () => {
  it('moves the alerts of a database made before it into monthly partitions, every column as it was', async () => {
    const old = await openDatabase({});
    try {
      await migrate(old.db, { until: '0016_backtests' });
      await sql`INSERT INTO alert (alert_id, locus_id, survey, mjd, properties, summary, grav_wave_events) VALUES
        ('ztf_candidate:1', 'ANT2020a', 'ztf', 60000.5, '{"ant_mag": 18.5}', '{"ant_mag": 18.5}', '[]'),
        ('ztf_candidate:2', 'ANT2020a', 'ztf', 60029.99, '{"ant_mag": 18.6}', NULL, '[]'),
        ('lsst:3', 'ANT2020b', 'lsst', 60030, '{"ant_survey": 4}', '{"ant_mag": 22}', '[{"gracedb_id": "S1"}]')`.execute(old.db);
      const before = await sql<JsonObject>`SELECT * FROM alert ORDER BY alert_id`.execute(old.db);

      expect(await migrate(old.db)).toContain('0017_alert_partitions');
      const after = await sql<JsonObject>`SELECT * FROM alert ORDER BY alert_id`.execute(old.db);
      expect(after.rows).toEqual(before.rows);
      const partitions = await sql<{ alert_id: string; partition: string }>`
        SELECT alert_id, tableoid::regclass::text AS partition FROM alert ORDER BY alert_id`.execute(old.db);
      expect(partitions.rows.map((r) => r.partition)).toEqual(['alert_p60030', 'alert_p60000', 'alert_p60000']);
      const leftover = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE 'alert_unpartitioned%'`.execute(
        old.db,
      );
      expect(leftover.rows[0].n).toBe(0);
    } finally {
      await old.close();
    }
  });
});

describe('migration 0021_alert_properties_json', () => {
  it('keeps alert properties as json in the table, its partitions and the archived ones, with their values and compression', async () => {
    const old = await openDatabase({});
    try {
      await migrate(old.db, { until: '0020_alert_partitions_ensure_race' });
      await sql`SELECT alert_partitions_ensure(ARRAY[2000, 2001]::bigint[])`.execute(old.db);
      await sql`INSERT INTO alert (alert_id, locus_id, survey, mjd, properties, summary) VALUES
        ('lsst:170141183460469231', 'ANT2026j', 'lsst', 60000.5,
          '{"lsst_diaSource_diaSourceId": 170141183460469231, "lsst_diaSource_psfFlux": 1.5e-7, "ant_passband": "g", "x": null}', NULL),
        ('ztf_candidate:2', 'ANT2026j', 'ztf', 60031, '{"ant_mag": 18.6, "ant_ra": 10.5}', '{"ant_mag": 18.6}')`.execute(old.db);
      const before = await sql<JsonObject>`SELECT * FROM alert ORDER BY alert_id`.execute(old.db);
      const compressionBefore = await propertiesColumns(old.db, 'alert');
      await new AlertPartitionRepository(old.db).archiveBefore(60030);

      expect(await migrate(old.db)).toContain('0021_alert_properties_json');
      const columns = await propertiesColumns(old.db, 'alert%');
      expect(columns.map((c) => [c.relname, c.type])).toEqual([
        ['alert', 'json'],
        ['alert_archive_p60000', 'json'],
        ['alert_p60030', 'json'],
      ]);
      for (const c of columns) expect(c.attcompression).toBe(compressionBefore[0].attcompression);
      await new AlertPartitionRepository(old.db).restore('alert_archive_p60000');
      const after = await sql<JsonObject>`SELECT * FROM alert ORDER BY alert_id`.execute(old.db);
      expect(after.rows).toEqual(before.rows);
    } finally {
      await old.close();
    }
  });
});

async function propertiesColumns(db: TestDatabase['db'], tables: string) {
  const rows = await sql<{ relname: string; type: string; attcompression: string }>`
    SELECT c.relname, format_type(a.atttypid, a.atttypmod) AS type, a.attcompression FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
    WHERE a.attname = 'properties' AND c.relkind IN ('r', 'p') AND c.relname LIKE ${tables} ORDER BY c.relname`.execute(db);
  return rows.rows;
}

describe('alert partitions', () => {
  it('stores each alert in the partition of its 30-day block, making the partition on first use', async () => {
    expect(await database.repos.alertPartitions.listAttached()).toEqual([]);
    const stored = await database.repos.alerts.insertMany([
      alertAt('a:1', 61000.2),
      alertAt('a:2', 61031),
      alertAt('a:3', 61029.999),
      alertAt('a:4', 61100),
    ]);
    expect(stored).toBe(4);
    expect(await partitionOfEachAlert()).toEqual({
      'a:1': 'alert_p60990',
      'a:2': 'alert_p61020',
      'a:3': 'alert_p61020',
      'a:4': 'alert_p61080',
    });
    const attached = await database.repos.alertPartitions.listAttached();
    expect(attached.map((p) => [p.name, p.fromMjd, p.toMjd])).toEqual([
      ['alert_p60990', 60990, 61020],
      ['alert_p61020', 61020, 61050],
      ['alert_p61080', 61080, 61110],
    ]);
  });

  it('ignores an alert stored already, and finds stored ones by id and MJD in their month only', async () => {
    expect(await database.repos.alerts.insertMany([alertAt('a:2', 61031), alertAt('a:5', 61032)])).toBe(1);
    const lookups = [
      { alert_id: 'a:2', mjd: 61031 },
      { alert_id: 'a:5', mjd: 61032 },
      { alert_id: 'a:missing', mjd: 61032 },
      { alert_id: 'a:4', mjd: 61031 },
    ];
    expect(await database.repos.alerts.findExisting(lookups)).toEqual(
      new Map([
        ['a:2', 'ANT2026parts'],
        ['a:5', 'ANT2026parts'],
      ]),
    );
  });

  it('archives the months before a date: their alerts leave the locus, a late alert of such a month still lands', async () => {
    // The archive epoch tells ingest processes that the alerts of their kept loci changed (migration 0019).
    const epoch = await database.repos.alertPartitions.archiveEpoch();
    const archived = await database.repos.alertPartitions.archiveBefore(61050);
    expect(await database.repos.alertPartitions.archiveEpoch()).toBe(epoch + 1);
    expect(await database.repos.alertPartitions.archiveBefore(61050)).toEqual([]);
    expect(await database.repos.alertPartitions.archiveEpoch()).toBe(epoch + 1);
    expect(archived.map((p) => p.name)).toEqual(['alert_archive_p60990', 'alert_archive_p61020']);
    expect((await database.repos.alerts.listByLocus('ANT2026parts')).map((a) => a.alert_id)).toEqual(['a:4']);
    expect((await database.repos.alertPartitions.listArchived()).map((p) => p.name)).toEqual([
      'alert_archive_p60990',
      'alert_archive_p61020',
    ]);
    const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM alert_archive_p61020`.execute(database.db);
    expect(rows.rows[0].n).toBe(3);

    expect(await database.repos.alerts.insertMany([alertAt('late:1', 61000.5, 'ANT2026late')])).toBe(1);
    expect((await partitionOfEachAlert())['late:1']).toBe('alert_p60990');
  });

  it('restores an archived month, and refuses one whose month has a new partition, saying what to do', async () => {
    await expect(database.repos.alertPartitions.restore('alert_archive_p60990')).rejects.toThrow(
      'alert_p60990 holds alerts that arrived after alert_archive_p60990 was archived',
    );
    await expect(database.repos.alertPartitions.restore('alert_archive_p1')).rejects.toThrow(
      'no archived alert partition named alert_archive_p1',
    );

    const epoch = await database.repos.alertPartitions.archiveEpoch();
    const restored = await database.repos.alertPartitions.restore('alert_archive_p61020');
    expect(restored.name).toBe('alert_p61020');
    expect(await database.repos.alertPartitions.archiveEpoch()).toBe(epoch + 1);
    expect((await database.repos.alerts.listByLocus('ANT2026parts')).map((a) => a.alert_id)).toEqual(['a:3', 'a:2', 'a:5', 'a:4']);
    expect((await database.repos.alertPartitions.listArchived()).map((p) => p.name)).toEqual(['alert_archive_p60990']);
  });

  it('gives every partition the parent table indexes and the compression of alert properties', async () => {
    const indexes = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_indexes WHERE tablename = 'alert_p61080'`.execute(
      database.db,
    );
    expect(indexes.rows[0].n).toBe(3);
    const compression = await sql<{ relname: string; attcompression: string }>`
      SELECT c.relname, a.attcompression FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE a.attname = 'properties' AND c.relname IN ('alert', 'alert_p61080') ORDER BY c.relname`.execute(database.db);
    expect(compression.rows[1].attcompression).toBe(compression.rows[0].attcompression);
  });

  it('turns an archived partition restored from a dump made before it into json as it attaches it', async () => {
    await sql`CREATE TABLE alert_archive_p59970 (LIKE alert INCLUDING DEFAULTS)`.execute(database.db);
    await sql`ALTER TABLE alert_archive_p59970 ALTER COLUMN properties TYPE jsonb USING properties::jsonb`.execute(database.db);
    await sql`INSERT INTO alert_archive_p59970 (alert_id, locus_id, survey, mjd, properties)
      VALUES ('old:1', 'ANT2026dump', 'ztf', 59980, '{"ant_mag": 19.5}')`.execute(database.db);

    await database.repos.alertPartitions.restore('alert_archive_p59970');
    expect((await propertiesColumns(database.db, 'alert_p59970')).map((c) => c.type)).toEqual(['json']);
    expect((await database.repos.alerts.listByLocus('ANT2026dump')).map((a) => a.properties)).toEqual([{ ant_mag: 19.5 }]);
  });
});

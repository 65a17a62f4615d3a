import { type Kysely, sql } from 'kysely';

import type { Database } from '../schema.ts';

/** Days of MJD per alert partition (migration 0017): a month, so a year of Rubin history spans 13. */
export const PARTITION_DAYS = 30;

/** Partitions of the alert table are named by the first MJD they hold; archived ones keep it. */
const ATTACHED_PREFIX = 'alert_p';
const ARCHIVED_PREFIX = 'alert_archive_p';

export interface AlertPartition {
  name: string;
  /** The MJD range [fromMjd, toMjd) it holds. */
  fromMjd: number;
  toMjd: number;
  /** The planner's row estimate (exact after ANALYZE); -1 when never analyzed. */
  estimatedRows: number;
  bytes: number;
}

export class AlertPartitionError extends Error {}

/** What both listings read of a partition's table (pg_class `c`). */
type PartitionRow = { name: string; rows: string; bytes: string };
const PARTITION_COLUMNS = sql`c.relname AS name, c.reltuples::bigint::text AS rows, pg_total_relation_size(c.oid)::text AS bytes`;

/** The 30-day block of an MJD; undefined for one no partition can hold (not a finite, sane time). */
function blockOf(mjd: number): number | undefined {
  const block = Math.floor(mjd / PARTITION_DAYS);
  return Number.isSafeInteger(block) && Math.abs(block) < 1e9 ? block : undefined;
}

/**
 * Makes the partitions these MJDs fall in, where missing (one statement; see alert_partitions_ensure).
 * Every insert into alert calls it first: a row without a partition would fail the whole batch.
 */
export async function ensureAlertPartitions(db: Kysely<Database>, mjds: Iterable<number>): Promise<void> {
  const blocks = new Set<number>();
  for (const mjd of mjds) {
    const block = blockOf(mjd);
    if (block !== undefined) blocks.add(block);
  }
  if (blocks.size === 0) return;
  await sql`SELECT alert_partitions_ensure(${[...blocks]}::bigint[])`.execute(db);
}

/** Every MJD block start from `fromMjd` to `toMjd`, for ensureAlertPartitions over a whole span. */
export function spanMjds(fromMjd: number, toMjd: number): number[] {
  const mjds: number[] = [];
  for (let mjd = fromMjd; mjd < toMjd; mjd += PARTITION_DAYS) mjds.push(mjd);
  mjds.push(toMjd);
  return mjds;
}

/**
 * The time partitions of the alert table: listed, archived (detached from the table, kept as a table of
 * their own to dump and drop) and restored. Loci keep the properties computed while the alerts were
 * there; an archived month's alerts leave the locus pages and the API until restored.
 */
export class AlertPartitionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The partitions in the table now, oldest first. */
  async listAttached(): Promise<AlertPartition[]> {
    const rows = await sql<PartitionRow>`SELECT ${PARTITION_COLUMNS}
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'alert'::regclass`.execute(this.db);
    return sortByTime(rows.rows.map((r) => partitionOf(r, ATTACHED_PREFIX)));
  }

  /** Archived partitions still in the database (to be dumped and dropped, or restored). */
  async listArchived(): Promise<AlertPartition[]> {
    const rows = await sql<PartitionRow>`SELECT ${PARTITION_COLUMNS}
      FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND starts_with(c.relname, ${ARCHIVED_PREFIX})`.execute(
      this.db,
    );
    return sortByTime(rows.rows.map((r) => partitionOf(r, ARCHIVED_PREFIX)));
  }

  /**
   * Detaches every partition that ends on or before `beforeMjd` and renames it alert_archive_p<MJD>, in
   * one transaction: the alert table then no longer holds those months. A late alert of an archived
   * month gets a new, empty partition. Returns the archived partitions.
   */
  async archiveBefore(beforeMjd: number): Promise<AlertPartition[]> {
    const old = (await this.listAttached()).filter((p) => p.toMjd <= beforeMjd);
    if (old.length === 0) return [];
    await this.db.transaction().execute(async (trx) => {
      for (const partition of old) {
        await sql`ALTER TABLE alert DETACH PARTITION ${sql.table(partition.name)}`.execute(trx);
        await sql`ALTER TABLE ${sql.table(partition.name)} RENAME TO ${sql.table(archivedName(partition.fromMjd))}`.execute(trx);
      }
      await bumpArchiveEpoch(trx);
    });
    return old.map((p) => ({ ...p, name: archivedName(p.fromMjd) }));
  }

  /** Attaches an archived partition again (its month must not have a new partition meanwhile). */
  async restore(name: string): Promise<AlertPartition> {
    const archived = (await this.listArchived()).find((p) => p.name === name);
    if (!archived) throw new AlertPartitionError(`no archived alert partition named ${name}`);
    const attachedName = `${ATTACHED_PREFIX}${archived.fromMjd}`;
    if ((await this.listAttached()).some((p) => p.name === attachedName)) {
      throw new AlertPartitionError(
        `${attachedName} holds alerts that arrived after ${name} was archived: move its rows into ${name} and drop it first`,
      );
    }
    await this.db.transaction().execute(async (trx) => {
      // A partition archived before migration 0021 (restored from its dump) still has jsonb properties.
      await sql`DO $$ BEGIN
        IF (SELECT atttypid FROM pg_attribute WHERE attrelid = ${sql.lit(name)}::regclass AND attname = 'properties') = 'jsonb'::regtype THEN
          ALTER TABLE ${sql.table(name)} ALTER COLUMN properties TYPE json USING properties::json;
        END IF;
      END $$`.execute(trx);
      await sql`ALTER TABLE ${sql.table(name)} RENAME TO ${sql.table(attachedName)}`.execute(trx);
      await sql`ALTER TABLE alert ATTACH PARTITION ${sql.table(attachedName)}
        FOR VALUES FROM (${sql.lit(archived.fromMjd)}) TO (${sql.lit(archived.toMjd)})`.execute(trx);
      await bumpArchiveEpoch(trx);
    });
    return { ...archived, name: attachedName };
  }

  /** Goes up by one at each archive or restore: loci's alerts kept in memory by ingest processes are then stale (migration 0019). */
  async archiveEpoch(): Promise<number> {
    const row = await this.db.selectFrom('alert_archive_epoch').select('epoch').executeTakeFirstOrThrow();
    return row.epoch;
  }
}

function bumpArchiveEpoch(db: Kysely<Database>): Promise<unknown> {
  return db
    .updateTable('alert_archive_epoch')
    .set((eb) => ({ epoch: eb('epoch', '+', 1) }))
    .execute();
}

function archivedName(fromMjd: number): string {
  return `${ARCHIVED_PREFIX}${fromMjd}`;
}

function partitionOf(row: PartitionRow, prefix: string): AlertPartition {
  const fromMjd = Number(row.name.slice(prefix.length));
  return { name: row.name, fromMjd, toMjd: fromMjd + PARTITION_DAYS, estimatedRows: Number(row.rows), bytes: Number(row.bytes) };
}

function sortByTime(partitions: AlertPartition[]): AlertPartition[] {
  return partitions.filter((p) => Number.isFinite(p.fromMjd)).sort((a, b) => a.fromMjd - b.fromMjd);
}

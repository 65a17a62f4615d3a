import { type Kysely, type Selectable, sql } from 'kysely';

import { BINARY_HEADER, CopyChunks, copyUnlessStored } from '../copy-in.ts';
import type { AlertTable, Database, JsonObject } from '../schema.ts';
import { ensureAlertPartitions, spanMjds } from './alert-partitions.ts';

export type AlertRow = Omit<Selectable<AlertTable>, 'summary'>;

export interface NewAlert {
  alert_id: string;
  locus_id: string;
  survey: string;
  mjd: number;
  /**
   * The properties, their JSON text, or a function that writes it: called as the row is sent, so a
   * large batch's text is written while the server parses the rows before it (the pipeline's history rows).
   */
  properties: JsonObject | string | (() => string);
  /**
   * The few properties locus summaries are computed from (listSummariesByLoci), or a function that makes
   * them, called as the row is sent (the caller memoises it if it needs them again).
   */
  summary: JsonObject | (() => JsonObject);
}

/** An alert's columns, with its GW associations from alert_grav_wave (migration 0009). */
const ALERT_COLUMNS = ['alert.alert_id', 'alert.locus_id', 'alert.survey', 'alert.mjd', 'alert.properties', 'alert.processed_at'] as const;
const GRAV_WAVE_EVENTS = sql<JsonObject[]>`(SELECT coalesce(jsonb_agg(jsonb_build_object('gracedb_id', g.gracedb_id,
  'contour_level', g.contour_level, 'contour_area', g.contour_area) ORDER BY g.gracedb_id), '[]'::jsonb)
  FROM alert_grav_wave g WHERE g.alert_id = alert.alert_id)`.as('grav_wave_events');

/** Below this many rows COPY's extra round trips (client lookup, savepoint) cost more than they save. */
const COPY_MIN_ROWS = 200;

function propertiesText(alert: NewAlert): string {
  const { properties } = alert;
  return typeof properties === 'string' ? properties : typeof properties === 'function' ? properties() : JSON.stringify(properties);
}

/** An alert's summary fields, made now if they were given as a function. */
export function alertSummary(alert: NewAlert): JsonObject {
  return typeof alert.summary === 'function' ? alert.summary() : alert.summary;
}

function summaryText(alert: NewAlert): string {
  return JSON.stringify(alertSummary(alert));
}

/**
 * The alerts in COPY's binary format, in chunks of about 1 MB, made only as the connection takes them.
 * In the text format the server scanned every byte of every row for line ends and escapes (a Rubin
 * row's properties are about 4 KB): that was a fifth of its work in the COPY. Binary fields are sent
 * with their length; json is its text, jsonb a version byte and its text, float8 eight bytes.
 */
function* copyRows(alerts: NewAlert[]): Generator<Buffer> {
  const chunks = new CopyChunks();
  chunks.bytes(BINARY_HEADER);
  for (const a of alerts) {
    chunks.int16(ALERT_COPY_FIELDS);
    chunks.field(a.alert_id);
    chunks.field(a.locus_id);
    chunks.field(a.survey);
    chunks.float8(a.mjd);
    chunks.field(propertiesText(a));
    chunks.jsonb(summaryText(a));
    if (chunks.full) yield chunks.take();
  }
  chunks.int16(-1); // the end of data
  yield chunks.take();
}

/** alert_id, locus_id, survey, mjd, properties, summary: the columns copyRows writes, in its COPY's order. */
const ALERT_COPY_FIELDS = 6;

export class AlertRepository {
  /** `copyOnServer`: a PostgreSQL server, where large inserts in a transaction go in with COPY. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly copyOnServer = false,
  ) {}

  async findById(alertId: string): Promise<AlertRow | undefined> {
    return this.db
      .selectFrom('alert')
      .select([...ALERT_COLUMNS, GRAV_WAVE_EVENTS])
      .where('alert_id', '=', alertId)
      .executeTakeFirst();
  }

  /** All alerts of a locus, oldest first. */
  async listByLocus(locusId: string): Promise<AlertRow[]> {
    return this.db
      .selectFrom('alert')
      .select([...ALERT_COLUMNS, GRAV_WAVE_EVENTS])
      .where('locus_id', '=', locusId)
      .orderBy('mjd', 'asc')
      .orderBy('alert_id', 'asc')
      .execute();
  }

  /** The alerts of many loci with all their properties, each locus' oldest first (Level 2 input). */
  async listByLoci(locusIds: string[]): Promise<AlertRow[]> {
    if (locusIds.length === 0) return [];
    return this.db
      .selectFrom('alert')
      .select([...ALERT_COLUMNS, GRAV_WAVE_EVENTS])
      .where('locus_id', 'in', locusIds)
      .orderBy('locus_id')
      .orderBy('mjd', 'asc')
      .orderBy('alert_id', 'asc')
      .execute();
  }

  /**
   * The alerts of many loci, oldest first, without their properties (Level 2 input): the filter
   * workers hold most alerts from earlier updates, so only the few they lack are read, with
   * propertyTextByIds. Reading every alert's properties cost more than anything else in Level 2.
   * Alerts of the same MJD are in the byte order of their ids (`COLLATE "C"`, whatever the database's
   * collation), the order JavaScript's string comparison gives: ingestion keeps lists in that order.
   */
  async listForFiltersByLoci(locusIds: string[]): Promise<Array<Omit<AlertRow, 'properties' | 'processed_at'>>> {
    if (locusIds.length === 0) return [];
    const alerts = await this.db
      .selectFrom('alert')
      .select(['alert.alert_id', 'alert.locus_id', 'alert.survey', 'alert.mjd'])
      .where('locus_id', 'in', locusIds)
      .orderBy('locus_id')
      .orderBy('mjd', 'asc')
      .orderBy(sql`alert_id COLLATE "C"`)
      .execute();
    const byAlert = await this.gravWaveEventsByLoci(locusIds);
    // Set on the rows themselves: a copy of each of tens of thousands of rows per run showed in profiles.
    const rows = alerts as Array<(typeof alerts)[number] & { grav_wave_events: JsonObject[] }>;
    for (const row of rows) row.grav_wave_events = byAlert.get(row.alert_id) ?? [];
    return rows;
  }

  /**
   * The GW associations of the alerts of these loci, by alert id (alerts without any are not in the
   * map), in one read of alert_grav_wave by its locus index, not a subquery per alert: Level 2 reads
   * every alert of each locus it runs (a year of a Rubin object's), and nearly none has an association.
   */
  async gravWaveEventsByLoci(locusIds: string[]): Promise<Map<string, JsonObject[]>> {
    const byAlert = new Map<string, JsonObject[]>();
    if (locusIds.length === 0) return byAlert;
    const associations = await sql<{ alert_id: string; gracedb_id: string; contour_level: number; contour_area: number }>`
      SELECT alert_id, gracedb_id, contour_level, contour_area FROM alert_grav_wave
      WHERE locus_id = ANY(${locusIds}::text[]) ORDER BY alert_id, gracedb_id`.execute(this.db);
    for (const { alert_id, gracedb_id, contour_level, contour_area } of associations.rows) {
      const list = byAlert.get(alert_id) ?? [];
      list.push({ gracedb_id, contour_level, contour_area });
      byAlert.set(alert_id, list);
    }
    return byAlert;
  }

  /**
   * Alerts' properties as JSON text, by alert id: filters get them as they are (the sandbox decodes
   * them), so Node spends nothing on parsing and re-encoding them.
   */
  async propertyTextByIds(alertIds: string[]): Promise<Map<string, string>> {
    if (alertIds.length === 0) return new Map();
    const result = await sql<{ alert_id: string; properties_json: string }>`
      SELECT alert_id, properties::text AS properties_json FROM alert WHERE alert_id = ANY(${alertIds}::text[])`.execute(this.db);
    return new Map(result.rows.map((r) => [r.alert_id, r.properties_json]));
  }

  /** The alerts of many loci, oldest first, with their summary fields only (see NewAlert.summary). */
  async listSummariesByLoci(locusIds: string[]): Promise<Array<Pick<AlertRow, 'alert_id' | 'locus_id' | 'survey' | 'mjd' | 'properties'>>> {
    if (locusIds.length === 0) return [];
    const result = await sql<Pick<AlertRow, 'alert_id' | 'locus_id' | 'survey' | 'mjd' | 'properties'>>`
      SELECT alert_id, locus_id, survey, mjd, summary AS properties FROM alert
      WHERE locus_id = ANY(${locusIds}::text[]) ORDER BY locus_id, mjd, alert_id`.execute(this.db);
    return result.rows;
  }

  /** Properties written by Level 2 filters onto alerts, merged into what the alerts have. */
  async mergeProperties(updates: Array<{ alert_id: string; properties: JsonObject }>): Promise<void> {
    if (updates.length === 0) return;
    // Stored as json (migration 0021): merged as jsonb, then written back as its text.
    await sql`UPDATE alert AS a SET properties = (a.properties::jsonb || u.properties)::json
      FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS u(alert_id text, properties jsonb)
      WHERE a.alert_id = u.alert_id`.execute(this.db);
  }

  /**
   * Which of these alerts are stored already, and on which locus. Each is looked up by id within a
   * millionth of a day of its MJD, one row at a time (a LATERAL with LIMIT is never turned into a hash
   * join), so only the partition of its month is probed: by id alone every batch probed every monthly
   * partition's index for every id, 1-3 s a batch at 10 M rows over 25 months.
   */
  async findExisting(rows: Array<{ alert_id: string; mjd: number }>): Promise<Map<string, string>> {
    if (rows.length === 0) return new Map();
    const found = await sql<{ alert_id: string; locus_id: string }>`
      SELECT x.alert_id, a.locus_id
      FROM unnest(${rows.map((r) => r.alert_id)}::text[], ${rows.map((r) => r.mjd)}::float8[]) AS x(alert_id, mjd)
      CROSS JOIN LATERAL (SELECT locus_id FROM alert
        WHERE alert.alert_id = x.alert_id AND alert.mjd BETWEEN x.mjd - 1e-6 AND x.mjd + 1e-6 LIMIT 1) AS a`.execute(this.db);
    return new Map(found.rows.map((r) => [r.alert_id, r.locus_id]));
  }

  /**
   * Makes the partitions of these MJDs' months where missing. Ingestion calls it on its own, before a
   * batch's transaction: a partition made inside that transaction would keep the whole alert table
   * locked (CREATE TABLE ... PARTITION OF) until the batch commits, and every other worker's batch,
   * whatever part of the sky it is in, would wait for it. insertMany still makes any that are missing.
   */
  async ensurePartitions(mjds: Iterable<number>): Promise<void> {
    await ensureAlertPartitions(this.db, mjds);
  }

  /** Inserts alerts, ignoring ids already stored (re-ingestion is idempotent); returns the count inserted. */
  async insertMany(alerts: NewAlert[]): Promise<number> {
    if (alerts.length === 0) return 0;
    await ensureAlertPartitions(
      this.db,
      alerts.map((a) => a.mjd),
    );
    if (this.copyOnServer && this.db.isTransaction && alerts.length >= COPY_MIN_ROWS) {
      const copied = await this.copyNew(alerts);
      if (copied !== undefined) return copied;
    }
    // One JSON parameter instead of five arrays: array literals are slow to escape, JSON is fast to parse.
    const rows = alerts.map(
      (a) =>
        `{"alert_id":${JSON.stringify(a.alert_id)},"locus_id":${JSON.stringify(a.locus_id)},"survey":${JSON.stringify(a.survey)},` +
        `"mjd":${JSON.stringify(a.mjd)},"properties":${propertiesText(a)},"summary":${summaryText(a)}}`,
    );
    const result = await sql`INSERT INTO alert (alert_id, locus_id, survey, mjd, properties, summary)
      SELECT alert_id, locus_id, survey, mjd, properties, summary
      FROM jsonb_to_recordset(${`[${rows.join(',')}]`}::jsonb)
        AS x(alert_id text, locus_id text, survey text, mjd float8, properties jsonb, summary jsonb)
      ON CONFLICT (alert_id, mjd) DO NOTHING`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * On a PostgreSQL server, inside a transaction: the rows go in with COPY, streamed as they are
   * written, so the server parses one batch while the next is written (ADR 0037). INSERT from one JSON
   * document parsed every property twice, and held a batch's whole text (up to 100 MB) in memory.
   * COPY has no ON CONFLICT: if a row is stored already (another worker stored it since the batch
   * looked), nothing is copied (savepoint) and undefined tells insertMany to INSERT instead.
   */
  private copyNew(alerts: NewAlert[]): Promise<number | undefined> {
    return copyUnlessStored(
      this.db,
      'COPY alert (alert_id, locus_id, survey, mjd, properties, summary) FROM STDIN WITH (FORMAT binary)',
      copyRows(alerts),
    );
  }

  /**
   * Benchmarks' fixture: `count` detections spread uniformly over the sphere and over `days` days from
   * `fromMjd`, ten to a locus (loci created too), made by the database itself.
   */
  async insertSynthetic(count: number, fromMjd: number, days: number): Promise<void> {
    await ensureAlertPartitions(this.db, spanMjds(fromMjd, fromMjd + days));
    await sql`INSERT INTO locus (locus_id, ra, dec, htm16) SELECT 'BENCH' || i, 0, 0, 0 FROM generate_series(1, ${Math.ceil(count / 10)}) i
      ON CONFLICT DO NOTHING`.execute(this.db);
    await sql`INSERT INTO alert (alert_id, locus_id, survey, mjd, properties)
      SELECT 'bench:' || i, 'BENCH' || (1 + i / 10), 'ztf', ${fromMjd} + ${days} * random(),
        jsonb_build_object('ant_ra', 360 * random(), 'ant_dec', degrees(asin(2 * random() - 1)), 'ant_mag', 19)
      FROM generate_series(0, ${count - 1}) i`.execute(this.db);
    await sql`ANALYZE alert`.execute(this.db);
  }
}

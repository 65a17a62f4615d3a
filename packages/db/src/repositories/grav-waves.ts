import { type Kysely, type Selectable, sql } from 'kysely';

import type { Database, GravWaveNoticeTable } from '../schema.ts';

export type GravWaveNoticeRow = Omit<Selectable<GravWaveNoticeTable>, 'created_at'>;

export interface GravWaveEventRow {
  gracedb_id: string;
  event_datetime: Date | null;
  retracted: boolean;
  notice: GravWaveNoticeRow;
  loci_count: number;
}

export type NewGravWaveNotice = Omit<GravWaveNoticeRow, 'notice_id' | 'version_id'>;

/** An association of an alert with an event (alert.grav_wave_events items). */
export interface GravWaveAssociation {
  gracedb_id: string;
  contour_level: number;
  contour_area: number;
}

const NOTICE_COLUMNS = [
  'notice_id',
  'gracedb_id',
  'notice_type',
  'notice_datetime',
  'event_datetime',
  'false_alarm_rate',
  'skymap_base64',
  'area50',
  'area90',
  'external_coinc',
  'full_notice',
  'version_id',
] as const;

export class GravWaveRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Stores a notice as the next version of its superevent and makes it the event's current one (unless
   * a later notice is already there). The same notice again changes nothing: returns undefined.
   */
  async addNotice(notice: NewGravWaveNotice): Promise<GravWaveNoticeRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${notice.gracedb_id}))`.execute(trx);
      const exists = await trx
        .selectFrom('grav_wave_notice')
        .select('notice_id')
        .where('gracedb_id', '=', notice.gracedb_id)
        .where('notice_datetime', '=', notice.notice_datetime)
        .executeTakeFirst();
      if (exists) return undefined;
      const count = await trx
        .selectFrom('grav_wave_notice')
        .where('gracedb_id', '=', notice.gracedb_id)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const row = await trx
        .insertInto('grav_wave_notice')
        .values({
          ...notice,
          version_id: Number(count.n) + 1,
          external_coinc:
            notice.external_coinc === null || notice.external_coinc === undefined ? null : JSON.stringify(notice.external_coinc),
          full_notice: JSON.stringify(notice.full_notice),
        })
        .returning(NOTICE_COLUMNS)
        .executeTakeFirstOrThrow();
      const latest = await trx
        .selectFrom('grav_wave_notice')
        .select(['notice_id', 'notice_type', 'event_datetime'])
        .where('gracedb_id', '=', notice.gracedb_id)
        .orderBy('notice_datetime', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      const retracted = latest.notice_type === 'RETRACTION';
      const eventTime = retracted ? await this.eventTimeOf(trx, notice.gracedb_id) : latest.event_datetime;
      await trx
        .insertInto('grav_wave_event')
        .values({ gracedb_id: notice.gracedb_id, latest_notice_id: latest.notice_id, event_datetime: eventTime, retracted })
        .onConflict((oc) =>
          oc
            .column('gracedb_id')
            .doUpdateSet({ latest_notice_id: latest.notice_id, event_datetime: eventTime, retracted, updated_at: sql`now()` }),
        )
        .execute();
      return row as GravWaveNoticeRow;
    });
  }

  private async eventTimeOf(trx: Kysely<Database>, gracedbId: string): Promise<Date | null> {
    const row = await trx
      .selectFrom('grav_wave_notice')
      .select('event_datetime')
      .where('gracedb_id', '=', gracedbId)
      .where('event_datetime', 'is not', null)
      .orderBy('notice_datetime', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.event_datetime ?? null;
  }

  async latestNotice(gracedbId: string): Promise<GravWaveNoticeRow | undefined> {
    return this.db
      .selectFrom('grav_wave_notice')
      .select(NOTICE_COLUMNS)
      .where('gracedb_id', '=', gracedbId)
      .orderBy('notice_datetime', 'desc')
      .limit(1)
      .executeTakeFirst() as Promise<GravWaveNoticeRow | undefined>;
  }

  async notice(gracedbId: string, noticeDatetime: Date): Promise<GravWaveNoticeRow | undefined> {
    return this.db
      .selectFrom('grav_wave_notice')
      .select(NOTICE_COLUMNS)
      .where('gracedb_id', '=', gracedbId)
      .where('notice_datetime', '=', noticeDatetime)
      .executeTakeFirst() as Promise<GravWaveNoticeRow | undefined>;
  }

  /** The latest notice whose sky map can place alerts, of every event that is not retracted. */
  async activeNotices(): Promise<GravWaveNoticeRow[]> {
    const rows = await this.db
      .selectFrom('grav_wave_notice as n')
      .innerJoin('grav_wave_event as e', 'e.gracedb_id', 'n.gracedb_id')
      .select(NOTICE_COLUMNS.map((c) => `n.${c}` as const))
      .where('e.retracted', '=', false)
      .where('n.skymap_base64', 'is not', null)
      .where(
        'n.notice_id',
        '=',
        sql<number>`(SELECT max(m.notice_id) FROM grav_wave_notice m WHERE m.gracedb_id = n.gracedb_id AND m.skymap_base64 IS NOT NULL)`,
      )
      .execute();
    return rows as GravWaveNoticeRow[];
  }

  /** Changes when any event gets a notice or is retracted. */
  async version(): Promise<string> {
    const row = await sql<{
      v: string | null;
    }>`SELECT string_agg(latest_notice_id || ':' || retracted, ',' ORDER BY gracedb_id) AS v FROM grav_wave_event`.execute(this.db);
    return row.rows[0].v ?? '';
  }

  async listEvents(options: { limit: number; offset: number; ids?: string[] }): Promise<{ rows: GravWaveEventRow[]; count: number }> {
    let query = this.db
      .selectFrom('grav_wave_event as e')
      .innerJoin('grav_wave_notice as n', 'n.notice_id', 'e.latest_notice_id')
      .select(['e.gracedb_id', 'e.event_datetime', 'e.retracted', ...NOTICE_COLUMNS.map((c) => `n.${c} as notice_${c}` as const)])
      .select(sql<number>`(SELECT count(*) FROM locus l WHERE l.grav_wave_events @> ARRAY[e.gracedb_id])::int`.as('loci_count'));
    if (options.ids) query = query.where('e.gracedb_id', 'in', options.ids.length ? options.ids : ['']);
    const rows = await query
      .orderBy('e.event_datetime', 'desc')
      .orderBy('e.gracedb_id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const total = await this.db
      .selectFrom('grav_wave_event')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return {
      count: Number(total.n),
      rows: rows.map((r) => {
        const record = r as unknown as Record<string, unknown>;
        const notice = Object.fromEntries(NOTICE_COLUMNS.map((c) => [c, record[`notice_${c}`]])) as unknown as GravWaveNoticeRow;
        return { gracedb_id: r.gracedb_id, event_datetime: r.event_datetime, retracted: r.retracted, notice, loci_count: r.loci_count };
      }),
    };
  }

  /** Detections observed in a time window (MJD), with positions: re-evaluating an event's associations. */
  async detectionsBetween(
    fromMjd: number,
    toMjd: number,
  ): Promise<Array<{ alert_id: string; locus_id: string; mjd: number; ra: number; dec: number }>> {
    // The position from the alert's summary (older rows: its properties); upper limits have none.
    const result = await sql<{ alert_id: string; locus_id: string; mjd: number; ra: number; dec: number }>`
      SELECT alert_id, locus_id, mjd, (s->>'ant_ra')::float8 AS ra, (s->>'ant_dec')::float8 AS dec
      FROM alert CROSS JOIN LATERAL (SELECT coalesce(summary, properties::jsonb) AS s) AS position
      WHERE mjd BETWEEN ${fromMjd} AND ${toMjd} AND s ? 'ant_ra'`.execute(this.db);
    return result.rows;
  }

  /**
   * Sets the associations with one event: removes the event from every alert and locus, then adds it
   * to these alerts and their loci (an empty list: the event has no association any more).
   */
  async replaceAssociations(
    gracedbId: string,
    associations: Array<{ alert_id: string; locus_id: string } & GravWaveAssociation>,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('alert_grav_wave').where('gracedb_id', '=', gracedbId).execute();
      await sql`UPDATE locus SET grav_wave_events = array_remove(grav_wave_events, ${gracedbId}) WHERE grav_wave_events @> ARRAY[${gracedbId}]::text[]`.execute(
        trx,
      );
      await addAssociationsWith(trx, associations);
    });
  }

  /** Adds associations (new alerts at ingestion). */
  async addAssociations(associations: Array<{ alert_id: string; locus_id: string } & GravWaveAssociation>): Promise<void> {
    await addAssociationsWith(this.db, associations);
  }

  /** Loci associated with an event, nearest the map's peak first (their best alert's level). */
  async lociOf(
    gracedbId: string,
    options: { limit: number; offset: number },
  ): Promise<{
    rows: Array<{ locus_id: string; ra: number; dec: number; contour_level: number; contour_area: number; mjd: number }>;
    count: number;
  }> {
    const result = await sql<{
      locus_id: string;
      ra: number;
      dec: number;
      contour_level: number;
      contour_area: number;
      mjd: number;
      total: string;
    }>`
      SELECT l.locus_id, l.ra, l.dec, best.contour_level, best.contour_area, best.mjd, count(*) OVER () AS total
      FROM (SELECT DISTINCT ON (g.locus_id) g.locus_id, g.contour_level, g.contour_area, a.mjd
            FROM alert_grav_wave g JOIN alert a ON a.alert_id = g.alert_id
            WHERE g.gracedb_id = ${gracedbId} ORDER BY g.locus_id, g.contour_level) best
      JOIN locus l ON l.locus_id = best.locus_id
      ORDER BY best.contour_level, l.locus_id LIMIT ${options.limit} OFFSET ${options.offset}`.execute(this.db);
    return { rows: result.rows.map(({ total: _total, ...r }) => r), count: Number(result.rows[0]?.total ?? 0) };
  }

  /** The latest notices of these events (filters' `locus.grav_wave_events_metadata`). */
  async latestNotices(gracedbIds: string[]): Promise<GravWaveNoticeRow[]> {
    if (gracedbIds.length === 0) return [];
    return this.db
      .selectFrom('grav_wave_notice as n')
      .innerJoin('grav_wave_event as e', 'e.latest_notice_id', 'n.notice_id')
      .select(NOTICE_COLUMNS.map((c) => `n.${c}` as const))
      .where('n.gracedb_id', 'in', gracedbIds)
      .execute() as Promise<GravWaveNoticeRow[]>;
  }
}

async function addAssociationsWith(
  db: Kysely<Database>,
  associations: Array<{ alert_id: string; locus_id: string } & GravWaveAssociation>,
): Promise<void> {
  if (associations.length === 0) return;
  for (let i = 0; i < associations.length; i += 50_000) {
    const chunk = associations.slice(i, i + 50_000);
    await sql`INSERT INTO alert_grav_wave (gracedb_id, alert_id, locus_id, contour_level, contour_area)
      SELECT * FROM unnest(${chunk.map((a) => a.gracedb_id)}::text[], ${chunk.map((a) => a.alert_id)}::text[], ${chunk.map((a) => a.locus_id)}::text[],
        ${chunk.map((a) => a.contour_level)}::float8[], ${chunk.map((a) => a.contour_area)}::float8[])
      ON CONFLICT (gracedb_id, alert_id) DO UPDATE SET contour_level = excluded.contour_level, contour_area = excluded.contour_area`.execute(
      db,
    );
  }
  const pairs = [...new Set(associations.map((a) => `${a.locus_id}\u0000${a.gracedb_id}`))].map((p) => p.split('\u0000'));
  await sql`UPDATE locus AS l SET grav_wave_events = ARRAY(SELECT DISTINCT g FROM unnest(l.grav_wave_events || x.ids) g ORDER BY g)
    FROM (SELECT locus_id, array_agg(DISTINCT gracedb_id) AS ids FROM unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[])
      AS r(locus_id, gracedb_id) GROUP BY locus_id) x
    WHERE l.locus_id = x.locus_id`.execute(db);
}

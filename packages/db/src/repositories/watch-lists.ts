import { htmCircleCover } from '@antares/astro';
import { type Kysely, type Selectable, sql } from 'kysely';

import type { Database, WatchListTable, WatchObjectTable } from '../schema.ts';
import { compileListSort } from '../search/list-filter.ts';

/** A list with the count of its objects (`history_matched_at` is null while history matching waits or runs). */
export type WatchListRow = Selectable<WatchListTable> & { object_count: number };

/** A watch object's circle, as history matching needs it. */
export interface WatchCircle {
  watch_object_id: number;
  ra: number;
  dec: number;
  radius: number;
}

/**
 * How far beyond an object's circle a locus may sit and still hold an alert inside it: alerts join the
 * nearest locus within 1 arcsecond, and the locus then moves to the mean of its detections. Candidates
 * are read within the circle plus this margin, then each alert's own position decides.
 */
const HISTORY_MARGIN_DEG = 2 / 3600;
/**
 * Circles are covered with HTM level-13 trixels (about 0.01 degrees, the largest watch radius), widened
 * to htm16 ranges: a level-16 cover costs six times as much to compute (100,000 objects: 40 s against
 * 6 s) for candidates the exact check trims anyway.
 */
const HISTORY_COVER_LEVEL = 13;
const TO_HTM16 = 4 ** (16 - HISTORY_COVER_LEVEL);

export type WatchObjectRow = Selectable<WatchObjectTable>;

export interface NewWatchObject {
  ra: number;
  dec: number;
  radius: number;
  comment: string | null;
}

/** The objects of every watch list as the pipeline's matcher needs them, with their list's channel. */
export interface WatchTarget {
  watch_object_id: number;
  watch_list_id: number;
  ra: number;
  dec: number;
  radius: number;
  comment: string | null;
  list_name: string;
  slack_channel: string | null;
}

// Rows per INSERT: 100,000 objects go in as a few statements of array parameters.
const INSERT_CHUNK = 20_000;

export class WatchListRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A list and its objects, in one transaction: all or nothing. */
  async create(
    list: { user_id: number; name: string; description: string; slack_channel: string | null },
    objects: NewWatchObject[],
  ): Promise<WatchListRow> {
    return this.db.transaction().execute(async (trx) => {
      const created = await trx.insertInto('watch_list').values(list).returningAll().executeTakeFirstOrThrow();
      for (let i = 0; i < objects.length; i += INSERT_CHUNK) {
        const chunk = objects.slice(i, i + INSERT_CHUNK);
        await sql`INSERT INTO watch_object (watch_list_id, ra, dec, radius, comment)
          SELECT ${created.watch_list_id}, * FROM unnest(${chunk.map((o) => o.ra)}::float8[], ${chunk.map((o) => o.dec)}::float8[],
            ${chunk.map((o) => o.radius)}::float8[], ${chunk.map((o) => o.comment)}::text[])`.execute(trx);
      }
      return { ...created, object_count: objects.length };
    });
  }

  private withCounts() {
    return this.db
      .selectFrom('watch_list')
      .selectAll('watch_list')
      .select(sql<number>`(SELECT count(*) FROM watch_object o WHERE o.watch_list_id = watch_list.watch_list_id)::int`.as('object_count'));
  }

  async findById(watchListId: number): Promise<WatchListRow | undefined> {
    return this.withCounts().where('watch_list_id', '=', watchListId).executeTakeFirst();
  }

  async listByUser(
    userId: number,
    options: { sort: string; limit: number; offset: number },
  ): Promise<{ rows: WatchListRow[]; count: number }> {
    const rows = await this.withCounts()
      .where('user_id', '=', userId)
      .orderBy(compileListSort(options.sort, { created_at: 'created_at', name: 'name', id: 'watch_list_id' }))
      .orderBy('watch_list_id', 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const total = await this.db
      .selectFrom('watch_list')
      .where('user_id', '=', userId)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, count: Number(total.n) };
  }

  /** A list's objects, newest first. */
  async objects(watchListId: number): Promise<WatchObjectRow[]> {
    return this.db
      .selectFrom('watch_object')
      .selectAll()
      .where('watch_list_id', '=', watchListId)
      .orderBy('created_at', 'desc')
      .orderBy('watch_object_id', 'desc')
      .execute();
  }

  /** The circles of a list's objects, by id (history matching reads them in chunks). */
  async circles(watchListId: number): Promise<WatchCircle[]> {
    return this.db
      .selectFrom('watch_object')
      .select(['watch_object_id', 'ra', 'dec', 'radius'])
      .where('watch_list_id', '=', watchListId)
      .orderBy('watch_object_id')
      .execute();
  }

  /**
   * Marks the loci with a stored alert inside one of these circles, as the pipeline marks the locus of
   * a new alert (list and object ids, kept sorted and distinct), and returns how many loci it marked.
   * Circles of objects deleted meanwhile mark nothing (the object row is joined). No chat message: those
   * are for new alerts only.
   */
  async markHistoryMatches(circles: WatchCircle[]): Promise<number> {
    const ids: number[] = [];
    const lows: number[] = [];
    const highs: number[] = [];
    for (const circle of circles) {
      for (const [lo, hi] of htmCircleCover(circle.ra, circle.dec, circle.radius + HISTORY_MARGIN_DEG, { level: HISTORY_COVER_LEVEL })) {
        ids.push(circle.watch_object_id);
        lows.push(lo * TO_HTM16);
        highs.push(hi * TO_HTM16 + TO_HTM16 - 1);
      }
    }
    if (ids.length === 0) return 0;
    // An alert's position is in its summary (older rows: its properties); upper limits have none.
    const result = await sql<{ locus_id: string }>`
      WITH r AS (SELECT * FROM unnest(${ids}::bigint[], ${lows}::bigint[], ${highs}::bigint[]) AS r(object_id, lo, hi)),
      candidates AS (SELECT DISTINCT r.object_id, l.locus_id FROM r JOIN locus l ON l.htm16 BETWEEN r.lo AND r.hi),
      hits AS (
        SELECT c.locus_id, o.watch_list_id, o.watch_object_id
        FROM candidates c JOIN watch_object o ON o.watch_object_id = c.object_id
        WHERE EXISTS (
          SELECT 1 FROM alert a
          WHERE a.locus_id = c.locus_id
            AND angular_distance_deg((coalesce(a.summary, a.properties::jsonb) ->> 'ant_ra')::float8,
              (coalesce(a.summary, a.properties::jsonb) ->> 'ant_dec')::float8, o.ra, o.dec) <= o.radius)
      ),
      m AS (
        SELECT locus_id, array_agg(DISTINCT watch_list_id::text) AS lists, array_agg(DISTINCT watch_object_id::text) AS objects
        FROM hits GROUP BY locus_id
      )
      UPDATE locus AS l SET
        watch_list_ids = ARRAY(SELECT DISTINCT x FROM unnest(l.watch_list_ids || m.lists) AS x ORDER BY x),
        watch_object_ids = ARRAY(SELECT DISTINCT x FROM unnest(l.watch_object_ids || m.objects) AS x ORDER BY x)
      FROM m WHERE l.locus_id = m.locus_id
      RETURNING l.locus_id`.execute(this.db);
    return result.rows.length;
  }

  async setHistoryMatched(watchListId: number): Promise<void> {
    await this.db
      .updateTable('watch_list')
      .set({ history_matched_at: sql<Date>`now()` })
      .where('watch_list_id', '=', watchListId)
      .execute();
  }

  /** Lists not yet matched against the stored alerts, oldest first. */
  async pendingHistory(): Promise<number[]> {
    const rows = await this.db
      .selectFrom('watch_list')
      .select('watch_list_id')
      .where('history_matched_at', 'is', null)
      .orderBy('watch_list_id')
      .execute();
    return rows.map((r) => r.watch_list_id);
  }

  /** The loci a list has matched so far (through new alerts or its history). */
  async matchedLociCount(watchListId: number): Promise<number> {
    const row = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM locus WHERE watch_list_ids @> ARRAY[${String(watchListId)}]::text[]`.execute(this.db);
    return Number(row.rows[0]?.n ?? 0);
  }

  /** Takes a list's ids off the loci it matched (before it is deleted: a deleted list marks nothing). */
  async unmarkLoci(watchListId: number): Promise<void> {
    const id = String(watchListId);
    await sql`UPDATE locus SET
        watch_list_ids = array_remove(watch_list_ids, ${id}),
        watch_object_ids = ARRAY(SELECT x FROM unnest(watch_object_ids) AS x
          WHERE x NOT IN (SELECT watch_object_id::text FROM watch_object WHERE watch_list_id = ${watchListId}))
      WHERE watch_list_ids @> ARRAY[${id}]::text[]`.execute(this.db);
  }

  async delete(watchListId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('watch_list').where('watch_list_id', '=', watchListId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Changes whenever a list or object is added or removed: the pipeline reloads its index then. */
  async version(): Promise<string> {
    const row = await sql<{ v: string }>`SELECT count(*) || ':' || coalesce(max(watch_object_id), 0) AS v FROM watch_object`.execute(
      this.db,
    );
    return row.rows[0].v;
  }

  async allTargets(): Promise<WatchTarget[]> {
    return this.db
      .selectFrom('watch_object as o')
      .innerJoin('watch_list as l', 'l.watch_list_id', 'o.watch_list_id')
      .select(['o.watch_object_id', 'o.watch_list_id', 'o.ra', 'o.dec', 'o.radius', 'o.comment', 'l.name as list_name', 'l.slack_channel'])
      .execute();
  }
}

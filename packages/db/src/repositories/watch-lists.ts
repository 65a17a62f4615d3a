import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { compileListSort } from '../search/list-filter.ts';

export interface WatchListRow {
  watch_list_id: number;
  user_id: number;
  name: string;
  description: string;
  slack_channel: string | null;
  created_at: Date;
  object_count: number;
}

export interface WatchObjectRow {
  watch_object_id: number;
  watch_list_id: number;
  ra: number;
  dec: number;
  radius: number;
  comment: string | null;
  created_at: Date;
}

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
  async create(list: { user_id: number; name: string; description: string; slack_channel: string | null }, objects: NewWatchObject[]): Promise<WatchListRow> {
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
    return this.db.selectFrom('watch_list').selectAll('watch_list')
      .select(sql<number>`(SELECT count(*) FROM watch_object o WHERE o.watch_list_id = watch_list.watch_list_id)::int`.as('object_count'));
  }

  async findById(watchListId: number): Promise<WatchListRow | undefined> {
    return this.withCounts().where('watch_list_id', '=', watchListId).executeTakeFirst();
  }

  async listByUser(userId: number, options: { sort: string; limit: number; offset: number }): Promise<{ rows: WatchListRow[]; count: number }> {
    const rows = await this.withCounts().where('user_id', '=', userId)
      .orderBy(compileListSort(options.sort, { created_at: 'created_at', name: 'name', id: 'watch_list_id' }))
      .orderBy('watch_list_id', 'desc').limit(options.limit).offset(options.offset).execute();
    const total = await this.db.selectFrom('watch_list').where('user_id', '=', userId)
      .select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return { rows, count: Number(total.n) };
  }

  /** A list's objects, newest first. */
  async objects(watchListId: number): Promise<WatchObjectRow[]> {
    return this.db.selectFrom('watch_object').selectAll().where('watch_list_id', '=', watchListId)
      .orderBy('created_at', 'desc').orderBy('watch_object_id', 'desc').execute();
  }

  async delete(watchListId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('watch_list').where('watch_list_id', '=', watchListId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Changes whenever a list or object is added or removed: the pipeline reloads its index then. */
  async version(): Promise<string> {
    const row = await sql<{ v: string }>`SELECT count(*) || ':' || coalesce(max(watch_object_id), 0) AS v FROM watch_object`.execute(this.db);
    return row.rows[0].v;
  }

  async allTargets(): Promise<WatchTarget[]> {
    return this.db.selectFrom('watch_object as o').innerJoin('watch_list as l', 'l.watch_list_id', 'o.watch_list_id')
      .select(['o.watch_object_id', 'o.watch_list_id', 'o.ra', 'o.dec', 'o.radius', 'o.comment', 'l.name as list_name', 'l.slack_channel'])
      .execute();
  }
}

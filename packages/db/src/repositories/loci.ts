import { type Kysely, type Selectable, sql } from 'kysely';

import type { Database, JsonObject, LocusTable } from '../schema.ts';
import type { LocusSort } from '../search/locus-fields.ts';
import type { CompiledLocusSearch } from '../search/locus-query.ts';

/** A locus as the API serves it: the columns of LOCUS_COLUMNS. */
export type LocusRow = Pick<Selectable<LocusTable>, (typeof LOCUS_COLUMNS)[number]>;

export interface NewLocus {
  locus_id: string;
  ra: number;
  dec: number;
  htm16: number;
}

export interface LocusUpdate {
  locus_id: string;
  ra: number;
  dec: number;
  htm16: number;
  properties: JsonObject;
  newest_thumbnail_alert_id: string | null;
}

export const EXACT_COUNT_LIMIT = 1_000;

const LOCUS_COLUMNS = [
  'locus_id',
  'ra',
  'dec',
  'htm16',
  'properties',
  'tags',
  'catalogs',
  'grav_wave_events',
  'newest_thumbnail_alert_id',
] as const;

export class LocusRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findById(locusId: string): Promise<LocusRow | undefined> {
    return this.db.selectFrom('locus').select(LOCUS_COLUMNS).where('locus_id', '=', locusId).executeTakeFirst();
  }

  async search(options: {
    search: CompiledLocusSearch;
    sort: LocusSort[];
    limit: number;
    offset: number;
  }): Promise<{ rows: LocusRow[]; count: number; countIsEstimate: boolean; hasMore: boolean }> {
    const { search, limit, offset } = options;
    // A seeded random order is a stable one: md5 of the id and the seed, so each page continues the last.
    const orderBy = search.randomOrder
      ? search.randomSeed === undefined
        ? sql`random()`
        : sql`md5(locus_id || ${search.randomSeed}), locus_id`
      : sql.join([...options.sort.map(sortSql), sql`locus_id DESC`]);
    // Counted first: when the matches are few (exactly counted), the page is sorted from them. Walking a
    // sort index and filtering, the planner's choice for a tag it has no statistics for (it guesses 0.5 %
    // of loci), read every locus for a tag on none: 2.4 s at 1,000,000 loci, 1 ms this way.
    const counted = await this.countMatches(search);
    const rows = counted.isEstimate
      ? await this.db
          .selectFrom('locus')
          .select(LOCUS_COLUMNS)
          .where(search.where)
          .orderBy(orderBy)
          .limit(limit + 1) // one more tells whether a next page exists, whatever the count says
          .offset(offset)
          .execute()
      : (
          await sql<LocusRow>`SELECT ${sql.join(LOCUS_COLUMNS.map((column) => sql.ref(column)))}
            FROM (SELECT * FROM locus WHERE ${search.where} OFFSET 0) AS locus
            ORDER BY ${orderBy} LIMIT ${limit + 1} OFFSET ${offset}`.execute(this.db)
        ).rows;
    const hasMore = rows.length > limit;
    if (hasMore) rows.pop();
    // A page past the end (offset beyond every match) tells nothing about the count: only the count does.
    const seen = rows.length > 0 ? offset + rows.length + (hasMore ? 1 : 0) : 0;
    return { rows, count: Math.max(counted.count, seen), countIsEstimate: counted.isEstimate, hasMore };
  }

  /**
   * Exact up to EXACT_COUNT_LIMIT matches; above that the planner's estimate, as an exact count of a
   * large result scans much of the table on every page (Elasticsearch, which the original API ran on,
   * does not count exactly beyond a limit either). Paging never depends on it (see hasMore).
   */
  async countMatches(search: CompiledLocusSearch): Promise<{ count: number; isEstimate: boolean }> {
    const capped = await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM locus WHERE ${search.where}
      LIMIT ${EXACT_COUNT_LIMIT + 1}) AS matches`.execute(this.db);
    const exact = Number(capped.rows[0].n);
    if (exact <= EXACT_COUNT_LIMIT) return { count: exact, isEstimate: false };
    const plan = await sql<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>`EXPLAIN (FORMAT JSON)
      SELECT 1 FROM locus WHERE ${search.where}`.execute(this.db);
    const estimate = Math.round(plan.rows[0]['QUERY PLAN'][0].Plan['Plan Rows']);
    return { count: Math.max(exact, estimate), isEstimate: true };
  }

  /** Tag and catalog counts plus the range of measurement counts over the loci matching a search. */
  async statistics(search: CompiledLocusSearch): Promise<{
    tags: Record<string, number>;
    catalogs: Record<string, number>;
    minNumMeasurements: number | null;
    maxNumMeasurements: number | null;
  }> {
    const where = search.where;
    const [tags, catalogs, range] = await Promise.all([
      sql<{ name: string; n: number }>`SELECT t AS name, count(*) AS n FROM locus, unnest(tags) AS t
        WHERE ${where} GROUP BY t ORDER BY t`.execute(this.db),
      sql<{ name: string; n: number }>`SELECT c AS name, count(*) AS n FROM locus, unnest(catalogs) AS c
        WHERE ${where} GROUP BY c ORDER BY c`.execute(this.db),
      sql<{ lo: number | null; hi: number | null }>`SELECT min(num_mag_values) AS lo, max(num_mag_values) AS hi
        FROM locus WHERE ${where}`.execute(this.db),
    ]);
    return {
      tags: Object.fromEntries(tags.rows.map((r) => [r.name, Number(r.n)])),
      catalogs: Object.fromEntries(catalogs.rows.map((r) => [r.name, Number(r.n)])),
      minNumMeasurements: range.rows[0]?.lo ?? null,
      maxNumMeasurements: range.rows[0]?.hi ?? null,
    };
  }

  /** Loci whose htm16 id falls in any of the inclusive ranges: association candidates for a batch. */
  async findInHtmRanges(ranges: Array<[number, number]>): Promise<Array<Pick<LocusRow, 'locus_id' | 'ra' | 'dec'>>> {
    if (ranges.length === 0) return [];
    // One index probe per range, forced by the lateral subquery (OFFSET 0 keeps the planner from
    // flattening it into a join): as a plain join, the planner's guess of a BETWEEN join's size made it
    // read every locus against every range once the table held 100,000 loci (12 s a batch, not 3 ms).
    const result = await sql<Pick<LocusRow, 'locus_id' | 'ra' | 'dec'>>`
      SELECT DISTINCT l.locus_id, l.ra, l.dec
      FROM unnest(${ranges.map((r) => r[0])}::bigint[], ${ranges.map((r) => r[1])}::bigint[]) AS r(lo, hi)
      CROSS JOIN LATERAL (SELECT locus_id, ra, dec FROM locus WHERE htm16 BETWEEN r.lo AND r.hi OFFSET 0) AS l`.execute(this.db);
    return result.rows;
  }

  async findManyPositions(locusIds: string[]): Promise<Array<Pick<LocusRow, 'locus_id' | 'ra' | 'dec'>>> {
    if (locusIds.length === 0) return [];
    return this.db.selectFrom('locus').select(['locus_id', 'ra', 'dec']).where('locus_id', 'in', locusIds).execute();
  }

  async insertMany(loci: NewLocus[]): Promise<void> {
    if (loci.length === 0) return;
    await sql`INSERT INTO locus (locus_id, ra, dec, htm16)
      SELECT * FROM unnest(${loci.map((l) => l.locus_id)}::text[], ${loci.map((l) => l.ra)}::float8[],
        ${loci.map((l) => l.dec)}::float8[], ${loci.map((l) => l.htm16)}::bigint[])
      ON CONFLICT (locus_id) DO NOTHING`.execute(this.db);
  }

  async findMany(locusIds: string[]): Promise<LocusRow[]> {
    if (locusIds.length === 0) return [];
    return this.db.selectFrom('locus').select(LOCUS_COLUMNS).where('locus_id', 'in', locusIds).execute();
  }

  /** The loci with the newest alerts that Level 2 would run on (at least `minMeasurements`): dry runs. */
  async newestForFilters(limit: number, minMeasurements: number): Promise<LocusRow[]> {
    return this.db
      .selectFrom('locus')
      .select(LOCUS_COLUMNS)
      .where('num_mag_values', '>=', minMeasurements)
      .orderBy(sql`newest_alert_observation_time DESC NULLS LAST`)
      .orderBy('locus_id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Level 2 results: tags added to each locus and properties merged into its properties. */
  async applyFilterResults(results: Array<{ locus_id: string; tags: string[]; properties: JsonObject }>): Promise<void> {
    if (results.length === 0) return;
    await sql`UPDATE locus AS l SET
        tags = ARRAY(SELECT DISTINCT t FROM unnest(l.tags || r.tags) AS t ORDER BY t),
        properties = l.properties || r.properties, updated_at = now()
      FROM jsonb_to_recordset(${JSON.stringify(results)}::jsonb) AS r(locus_id text, tags text[], properties jsonb)
      WHERE l.locus_id = r.locus_id`.execute(this.db);
  }

  /** Watch-list matches: list and object ids added to each locus (kept sorted and distinct). */
  async addWatchMatches(matches: Array<{ locus_id: string; watch_list_ids: string[]; watch_object_ids: string[] }>): Promise<void> {
    if (matches.length === 0) return;
    await sql`UPDATE locus AS l SET
        watch_list_ids = ARRAY(SELECT DISTINCT x FROM unnest(l.watch_list_ids || m.watch_list_ids) AS x ORDER BY x),
        watch_object_ids = ARRAY(SELECT DISTINCT x FROM unnest(l.watch_object_ids || m.watch_object_ids) AS x ORDER BY x)
      FROM jsonb_to_recordset(${JSON.stringify(matches)}::jsonb) AS m(locus_id text, watch_list_ids text[], watch_object_ids text[])
      WHERE l.locus_id = m.locus_id`.execute(this.db);
  }

  /** Bulk load of complete loci (benchmarks and fixtures): one statement per call. */
  async bulkInsert(rows: Array<NewLocus & { properties: JsonObject; tags: string[] }>): Promise<void> {
    if (rows.length === 0) return;
    await sql`INSERT INTO locus (locus_id, ra, dec, htm16, properties, tags)
      SELECT locus_id, ra, dec, htm16, properties, tags
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x(locus_id text, ra float8, dec float8, htm16 bigint, properties jsonb, tags text[])
      ON CONFLICT (locus_id) DO NOTHING`.execute(this.db);
  }

  /** Refreshes planner statistics after a bulk load. */
  async analyze(): Promise<void> {
    await sql`ANALYZE locus`.execute(this.db);
  }

  /** Writes recomputed positions and properties of many loci in one statement. */
  /**
   * Writes recomputed loci and moves each one's alerts_revision up by one (migration 0019). Returns the
   * new revisions, by locus.
   */
  async updateMany(updates: LocusUpdate[]): Promise<Map<string, number>> {
    if (updates.length === 0) return new Map();
    // Merged, not replaced: properties written by Level 2 filters stay.
    const result = await sql<{ locus_id: string; alerts_revision: number }>`UPDATE locus AS l SET ra = u.ra, dec = u.dec,
        htm16 = u.htm16, properties = l.properties || u.properties,
        newest_thumbnail_alert_id = u.newest_thumbnail_alert_id, updated_at = now(), alerts_revision = l.alerts_revision + 1,
        ztf_object_ids = ARRAY(SELECT jsonb_array_elements_text(coalesce(u.properties #> '{survey,ztf,id}', '[]'::jsonb)))
      FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS u(locus_id text, ra float8, dec float8,
        htm16 bigint, properties jsonb, newest_thumbnail_alert_id text)
      WHERE l.locus_id = u.locus_id
      RETURNING l.locus_id, l.alerts_revision`.execute(this.db);
    return new Map(result.rows.map((r) => [r.locus_id, r.alerts_revision]));
  }

  /** The alerts_revision of these loci (migration 0019); a locus not stored is not in the map. */
  async alertsRevisions(locusIds: string[]): Promise<Map<string, number>> {
    if (locusIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('locus').select(['locus_id', 'alerts_revision']).where('locus_id', 'in', locusIds).execute();
    return new Map(rows.map((r) => [r.locus_id, r.alerts_revision]));
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('locus')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

function sortSql(sort: LocusSort) {
  const direction = sql.raw(sort.descending ? 'DESC NULLS LAST' : 'ASC NULLS LAST');
  if (sort.field.kind === 'property') return sql`(properties #> ${sort.field.path}) ${direction}`;
  return sql`${sql.ref(sort.field.column)} ${direction}`;
}

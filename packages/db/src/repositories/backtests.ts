import { type Kysely, type Selectable, sql } from 'kysely';

import type { BacktestJobTable, Database, JsonObject } from '../schema.ts';
import type { CompiledLocusSearch } from '../search/locus-query.ts';

export type BacktestJobRow = Selectable<BacktestJobTable>;
export type BacktestState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface NewBacktestJob {
  user_id: number;
  filter_id: number | null;
  filter_version_id: number | null;
  code: string;
  filter_class: string | null;
  params: JsonObject;
}

/** One replayed locus: the tags the filter gave it, and its outcome (apps/pipeline/src/backtest). */
export interface BacktestLocusRecord {
  locus_id: string;
  tags: string[];
  outcome: JsonObject;
}

/** Filter backtest jobs and the loci they replayed (migration 0016). Nothing here touches loci or tags. */
export class BacktestRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(job: NewBacktestJob): Promise<BacktestJobRow> {
    return this.db
      .insertInto('backtest_job')
      .values({ ...job, params: JSON.stringify(job.params) })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async findById(id: number): Promise<BacktestJobRow | undefined> {
    return this.db.selectFrom('backtest_job').selectAll().where('backtest_id', '=', id).executeTakeFirst();
  }

  /** A filter version's backtests (or a user's of unsaved code: versionId null), newest first. */
  async list(options: { filterVersionId: number | null; userId?: number; limit: number }): Promise<BacktestJobRow[]> {
    let query = this.db.selectFrom('backtest_job').selectAll();
    query =
      options.filterVersionId === null
        ? query.where('filter_version_id', 'is', null)
        : query.where('filter_version_id', '=', options.filterVersionId);
    if (options.userId !== undefined) query = query.where('user_id', '=', options.userId);
    return query.orderBy('backtest_id', 'desc').limit(options.limit).execute();
  }

  /** Whether any job waits or runs (a starting server then starts its runner). */
  async hasUnfinished(): Promise<boolean> {
    const row = await this.db
      .selectFrom('backtest_job')
      .select('backtest_id')
      .where('state', 'in', ['queued', 'running'])
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The user's jobs that are queued or running. */
  async activeOf(userId: number): Promise<BacktestJobRow[]> {
    return this.db
      .selectFrom('backtest_job')
      .selectAll()
      .where('user_id', '=', userId)
      .where('state', 'in', ['queued', 'running'])
      .orderBy('backtest_id')
      .execute();
  }

  /**
   * Takes a queued job for a runner: it becomes running, and the runner holds it under a lease, the
   * job's `resumes` as claimed (every way a job is taken back, requeue or recoverStale, adds one), which
   * heartbeat, progress, saveLoci, finish and requeue check: a runner whose job was recovered while it
   * still ran writes nothing more. Users take turns (ADR 0062):
   * the job goes to the user with the fewest jobs running, then the one whose last turn began longest ago
   * (never: first), then the oldest job; not first come, so a user with many jobs queued (an admin)
   * waits for everyone else's next one. `FOR UPDATE SKIP LOCKED`: two runners never take one job.
   */
  async claimNext(): Promise<BacktestJobRow | undefined> {
    const result = await sql<BacktestJobRow>`UPDATE backtest_job SET state = 'running',
        started_at = coalesce(started_at, now()), heartbeat_at = now()
      WHERE state = 'queued' AND backtest_id = (SELECT q.backtest_id FROM backtest_job q WHERE q.state = 'queued'
        ORDER BY (SELECT count(*) FROM backtest_job r WHERE r.user_id = q.user_id AND r.state = 'running'),
          (SELECT max(t.started_at) FROM backtest_job t WHERE t.user_id = q.user_id) NULLS FIRST,
          q.backtest_id
        LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING *`.execute(this.db);
    return result.rows[0];
  }

  /**
   * The runner's heartbeat, on a timer of its own (not per round: a round of a slow filter may take
   * longer than the stale limit). 'lost': the job is no longer this lease's (recovered as stale,
   * perhaps running elsewhere), and the runner must stop it without writing anything more.
   */
  async heartbeat(id: number, lease: number): Promise<'ok' | 'cancel' | 'lost'> {
    const row = await sql<{ cancel_requested: boolean }>`UPDATE backtest_job SET heartbeat_at = now()
      WHERE backtest_id = ${id} AND state = 'running' AND resumes = ${lease} RETURNING cancel_requested`.execute(this.db);
    const found = row.rows[0];
    return found === undefined ? 'lost' : found.cancel_requested ? 'cancel' : 'ok';
  }

  /**
   * Jobs left running by a runner that stopped (no heartbeat for `staleSeconds`): queued again to resume
   * where they were, or failed with the reason once they have been resumed `maxResumes` times.
   */
  async recoverStale(staleSeconds: number, maxResumes: number): Promise<{ resumed: number[]; failed: number[] }> {
    const stale = sql`state = 'running' AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => ${staleSeconds}))`;
    const failed = await sql<{ backtest_id: number }>`UPDATE backtest_job SET state = 'failed', finished_at = now(),
        error = 'The server stopped while this backtest ran, ' || (resumes + 1) || ' times: it was not resumed again'
      WHERE ${stale} AND resumes + 1 > ${maxResumes} RETURNING backtest_id`.execute(this.db);
    const resumed = await sql<{ backtest_id: number }>`UPDATE backtest_job SET state = 'queued', resumes = resumes + 1
      WHERE ${stale} RETURNING backtest_id`.execute(this.db);
    return { resumed: resumed.rows.map((r) => Number(r.backtest_id)), failed: failed.rows.map((r) => Number(r.backtest_id)) };
  }

  /** A running job that its runner stopped on shutdown: queued again, to resume at the next start. */
  async requeue(id: number, lease: number): Promise<void> {
    await sql`UPDATE backtest_job SET state = 'queued', resumes = resumes + 1
      WHERE backtest_id = ${id} AND state = 'running' AND resumes = ${lease}`.execute(this.db);
  }

  /**
   * Progress and heartbeat; returns whether the job must stop (asked to, or, with `lease`, no longer
   * this runner's: then nothing is written).
   */
  async progress(id: number, values: { loci_total?: number; loci_done: number; steps_done: number }, lease?: number): Promise<boolean> {
    return (await this.progressOf(id, values, lease)) !== 'ok';
  }

  private async progressOf(
    id: number,
    values: { loci_total?: number; loci_done: number; steps_done: number },
    lease?: number,
  ): Promise<'ok' | 'cancel' | 'lost'> {
    let query = this.db
      .updateTable('backtest_job')
      .set({ ...values, heartbeat_at: sql`now()` })
      .where('backtest_id', '=', id);
    if (lease !== undefined) query = query.where('state', '=', 'running').where('resumes', '=', lease);
    const row = await query.returning('cancel_requested').executeTakeFirst();
    return row === undefined ? 'lost' : row.cancel_requested ? 'cancel' : 'ok';
  }

  async finish(
    id: number,
    state: 'done' | 'failed' | 'cancelled',
    retentionDays: number,
    detail: { error?: string; results?: JsonObject },
    lease?: number,
  ): Promise<void> {
    let query = this.db
      .updateTable('backtest_job')
      .set({
        state,
        error: detail.error ?? null,
        results: detail.results === undefined ? null : JSON.stringify(detail.results),
        finished_at: sql`now()`,
        expires_at: sql`now() + make_interval(days => ${retentionDays})`,
      })
      .where('backtest_id', '=', id);
    // A runner that lost its lease must not end a job another runner now holds.
    if (lease !== undefined) query = query.where('state', '=', 'running').where('resumes', '=', lease);
    await query.execute();
  }

  /** Cancels a queued job at once; a running one is asked to stop (the runner ends it). Returns the row. */
  async requestCancel(id: number, retentionDays: number): Promise<BacktestJobRow | undefined> {
    await sql`UPDATE backtest_job SET state = 'cancelled', finished_at = now(), error = 'Cancelled before it started',
        expires_at = now() + make_interval(days => ${retentionDays})
      WHERE backtest_id = ${id} AND state = 'queued'`.execute(this.db);
    await sql`UPDATE backtest_job SET cancel_requested = true WHERE backtest_id = ${id} AND state = 'running'`.execute(this.db);
    return this.findById(id);
  }

  /** Finished jobs past their retention: removed with their loci. */
  async deleteExpired(): Promise<number> {
    const result = await sql`DELETE FROM backtest_job WHERE expires_at IS NOT NULL AND expires_at < now()`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * The loci a backtest replays: matching the search, with a detection (a possible Level 2 run) in the
   * MJD window and at least `minMeasurements` in all, by id, at most `cap`.
   */
  async selectLoci(
    search: CompiledLocusSearch,
    window: { fromMjd: number; toMjd: number },
    minMeasurements: number,
    cap: number,
  ): Promise<string[]> {
    const result = await sql<{ locus_id: string }>`SELECT locus_id FROM locus
      WHERE ${search.where} AND num_mag_values >= ${minMeasurements}
        AND EXISTS (SELECT 1 FROM alert a WHERE a.locus_id = locus.locus_id AND a.mjd >= ${window.fromMjd} AND a.mjd <= ${window.toMjd})
      ORDER BY locus_id LIMIT ${cap}`.execute(this.db);
    return result.rows.map((r) => r.locus_id);
  }

  /** As selectLoci, without the cap: how many loci the search and window match. */
  async countLoci(search: CompiledLocusSearch, window: { fromMjd: number; toMjd: number }, minMeasurements: number): Promise<number> {
    const result = await sql<{ n: number }>`SELECT count(*)::int AS n FROM locus
      WHERE ${search.where} AND num_mag_values >= ${minMeasurements}
        AND EXISTS (SELECT 1 FROM alert a WHERE a.locus_id = locus.locus_id AND a.mjd >= ${window.fromMjd} AND a.mjd <= ${window.toMjd})`.execute(
      this.db,
    );
    return Number(result.rows[0]?.n ?? 0);
  }

  /** Alerts stored over the last `hours` (the current ingest rate). */
  async alertsStoredSince(hours: number): Promise<number> {
    const result = await sql<{ n: number }>`SELECT count(*)::int AS n FROM alert
      WHERE processed_at > now() - make_interval(hours => ${hours})`.execute(this.db);
    return Number(result.rows[0]?.n ?? 0);
  }

  /**
   * What a replay reads of some loci, in three statements: the loci (position, GW events), all their
   * alerts oldest first with the summary fields locus properties are computed from and whether they
   * came with cutouts (as a packet's own alert, not its history), and their GW associations.
   */
  async replayInputs(locusIds: string[]): Promise<{
    loci: Array<{ locus_id: string; ra: number; dec: number; grav_wave_events: string[] }>;
    alerts: Array<{ alert_id: string; locus_id: string; mjd: number; survey: string; summary: JsonObject; has_cutouts: boolean }>;
    gravWaves: Array<{ alert_id: string; gracedb_id: string; contour_level: number; contour_area: number }>;
  }> {
    if (locusIds.length === 0) return { loci: [], alerts: [], gravWaves: [] };
    const loci = await this.db
      .selectFrom('locus')
      .select(['locus_id', 'ra', 'dec', 'grav_wave_events'])
      .where('locus_id', 'in', locusIds)
      .execute();
    const alerts = await sql<{
      alert_id: string;
      locus_id: string;
      mjd: number;
      survey: string;
      summary: JsonObject;
      has_cutouts: boolean;
    }>`
      SELECT a.alert_id, a.locus_id, a.mjd, a.survey, a.summary, t.alert_id IS NOT NULL AS has_cutouts
      FROM alert a
      -- The cutouts of these loci only (by the locus index): an EXISTS per alert was planned as a scan
      -- of every stored cutout for each chunk of loci.
      LEFT JOIN (SELECT DISTINCT alert_id FROM alert_thumbnail WHERE locus_id = ANY(${locusIds}::text[])) t
        ON t.alert_id = a.alert_id
      WHERE a.locus_id = ANY(${locusIds}::text[]) ORDER BY a.locus_id, a.mjd, a.alert_id`.execute(this.db);
    const gravWaves = await this.db
      .selectFrom('alert_grav_wave')
      .select(['alert_id', 'gracedb_id', 'contour_level', 'contour_area'])
      .where('locus_id', 'in', locusIds)
      .orderBy('gracedb_id')
      .execute();
    return { loci, alerts: alerts.rows, gravWaves };
  }

  /** Loci the job has replayed already (a resumed job skips them). */
  async doneLoci(id: number): Promise<Set<string>> {
    const rows = await this.db.selectFrom('backtest_locus').select('locus_id').where('backtest_id', '=', id).execute();
    return new Set(rows.map((r) => r.locus_id));
  }

  /**
   * Records replayed loci and the job's progress in one transaction, so a restart never counts a locus
   * twice; with `lease`, only while the job is still this runner's. Returns whether the job must stop.
   */
  async saveLoci(
    id: number,
    loci: BacktestLocusRecord[],
    progress: { loci_done: number; steps_done: number },
    lease?: number,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // The progress first: its row lock keeps a recovery from taking the job while the loci go in.
      const state = await new BacktestRepository(trx).progressOf(id, progress, lease);
      if (state !== 'lost' && loci.length > 0)
        await sql`INSERT INTO backtest_locus (backtest_id, locus_id, tags, outcome)
          SELECT ${id}, r.locus_id, r.tags, r.outcome FROM jsonb_to_recordset(${JSON.stringify(loci)}::jsonb)
            AS r(locus_id text, tags text[], outcome jsonb)
          ON CONFLICT (backtest_id, locus_id) DO NOTHING`.execute(trx);
      return state !== 'ok';
    });
  }

  /** Every replayed locus of a job, by id. */
  async outcomes(id: number): Promise<BacktestLocusRecord[]> {
    const rows = await this.db
      .selectFrom('backtest_locus')
      .select(['locus_id', 'tags', 'outcome'])
      .where('backtest_id', '=', id)
      .orderBy('locus_id')
      .execute();
    return rows;
  }

  /** Loci tagged by both jobs, only the first, only the second (counts, and up to `sample` ids each). */
  async compare(
    first: number,
    second: number,
    sample: number,
  ): Promise<Record<'both' | 'only_first' | 'only_second', { count: number; locus_ids: string[] }>> {
    const result = await sql<{ side: 'both' | 'only_first' | 'only_second'; n: number; ids: string[] }>`
      WITH a AS (SELECT locus_id FROM backtest_locus WHERE backtest_id = ${first} AND cardinality(tags) > 0),
           b AS (SELECT locus_id FROM backtest_locus WHERE backtest_id = ${second} AND cardinality(tags) > 0),
           sides AS (
             SELECT coalesce(a.locus_id, b.locus_id) AS locus_id,
               CASE WHEN a.locus_id IS NULL THEN 'only_second' WHEN b.locus_id IS NULL THEN 'only_first' ELSE 'both' END AS side
             FROM a FULL JOIN b ON a.locus_id = b.locus_id)
      SELECT side, count(*)::int AS n, (array_agg(locus_id ORDER BY locus_id))[1:${sample}] AS ids FROM sides GROUP BY side`.execute(
      this.db,
    );
    type Side = { count: number; locus_ids: string[] };
    const out: Record<'both' | 'only_first' | 'only_second', Side> = {
      both: { count: 0, locus_ids: [] },
      only_first: { count: 0, locus_ids: [] },
      only_second: { count: 0, locus_ids: [] },
    };
    for (const r of result.rows) out[r.side] = { count: Number(r.n), locus_ids: r.ids ?? [] };
    return out;
  }
}

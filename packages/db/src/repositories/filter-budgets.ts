import { type Kysely, type Selectable, sql } from 'kysely';

import type { Database, FilterBudgetStateTable, FilterBudgetWindowTable } from '../schema.ts';

export type BudgetWindowRow = Selectable<FilterBudgetWindowTable>;
export type BudgetStateRow = Selectable<FilterBudgetStateTable>;

/** What one Level 2 run adds to a window of a filter version. */
export interface BudgetWindowAdd {
  filter_version_id: number;
  kind: 'hour' | 'night';
  window_start: Date;
  window_s: number;
  alerts_seen: number;
  loci_run: number;
  alerts_passed: number;
  time_s: number;
  enabled_filters: number;
  time_histogram: number[];
}

/** Level 2's cost and yield windows, and the filters paused for their budget (ADR 0056). */
export class FilterBudgetRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Adds runs to their windows: counts and times add, histograms add element by element, the enabled
   * filters keep their largest value. One row per (version, kind, start) in `adds` (ON CONFLICT cannot
   * touch a row twice in one statement). Rows in id order, so two processes lock them in the same order.
   */
  async add(adds: BudgetWindowAdd[]): Promise<void> {
    if (adds.length === 0) return;
    const rows = [...adds].sort(
      (a, b) =>
        a.filter_version_id - b.filter_version_id || a.kind.localeCompare(b.kind) || a.window_start.getTime() - b.window_start.getTime(),
    );
    await this.db
      .insertInto('filter_budget_window')
      .values(rows.map((r) => ({ ...r, time_histogram: sql<number[]>`${r.time_histogram}::integer[]` })))
      .onConflict((oc) =>
        oc.columns(['filter_version_id', 'kind', 'window_start']).doUpdateSet({
          alerts_seen: sql`filter_budget_window.alerts_seen + excluded.alerts_seen`,
          loci_run: sql`filter_budget_window.loci_run + excluded.loci_run`,
          alerts_passed: sql`filter_budget_window.alerts_passed + excluded.alerts_passed`,
          time_s: sql`filter_budget_window.time_s + excluded.time_s`,
          enabled_filters: sql`greatest(filter_budget_window.enabled_filters, excluded.enabled_filters)`,
          time_histogram: sql`ARRAY(SELECT coalesce(a, 0) + coalesce(b, 0)
            FROM unnest(filter_budget_window.time_histogram, excluded.time_histogram) WITH ORDINALITY AS t (a, b, i) ORDER BY i)`,
        }),
      )
      .execute();
  }

  /** Each version's newest window of each kind that began by `at` (the current one, or the last it ran in). */
  async latestWindows(versionIds: number[], at: Date): Promise<BudgetWindowRow[]> {
    if (versionIds.length === 0) return [];
    return this.db
      .selectFrom('filter_budget_window')
      .selectAll()
      .distinctOn(['filter_version_id', 'kind'])
      .where('filter_version_id', 'in', versionIds)
      .where('window_start', '<=', at)
      .orderBy('filter_version_id')
      .orderBy('kind')
      .orderBy('window_start', 'desc')
      .execute();
  }

  /** A version's windows of a kind that started in [from, before), newest first. */
  async windowsBetween(versionId: number, kind: 'hour' | 'night', from: Date, before: Date): Promise<BudgetWindowRow[]> {
    return this.db
      .selectFrom('filter_budget_window')
      .selectAll()
      .where('filter_version_id', '=', versionId)
      .where('kind', '=', kind)
      .where('window_start', '>=', from)
      .where('window_start', '<', before)
      .orderBy('window_start', 'desc')
      .execute();
  }

  async states(filterIds: number[]): Promise<Map<number, BudgetStateRow>> {
    if (filterIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('filter_budget_state').selectAll().where('filter_id', 'in', filterIds).execute();
    return new Map(rows.map((r) => [Number(r.filter_id), r]));
  }

  /**
   * Pauses a filter for its budget: its runner switch goes off and the reason is kept. False when it was
   * paused already (another process got there first), so that only one process tells its owner.
   */
  async pause(filterId: number, reason: string, at: Date): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const state = await tx
        .insertInto('filter_budget_state')
        .values({ filter_id: filterId, paused_at: at, paused_reason: reason })
        .onConflict((oc) =>
          oc.column('filter_id').doUpdateSet({ paused_at: at, paused_reason: reason }).where('filter_budget_state.paused_at', 'is', null),
        )
        .returning('filter_id')
        .executeTakeFirst();
      if (!state) return false;
      await tx.updateTable('filter').set({ runner_enabled: false, updated_at: at }).where('filter_id', '=', filterId).execute();
      return true;
    });
  }

  /** An admin resumed the filter: the pause is over, and only windows that begin from now count again. */
  async resume(filterId: number, at: Date): Promise<void> {
    await this.db
      .insertInto('filter_budget_state')
      .values({ filter_id: filterId, resumed_at: at })
      .onConflict((oc) => oc.column('filter_id').doUpdateSet({ paused_at: null, paused_reason: null, resumed_at: at }))
      .execute();
  }

  /** Claims the yield notice of one window: true the first time (in any process) for that window or a later one. */
  async claimYieldNotice(filterId: number, kind: 'hour' | 'night', windowStart: Date): Promise<boolean> {
    const column = kind === 'hour' ? 'yield_noticed_hour' : 'yield_noticed_night';
    const row = await this.db
      .insertInto('filter_budget_state')
      .values({ filter_id: filterId, [column]: windowStart })
      .onConflict((oc) =>
        oc
          .column('filter_id')
          .doUpdateSet({ [column]: windowStart })
          .where((eb) => eb.or([eb(`filter_budget_state.${column}`, 'is', null), eb(`filter_budget_state.${column}`, '<', windowStart)])),
      )
      .returning('filter_id')
      .executeTakeFirst();
    return row !== undefined;
  }
}

import { budgetFigures, budgetQuantile, type FilterBudgetLimits, nightStartOf, windowStartOf } from '@antares/contract';
import type { BudgetWindowRow, FilterRow, Repositories } from '@antares/db';

/** One window of a filter's budget, as the filter runner shows it. */
export interface RunnerBudgetWindow {
  start: string;
  seconds: number;
  current: boolean;
  alerts_seen: number;
  loci_run: number;
  alerts_passed: number;
  time_s: number;
  p50_ms: number | null;
  p99_ms: number | null;
  share: number | null;
  allowed_share: number;
  over_share: boolean;
  yield_per_10k: number | null;
  over_yield: boolean;
}

/** A filter in the runner: its switch, whether Level 2 paused it for its budget, and its figures. */
export interface RunnerView {
  filter: FilterRow;
  state: 'running' | 'paused' | 'paused_for_budget';
  paused_at: string | null;
  paused_reason: string | null;
  budget: {
    hour: RunnerBudgetWindow | null;
    night: RunnerBudgetWindow | null;
    limits: {
      seconds_per_10k: number;
      yield_average_per_10k: number;
      yield_max_per_10k: number;
      window_s: number;
      pause_after_windows: number;
    };
  };
}

/** The runner's views of these filters: their budget states and the newest hour and night of their enabled versions (ADR 0056). */
export async function runnerViews(
  repos: Repositories,
  limits: FilterBudgetLimits,
  filters: FilterRow[],
  now = new Date(),
): Promise<RunnerView[]> {
  const versions = filters.flatMap((f) => (f.enabled_version_id === null ? [] : [f.enabled_version_id]));
  const [windows, states] = await Promise.all([
    repos.filterBudgets.latestWindows(versions, now),
    repos.filterBudgets.states(filters.map((f) => f.filter_id)),
  ]);
  const byKey = new Map(windows.map((w) => [`${w.filter_version_id}:${w.kind}`, w]));
  const current = { hour: windowStartOf(now, limits.windowSeconds).getTime(), night: nightStartOf(now).getTime() };
  const view = (filter: FilterRow, w: BudgetWindowRow | undefined): RunnerBudgetWindow | null => {
    if (!w) return null;
    const figures = budgetFigures(w, limits, filter.name);
    const ms = (q: number) => {
      const s = budgetQuantile(w.time_histogram, q);
      return s === null ? null : round(s * 1000);
    };
    return {
      start: w.window_start.toISOString(),
      seconds: w.window_s,
      current: w.window_start.getTime() === current[w.kind] && w.window_s === (w.kind === 'hour' ? limits.windowSeconds : 86_400),
      alerts_seen: w.alerts_seen,
      loci_run: w.loci_run,
      alerts_passed: w.alerts_passed,
      time_s: round(w.time_s),
      p50_ms: ms(0.5),
      p99_ms: ms(0.99),
      share: figures.share === null ? null : round(figures.share),
      allowed_share: round(figures.allowed_share),
      over_share: figures.over_share,
      yield_per_10k: figures.yield_per_10k === null ? null : round(figures.yield_per_10k),
      over_yield: w.kind === 'hour' ? figures.over_yield_max : figures.over_yield_average,
    };
  };
  return filters.map((filter) => {
    const state = states.get(filter.filter_id);
    const pausedForBudget = !filter.runner_enabled && !!state?.paused_at;
    const version = filter.enabled_version_id;
    return {
      filter,
      state: filter.runner_enabled ? 'running' : pausedForBudget ? 'paused_for_budget' : 'paused',
      paused_at: pausedForBudget ? state!.paused_at!.toISOString() : null,
      paused_reason: pausedForBudget ? state!.paused_reason : null,
      budget: {
        hour: view(filter, byKey.get(`${version}:hour`)),
        night: view(filter, byKey.get(`${version}:night`)),
        limits: {
          seconds_per_10k: limits.secondsPer10k,
          yield_average_per_10k: limits.yieldAveragePer10k,
          yield_max_per_10k: limits.yieldMaxPer10k,
          window_s: limits.windowSeconds,
          pause_after_windows: limits.pauseAfterWindows,
        },
      },
    };
  });
}

/** Four significant digits: shares and times per locus span decades. */
function round(x: number): number {
  return x === 0 || !Number.isFinite(x) ? x : Number(x.toPrecision(4));
}

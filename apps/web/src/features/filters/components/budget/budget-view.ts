import type { BacktestBudgetProjection } from '@antares/contract';

import type { RunnerFilter } from '@/features/filters/api/filter-runner';
import { isoUtcText } from '@/lib/time';

import { shareText } from '../backtests/backtest-form';

export type BudgetWindow = NonNullable<RunnerFilter['budget']['hour']>;

/**
 * A share of the budget as a bar: `percent` is its width (the budget of all enabled filters is the whole
 * bar, so a share over it fills the bar), `allowedPercent` where the filter's own share ends (a marker),
 * and the colour: green well within its share, amber in its last fifth, red over it.
 */
export function budgetBar(
  share: number | null,
  allowedShare: number,
): { percent: number; allowedPercent: number; variant: string; label: string } {
  const clamp = (x: number) => Math.min(100, Math.max(0, x * 100));
  const variant = share === null ? 'secondary' : share > allowedShare ? 'danger' : share > 0.8 * allowedShare ? 'warning' : 'success';
  return {
    percent: share === null ? 0 : clamp(share),
    allowedPercent: clamp(allowedShare),
    variant,
    label: `${shareText(share)} of the budget (its share: ${shareText(allowedShare)})`,
  };
}

/** What the filter runner's state reads: running, paused by an admin, or paused for its budget since when and why. */
export function runnerStateText(filter: Pick<RunnerFilter, 'state' | 'paused_at' | 'paused_reason'>): string {
  if (filter.state === 'running') return 'Running';
  if (filter.state === 'paused') return 'Paused by an admin';
  const since = isoUtcText(filter.paused_at);
  return `Paused for its budget${since ? ` since ${since} (UTC)` : ''}${filter.paused_reason ? `: ${filter.paused_reason}` : ''}`;
}

/** A window's yield against its limit (an hour: the most; a night: the average). */
export function yieldText(window: BudgetWindow | null, limit: number): string {
  if (!window || window.yield_per_10k === null) return 'n/a';
  const value = Number(window.yield_per_10k.toPrecision(3)).toLocaleString('en-US');
  return `${value} per 10,000 (limit ${limit.toLocaleString('en-US')})`;
}

/** Which window the figures are of: 'this hour', or the start of the latest one the filter ran in. */
export function windowText(window: BudgetWindow | null, kind: 'hour' | 'night'): string {
  if (!window) return kind === 'hour' ? 'no window yet' : 'no night yet';
  if (window.current) return kind === 'hour' ? `this window (${Math.round(window.seconds / 60)} min)` : 'tonight';
  return `${kind === 'hour' ? 'window' : 'night'} from ${isoUtcText(window.start)} (UTC)`;
}

/** A backtest's projection against the budget and yields, in two sentences (share, then yield). */
export function projectionTexts(budget: BacktestBudgetProjection): { share: string; yield: string } {
  const { limits } = budget;
  const perAlert = budget.seconds_per_10k_alerts === null ? 'n/a' : `${Number(budget.seconds_per_10k_alerts.toPrecision(3))} s`;
  const verdict = budget.projected_share === null ? '' : budget.over_share ? ': over its share' : ': within its share';
  const yieldValue =
    budget.projected_yield_per_10k === null ? 'n/a' : Number(budget.projected_yield_per_10k.toPrecision(3)).toLocaleString('en-US');
  const yieldVerdict = budget.over_yield_max
    ? ': over the most'
    : budget.over_yield_average
      ? ': over the average'
      : budget.projected_yield_per_10k === null
        ? ''
        : ': within both';
  return {
    share:
      `Projected: ${perAlert} per 10,000 alerts, ${shareText(budget.projected_share)} of the ${limits.seconds_per_10k} s all enabled ` +
      `filters may take (its share: ${shareText(budget.allowed_share)}, with ${budget.enabled_filters} filter${budget.enabled_filters === 1 ? '' : 's'})${verdict}.`,
    yield: `Projected yield: ${yieldValue} passing alerts per 10,000 (asked: ${limits.yield_average_per_10k} on average, ${limits.yield_max_per_10k} at most)${yieldVerdict}.`,
  };
}

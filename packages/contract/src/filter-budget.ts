// Filter budgets and yields (issue #48 point 4, ADR 0056): the limits, the fixed histogram of time per
// locus that Level 2 keeps per window, and the figures read from a window. Shared by the pipeline (which
// records windows and pauses filters), the server (which serves them) and the backtest report (which
// projects them), so that all three mean the same thing by "share" and "yield".

export interface FilterBudgetLimits {
  /** Processing time for all enabled filters together, in seconds per 10,000 alerts seen (RTN-090: 30). */
  secondsPer10k: number;
  /** Passing alerts per 10,000 alerts seen that a filter should keep to on average (a night) ... */
  yieldAveragePer10k: number;
  /** ... and at most (any window). */
  yieldMaxPer10k: number;
  /** A window's length in seconds (an hour; tests make it short). */
  windowSeconds: number;
  /** A filter over its share for this many consecutive closed windows is paused. */
  pauseAfterWindows: number;
  /** A filter's share of the budget by filter name (a fraction of 1); the others get 1 / enabled filters. */
  shares: Record<string, number>;
}

export const DEFAULT_FILTER_BUDGET: FilterBudgetLimits = {
  secondsPer10k: 30,
  yieldAveragePer10k: 20,
  yieldMaxPer10k: 100,
  windowSeconds: 3600,
  pauseAfterWindows: 3,
  shares: {},
};

/**
 * Time per locus, in seconds, is counted in log-spaced buckets: bucket 0 holds everything under 10 us,
 * then 10 buckets per decade up to 100 s, and the last bucket everything above. A quantile read from it
 * is within a factor 10^0.1 (26%) of the true one, which is enough to tell a 1 ms filter from a 10 ms
 * one, and the 72 counts of two windows (or two processes) add up element by element.
 */
export const BUDGET_HISTOGRAM_BUCKETS = 72;
const HISTOGRAM_MIN_S = 1e-5;
const BUCKETS_PER_DECADE = 10;

export function emptyBudgetHistogram(): number[] {
  return new Array<number>(BUDGET_HISTOGRAM_BUCKETS).fill(0);
}

export function budgetBucketOf(seconds: number): number {
  if (!(seconds >= HISTOGRAM_MIN_S)) return 0;
  const i = 1 + Math.floor(Math.log10(seconds / HISTOGRAM_MIN_S) * BUCKETS_PER_DECADE + 1e-9);
  return Math.min(BUDGET_HISTOGRAM_BUCKETS - 1, i);
}

/** The bucket's geometric middle, in seconds (bucket 0: half the lowest bound). */
function bucketMiddle(bucket: number): number {
  if (bucket === 0) return HISTOGRAM_MIN_S / 2;
  return HISTOGRAM_MIN_S * 10 ** ((bucket - 0.5) / BUCKETS_PER_DECADE);
}

/** The q-quantile (0 < q <= 1, nearest rank) of the times a histogram counts, in seconds; null for none. */
export function budgetQuantile(histogram: readonly number[], q: number): number | null {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [bucket, n] of histogram.entries()) {
    seen += n;
    if (seen >= rank) return bucketMiddle(bucket);
  }
  return bucketMiddle(histogram.length - 1);
}

/** What Level 2 adds up per filter version and window. */
export interface BudgetWindowCounts {
  alerts_seen: number;
  loci_run: number;
  alerts_passed: number;
  time_s: number;
  /** The most filters Level 2 had loaded in the window. */
  enabled_filters: number;
  time_histogram: readonly number[];
}

/** The figures a window (or a backtest's projection) is judged by. */
export interface BudgetFigures {
  /** The budget for the alerts seen: secondsPer10k x alerts seen / 10,000. */
  budget_s: number;
  /** The filter's time over that budget (0.1: a tenth of what all filters together may take). */
  share: number | null;
  /** The share it may take: its configured share, else 1 / the enabled filters. */
  allowed_share: number;
  over_share: boolean;
  yield_per_10k: number | null;
  over_yield_average: boolean;
  over_yield_max: boolean;
}

export function allowedShare(limits: FilterBudgetLimits, filterName: string, enabledFilters: number): number {
  const configured = limits.shares[filterName];
  return configured !== undefined ? configured : 1 / Math.max(1, enabledFilters);
}

export function budgetFigures(
  counts: Pick<BudgetWindowCounts, 'alerts_seen' | 'alerts_passed' | 'time_s' | 'enabled_filters'>,
  limits: FilterBudgetLimits,
  filterName: string,
): BudgetFigures {
  const budget = (limits.secondsPer10k * counts.alerts_seen) / 10_000;
  const share = counts.alerts_seen > 0 ? counts.time_s / budget : null;
  const allowed = allowedShare(limits, filterName, counts.enabled_filters);
  const yieldPer10k = counts.alerts_seen > 0 ? (counts.alerts_passed * 10_000) / counts.alerts_seen : null;
  return {
    budget_s: budget,
    share,
    allowed_share: allowed,
    over_share: share !== null && share > allowed,
    yield_per_10k: yieldPer10k,
    over_yield_average: yieldPer10k !== null && yieldPer10k > limits.yieldAveragePer10k,
    over_yield_max: yieldPer10k !== null && yieldPer10k > limits.yieldMaxPer10k,
  };
}

/** The start of the window holding `at` (windows of `seconds`, counted from the Unix epoch). */
export function windowStartOf(at: Date, seconds: number): Date {
  const ms = seconds * 1000;
  return new Date(Math.floor(at.getTime() / ms) * ms);
}

/** Rubin's dayObs: an observing night runs from 12:00 UTC to 12:00 UTC the next day. */
export function nightStartOf(at: Date): Date {
  const day = 86_400_000;
  const noon = 43_200_000;
  return new Date(Math.floor((at.getTime() - noon) / day) * day + noon);
}

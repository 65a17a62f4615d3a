// What a backtest's reviewer reads (issue #19 pt 3): built by apps/pipeline/src/backtest/results.ts from the
// loci's outcomes, sent as a backtest's `results` and drawn by the web app's Backtest panel.

export interface TagCounts {
  /** Loci given the tag that night, and alert-steps that gave it (each one a stream message). */
  loci: number;
  alerts: number;
}

export interface BacktestResults {
  loci_replayed: number;
  steps: number;
  tagged_loci: number;
  nights: Array<{ night: string; steps: number; loci_tagged: number; alerts_tagged: number; tags: Record<string, TagCounts> }>;
  /**
   * Stream messages per night the live stream would carry: the nights' mean, scaled from the loci
   * replayed to all that matched (a capped backtest sees only part of them).
   */
  projection: { scale: number; alerts_per_night: number; by_tag: Record<string, number> };
  /** The first alert at which each locus was tagged (at most FIRST_TAGS_KEPT, by locus id). */
  first_tags: Array<{ locus_id: string; alert_id: string; mjd: number; night: string; tags: string[] }>;
  first_tags_total: number;
  errors: Array<{
    type: string;
    count: number;
    loci: number;
    example: { locus_id: string; alert_id: string; message: string; traceback: string };
  }>;
  cost: {
    per_locus_ms: { p50: number | null; p90: number | null; p99: number | null };
    per_step_ms: { mean: number | null; max: number | null };
    /** Alerts per second the pipeline ingested over the last day (else the archive's rate in the window). */
    ingest_rate_per_s: number;
    ingest_rate_source: 'last 24 hours' | 'the backtest window';
    /** The filter's share of one core at that rate (Level 2 runs each filter in one worker process). */
    projected_cpu_share: number | null;
  };
  properties: PropertySummary[];
  /**
   * The enabled filters the backtested code reads properties from (a chain, ADR 0055), replayed before it
   * at each step on the same loci: their outputs were its inputs, their results are not reported here.
   * A filter that is not public is named "a private filter", without ids. Absent from results of
   * backtests run before chains.
   */
  dependencies?: Array<{
    filter_id: string | null;
    filter_version_id: string | null;
    name: string;
    loaded: boolean;
    load_error: string | null;
  }>;
  /**
   * The filter against Level 2's budget and yields (ADR 0056), projected from the alert-steps replayed
   * (each one an alert seen): absent from results made before budgets were kept.
   */
  budget?: BacktestBudgetProjection;
}

export interface BacktestBudgetProjection {
  limits: { seconds_per_10k: number; yield_average_per_10k: number; yield_max_per_10k: number };
  /** Filters sharing the budget: those enabled, this one included. */
  enabled_filters: number;
  /** The filter's own time per 10,000 alerts, in seconds. */
  seconds_per_10k_alerts: number | null;
  projected_share: number | null;
  allowed_share: number;
  over_share: boolean;
  projected_yield_per_10k: number | null;
  over_yield_average: boolean;
  over_yield_max: boolean;
}

export type PropertySummary =
  | {
      name: string;
      loci: number;
      kind: 'number';
      min: number;
      max: number;
      mean: number;
      histogram: Array<{ from: number; to: number; count: number }>;
    }
  | { name: string; loci: number; kind: 'text'; values: Array<{ value: string; count: number }> };

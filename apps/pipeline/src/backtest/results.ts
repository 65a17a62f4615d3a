// What a backtest's reviewer reads (issue #19 pt 3), aggregated from its loci's outcomes.
import {
  type BacktestBudgetProjection,
  type BacktestResults,
  budgetFigures,
  type FilterBudgetLimits,
  type PropertySummary,
  type TagCounts,
} from '@antares/contract';

import type { LocusOutcome } from './replay.ts';

export type { BacktestResults, PropertySummary, TagCounts };

const FIRST_TAGS_KEPT = 1000;
const HISTOGRAM_BINS = 10;
const TOP_VALUES = 10;

export interface ResultsContext {
  /** Loci the search and window matched without the cap. */
  lociMatched: number;
  /** Alerts ingested over the last 24 hours. */
  alertsLastDay: number;
  /** The budget the projection is judged against, the filter's name (for a configured share) and the filters sharing it. */
  budget?: { limits: FilterBudgetLimits; filterName: string; enabledFilters: number };
}

export function aggregateResults(outcomes: LocusOutcome[], context: ResultsContext): BacktestResults {
  const nights = new Map<string, { steps: number; loci: Set<string>; alerts: number; tags: Map<string, TagCounts> }>();
  const night = (name: string) => {
    let entry = nights.get(name);
    if (!entry) nights.set(name, (entry = { steps: 0, loci: new Set(), alerts: 0, tags: new Map() }));
    return entry;
  };
  const errors = new Map<string, BacktestResults['errors'][number]>();
  let steps = 0;
  let costMs = 0;
  let maxStepMs: number | null = null;
  const perLocus: number[] = [];
  const properties = new Map<string, unknown[]>();
  for (const o of outcomes) {
    steps += o.steps;
    costMs += o.cost_ms;
    if (o.steps > 0) {
      perLocus.push(o.cost_ms);
      maxStepMs = Math.max(maxStepMs ?? 0, o.max_step_ms);
    }
    for (const [name, n] of Object.entries(o.steps_by_night)) night(name).steps += n;
    for (const [name, tags] of Object.entries(o.tagged_by_night)) {
      const entry = night(name);
      entry.loci.add(o.locus_id);
      let alerts = 0;
      for (const [tag, n] of Object.entries(tags)) {
        const counts = entry.tags.get(tag) ?? { loci: 0, alerts: 0 };
        counts.loci++;
        counts.alerts += n;
        entry.tags.set(tag, counts);
        alerts = Math.max(alerts, n);
      }
      // An alert-step that gave several tags is one alert tagged.
      entry.alerts += alerts;
    }
    for (const [type, tally] of Object.entries(o.errors)) {
      const entry = errors.get(type) ?? { type, count: 0, loci: 0, example: { locus_id: o.locus_id, ...tally.example } };
      entry.count += tally.count;
      entry.loci++;
      errors.set(type, entry);
    }
    for (const [name, value] of Object.entries(o.properties)) properties.set(name, [...(properties.get(name) ?? []), value]);
  }
  const nightList = [...nights.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, n]) => ({
      night: name,
      steps: n.steps,
      loci_tagged: n.loci.size,
      alerts_tagged: n.alerts,
      tags: Object.fromEntries([...n.tags.entries()].sort(([a], [b]) => a.localeCompare(b))),
    }));
  const scale = outcomes.length > 0 ? Math.max(1, context.lociMatched / outcomes.length) : 1;
  const nightCount = Math.max(1, nightList.length);
  const byTag: Record<string, number> = {};
  for (const n of nightList) for (const [tag, c] of Object.entries(n.tags)) byTag[tag] = (byTag[tag] ?? 0) + c.alerts;
  for (const tag of Object.keys(byTag)) byTag[tag] = round((byTag[tag] / nightCount) * scale);
  const tagged = outcomes.filter((o) => o.first_tag !== null);
  const recentRate = context.alertsLastDay / 86_400;
  const archiveRate = (steps * scale) / nightCount / 86_400;
  const rate = recentRate > 0 ? recentRate : archiveRate;
  const meanStepMs = steps > 0 ? costMs / steps : null;
  const sorted = [...perLocus].sort((a, b) => a - b);
  return {
    loci_replayed: outcomes.length,
    steps,
    tagged_loci: tagged.length,
    nights: nightList,
    projection: {
      scale: round(scale),
      alerts_per_night: round((nightList.reduce((n, x) => n + x.alerts_tagged, 0) / nightCount) * scale),
      by_tag: byTag,
    },
    first_tags: tagged.slice(0, FIRST_TAGS_KEPT).map((o) => ({ locus_id: o.locus_id, ...o.first_tag! })),
    first_tags_total: tagged.length,
    errors: [...errors.values()].sort((a, b) => b.count - a.count),
    cost: {
      per_locus_ms: { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99) },
      per_step_ms: { mean: meanStepMs === null ? null : round(meanStepMs), max: maxStepMs === null ? null : round(maxStepMs) },
      ingest_rate_per_s: round(rate),
      ingest_rate_source: recentRate > 0 ? 'last 24 hours' : 'the backtest window',
      projected_cpu_share: meanStepMs === null ? null : round((rate * meanStepMs) / 1000),
    },
    properties: [...properties.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, values]) => summarize(name, values)),
    ...(context.budget ? { budget: projectBudget(steps, nightList, costMs, context.budget) } : {}),
  };
}

/**
 * The share of the budget and the yield Level 2 would see: every alert-step is an alert seen, its time
 * the filter's, and an alert-step that tagged the locus a passing alert. A replayed locus has at least
 * two measurements at each step, while live Level 2 also sees alerts of loci it does not run on, so the
 * projection errs on the costly side.
 */
function projectBudget(
  steps: number,
  nights: BacktestResults['nights'],
  costMs: number,
  budget: NonNullable<ResultsContext['budget']>,
): BacktestBudgetProjection {
  const passed = nights.reduce((n, x) => n + x.alerts_tagged, 0);
  const counts = { alerts_seen: steps, alerts_passed: passed, time_s: costMs / 1000, enabled_filters: budget.enabledFilters };
  const f = budgetFigures(counts, budget.limits, budget.filterName);
  const { limits } = budget;
  return {
    limits: {
      seconds_per_10k: limits.secondsPer10k,
      yield_average_per_10k: limits.yieldAveragePer10k,
      yield_max_per_10k: limits.yieldMaxPer10k,
    },
    enabled_filters: budget.enabledFilters,
    seconds_per_10k_alerts: steps > 0 ? round((costMs / 1000 / steps) * 10_000) : null,
    projected_share: f.share === null ? null : round(f.share),
    allowed_share: round(f.allowed_share),
    over_share: f.over_share,
    projected_yield_per_10k: f.yield_per_10k === null ? null : round(f.yield_per_10k),
    over_yield_average: f.over_yield_average,
    over_yield_max: f.over_yield_max,
  };
}

function summarize(name: string, values: unknown[]): PropertySummary {
  const numbers = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (numbers.length === values.length && numbers.length > 0) {
    const min = Math.min(...numbers);
    const max = Math.max(...numbers);
    const width = (max - min) / HISTOGRAM_BINS || 1;
    const bins = max === min ? 1 : HISTOGRAM_BINS;
    const histogram = Array.from({ length: bins }, (_, i) => ({
      from: round(min + i * width),
      to: round(min + (i + 1) * width),
      count: 0,
    }));
    for (const v of numbers) histogram[Math.min(bins - 1, Math.floor((v - min) / width))].count++;
    if (bins === 1) histogram[0].to = round(max);
    const mean = numbers.reduce((a, b) => a + b, 0) / numbers.length;
    return { name, loci: values.length, kind: 'number', min, max, mean: round(mean), histogram };
  }
  const counts = new Map<string, number>();
  for (const v of values) {
    const key = typeof v === 'string' ? v : JSON.stringify(v);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, TOP_VALUES);
  return { name, loci: values.length, kind: 'text', values: top.map(([value, count]) => ({ value, count })) };
}

/** Nearest-rank percentile of sorted values; null for none. */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]);
}

/** Six significant digits: shares of a core can be tiny, counts large. */
function round(x: number): number {
  return x === 0 || !Number.isFinite(x) ? x : Number(x.toPrecision(6));
}

import { describe, expect, it } from 'vitest';

import {
  BUDGET_HISTOGRAM_BUCKETS,
  budgetBucketOf,
  budgetFigures,
  budgetQuantile,
  DEFAULT_FILTER_BUDGET,
  emptyBudgetHistogram,
  nightStartOf,
  windowStartOf,
} from './filter-budget.ts';

describe('filter budgets', () => {
  it('reads quantiles from the fixed histogram within a bucket (26%) of the true ones', () => {
    const histogram = emptyBudgetHistogram();
    // 98 loci at 2 ms, 2 at 400 ms: the median is 2 ms and the 99th percentile 400 ms.
    for (let i = 0; i < 98; i++) histogram[budgetBucketOf(0.002)]++;
    for (let i = 0; i < 2; i++) histogram[budgetBucketOf(0.4)]++;
    const p50 = budgetQuantile(histogram, 0.5)!;
    const p99 = budgetQuantile(histogram, 0.99)!;
    expect(p50 / 0.002).toBeGreaterThan(10 ** -0.1);
    expect(p50 / 0.002).toBeLessThan(10 ** 0.1);
    expect(p99 / 0.4).toBeGreaterThan(10 ** -0.1);
    expect(p99 / 0.4).toBeLessThan(10 ** 0.1);
    expect(budgetQuantile(emptyBudgetHistogram(), 0.5)).toBeNull();
    // Below 10 us and above 100 s go to the end buckets.
    expect(budgetBucketOf(0)).toBe(0);
    expect(budgetBucketOf(Number.NaN)).toBe(0);
    expect(budgetBucketOf(1e6)).toBe(BUDGET_HISTOGRAM_BUCKETS - 1);
    expect(budgetBucketOf(1e-5)).toBe(1);
  });

  it('judges a window by its share of the budget for the alerts seen and its yield per 10,000 alerts', () => {
    // 10,000 alerts seen: the budget is 30 s; 9 s is 30% of it, over a quarter (4 filters enabled).
    const over = budgetFigures({ alerts_seen: 10_000, alerts_passed: 150, time_s: 9, enabled_filters: 4 }, DEFAULT_FILTER_BUDGET, 'f');
    expect(over).toMatchObject({ budget_s: 30, allowed_share: 0.25, over_share: true, yield_per_10k: 150 });
    expect(over.share).toBeCloseTo(0.3);
    expect(over.over_yield_average && over.over_yield_max).toBe(true);
    // A configured share for the filter replaces the fair one.
    const limits = { ...DEFAULT_FILTER_BUDGET, shares: { f: 0.5 } };
    expect(budgetFigures({ alerts_seen: 10_000, alerts_passed: 30, time_s: 9, enabled_filters: 4 }, limits, 'f')).toMatchObject({
      allowed_share: 0.5,
      over_share: false,
      yield_per_10k: 30,
      over_yield_average: true,
      over_yield_max: false,
    });
    // No alerts seen: nothing to judge.
    expect(budgetFigures({ alerts_seen: 0, alerts_passed: 0, time_s: 0, enabled_filters: 1 }, limits, 'g')).toMatchObject({
      share: null,
      over_share: false,
      yield_per_10k: null,
    });
  });

  it('starts windows on their length and nights at 12:00 UTC (dayObs)', () => {
    expect(windowStartOf(new Date('2026-12-02T07:59:59Z'), 3600).toISOString()).toBe('2026-12-02T07:00:00.000Z');
    expect(windowStartOf(new Date('2026-12-02T07:59:59Z'), 60).toISOString()).toBe('2026-12-02T07:59:00.000Z');
    expect(nightStartOf(new Date('2026-12-02T07:59:59Z')).toISOString()).toBe('2026-12-01T12:00:00.000Z');
    expect(nightStartOf(new Date('2026-12-02T12:00:00Z')).toISOString()).toBe('2026-12-02T12:00:00.000Z');
  });
});

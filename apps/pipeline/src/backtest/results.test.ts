import { DEFAULT_FILTER_BUDGET } from '@antares/contract';
import { describe, expect, it } from 'vitest';

import type { LocusOutcome } from './replay.ts';
import { aggregateResults } from './results.ts';

const outcome = (id: string, steps: number, costMs: number, tagged: number): LocusOutcome => ({
  locus_id: id,
  steps,
  cost_ms: costMs,
  max_step_ms: costMs / steps,
  first_tag: tagged > 0 ? { alert_id: `${id}-a`, mjd: 61000, night: '2025-11-21', tags: ['t'] } : null,
  tags: tagged > 0 ? ['t'] : [],
  steps_by_night: { '2025-11-21': steps },
  tagged_by_night: tagged > 0 ? { '2025-11-21': { t: tagged } } : {},
  errors: {},
  properties: {},
});

describe('a backtest report against the budget', () => {
  it('projects the share of the budget and the yield per 10,000 alerts from the alert-steps replayed', () => {
    // 1,000 alert-steps taking 6 s in all: 60 s per 10,000 alerts, twice the whole budget of 30 s.
    // 30 of them tagged: 300 per 10,000, over both the average (20) and the most (100).
    const outcomes = Array.from({ length: 10 }, (_, i) => outcome(`L${i}`, 100, 600, 3));
    const results = aggregateResults(outcomes, {
      lociMatched: 10,
      alertsLastDay: 0,
      budget: { limits: DEFAULT_FILTER_BUDGET, filterName: 'mine', enabledFilters: 4 },
    });
    expect(results.budget).toEqual({
      limits: { seconds_per_10k: 30, yield_average_per_10k: 20, yield_max_per_10k: 100 },
      enabled_filters: 4,
      seconds_per_10k_alerts: 60,
      projected_share: 2,
      allowed_share: 0.25,
      over_share: true,
      projected_yield_per_10k: 30 * (10_000 / 1000),
      over_yield_average: true,
      over_yield_max: true,
    });
    // A cheap, quiet filter with a share of its own fits.
    const quiet = aggregateResults([outcome('Q', 10_000, 1000, 0)], {
      lociMatched: 1,
      alertsLastDay: 0,
      budget: { limits: { ...DEFAULT_FILTER_BUDGET, shares: { mine: 0.05 } }, filterName: 'mine', enabledFilters: 40 },
    });
    expect(quiet.budget?.projected_share).toBeCloseTo(1 / 30, 6);
    expect(quiet.budget).toMatchObject({ allowed_share: 0.05, over_share: false, projected_yield_per_10k: 0 });
    expect(aggregateResults([], { lociMatched: 0, alertsLastDay: 0 }).budget).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';

import { budgetBar, projectionTexts, runnerStateText, windowText, yieldText } from './budget-view';

const hour = {
  start: '2026-12-02T07:00:00.000Z',
  seconds: 3600,
  current: true,
  alerts_seen: 10_000,
  loci_run: 4000,
  alerts_passed: 25,
  time_s: 9,
  p50_ms: 1.2,
  p99_ms: 8,
  share: 0.3,
  allowed_share: 0.25,
  over_share: true,
  yield_per_10k: 25,
  over_yield: false,
};

describe('budget figures on the runner pages', () => {
  it('draws a share as a bar of the whole budget, red over its own share, amber close to it', () => {
    expect(budgetBar(0.3, 0.25)).toEqual({
      percent: 30,
      allowedPercent: 25,
      variant: 'danger',
      label: '30.0 % of the budget (its share: 25.0 %)',
    });
    expect(budgetBar(0.22, 0.25).variant).toBe('warning');
    expect(budgetBar(0.1, 0.25).variant).toBe('success');
    // Over the whole budget: the bar is full.
    expect(budgetBar(2.5, 1).percent).toBe(100);
    expect(budgetBar(null, 0.5)).toMatchObject({ percent: 0, variant: 'secondary', label: 'n/a of the budget (its share: 50.0 %)' });
  });

  it('says whether a filter runs, and since when and why it was paused for its budget', () => {
    expect(runnerStateText({ state: 'running', paused_at: null, paused_reason: null })).toBe('Running');
    expect(runnerStateText({ state: 'paused', paused_at: null, paused_reason: null })).toBe('Paused by an admin');
    expect(runnerStateText({ state: 'paused_for_budget', paused_at: '2026-12-02T08:04:00.000Z', paused_reason: 'its time was over' })).toBe(
      'Paused for its budget since 2026-12-02 08:04:00 (UTC): its time was over',
    );
  });

  it('names the window and states the yield against its limit', () => {
    expect(windowText(hour, 'hour')).toBe('this window (60 min)');
    expect(windowText({ ...hour, current: false }, 'night')).toBe('night from 2026-12-02 07:00:00 (UTC)');
    expect(windowText(null, 'hour')).toBe('no window yet');
    expect(yieldText(hour, 100)).toBe('25 per 10,000 (limit 100)');
    expect(yieldText({ ...hour, yield_per_10k: 1234.567 }, 20)).toBe('1,230 per 10,000 (limit 20)');
    expect(yieldText(null, 20)).toBe('n/a');
  });

  it("states a backtest's projected share of the budget and yield against the limits", () => {
    const projection = {
      limits: { seconds_per_10k: 30, yield_average_per_10k: 20, yield_max_per_10k: 100 },
      enabled_filters: 4,
      seconds_per_10k_alerts: 12.3456,
      projected_share: 0.41152,
      allowed_share: 0.25,
      over_share: true,
      projected_yield_per_10k: 35,
      over_yield_average: true,
      over_yield_max: false,
    };
    expect(projectionTexts(projection)).toEqual({
      share:
        'Projected: 12.3 s per 10,000 alerts, 41.2 % of the 30 s all enabled filters may take (its share: 25.0 %, with 4 filters): over its share.',
      yield: 'Projected yield: 35 passing alerts per 10,000 (asked: 20 on average, 100 at most): over the average.',
    });
    const quiet = projectionTexts({
      ...projection,
      enabled_filters: 1,
      projected_share: 0.01,
      allowed_share: 1,
      over_share: false,
      projected_yield_per_10k: 0,
      over_yield_average: false,
    });
    expect(quiet.share).toContain('(its share: 100.0 %, with 1 filter): within its share.');
    expect(quiet.yield).toBe('Projected yield: 0 passing alerts per 10,000 (asked: 20 on average, 100 at most): within both.');
  });
});

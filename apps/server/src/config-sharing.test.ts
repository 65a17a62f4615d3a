import { describe, expect, it } from 'vitest';

import { loadConfig } from './config.ts';

// The settings of ADR 0062: the protocol's line cap and a backtest's total time budget.
describe('sandbox sharing settings', () => {
  it('defaults to an 8 MiB line cap and an hour per backtest, reads both, and refuses what is not a positive number', () => {
    const defaults = loadConfig({});
    expect(defaults.filterLimits.maxLineBytes).toBe(8 << 20);
    expect(defaults.backtestBudgetMs).toBe(3_600_000);
    const config = loadConfig({ ANTARES_FILTER_MAX_LINE_MB: '0.5', ANTARES_BACKTEST_BUDGET_S: '90' });
    expect(config.filterLimits.maxLineBytes).toBe(512 << 10);
    expect(config.backtestBudgetMs).toBe(90_000);
    for (const [name, value] of [
      ['ANTARES_FILTER_MAX_LINE_MB', '0'],
      ['ANTARES_FILTER_MAX_LINE_MB', 'big'],
      ['ANTARES_BACKTEST_BUDGET_S', '-5'],
      ['ANTARES_BACKTEST_BUDGET_S', '100000'],
    ])
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(name);
  });
});

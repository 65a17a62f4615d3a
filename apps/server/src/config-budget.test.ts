import { describe, expect, it } from 'vitest';

import { loadConfig } from './config.ts';

describe('budget settings', () => {
  it('defaults to RTN-090 figures and reads the settings, refusing shares that are not fractions by name', () => {
    expect(loadConfig({}).filterBudget).toEqual({
      secondsPer10k: 30,
      yieldAveragePer10k: 20,
      yieldMaxPer10k: 100,
      windowSeconds: 3600,
      pauseAfterWindows: 3,
      shares: {},
    });
    const config = loadConfig({
      ANTARES_FILTER_BUDGET_S_PER_10K: '60',
      ANTARES_FILTER_BUDGET_WINDOW_S: '600',
      ANTARES_FILTER_BUDGET_PAUSE_WINDOWS: '2',
      ANTARES_FILTER_BUDGET_SHARES: '{"Big filter": 0.4}',
      ANTARES_ADMIN_CHAT_CHANNEL: '#antares-admins',
    });
    expect(config.filterBudget).toMatchObject({
      secondsPer10k: 60,
      windowSeconds: 600,
      pauseAfterWindows: 2,
      shares: { 'Big filter': 0.4 },
    });
    expect(config.adminChatChannel).toBe('#antares-admins');
    for (const shares of ['{"x": 2}', '[0.5]', 'not json', '{"x": "half"}'])
      expect(() => loadConfig({ ANTARES_FILTER_BUDGET_SHARES: shares })).toThrow(
        'Invalid configuration: ANTARES_FILTER_BUDGET_SHARES: a JSON object of filter names and shares between 0 and 1',
      );
    expect(() => loadConfig({ ANTARES_FILTER_BUDGET_WINDOW_S: '0' })).toThrow(/ANTARES_FILTER_BUDGET_WINDOW_S/);
  });
});

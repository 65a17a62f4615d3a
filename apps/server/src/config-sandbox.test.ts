import { describe, expect, it } from 'vitest';

import { loadConfig } from './config.ts';

describe('sandbox uid range and memory cgroup settings', () => {
  it('defaults to 200000-265535 and auto, reads both, and refuses what the launcher could not use', () => {
    expect(loadConfig({}).filterLimits).toMatchObject({ uidRange: '200000-265535', memoryCgroup: 'auto' });
    const config = loadConfig({ ANTARES_SANDBOX_UID_RANGE: '300000-300099', ANTARES_FILTER_CGROUP: '/sys/fs/cgroup/antares' });
    expect(config.filterLimits).toMatchObject({ uidRange: '300000-300099', memoryCgroup: '/sys/fs/cgroup/antares' });
    expect(loadConfig({ ANTARES_FILTER_CGROUP: 'off' }).filterLimits.memoryCgroup).toBe('off');
    for (const range of ['300000', '300000-', 'a-b', '300000-200000', '0-999', '1000-4294967295'])
      expect(() => loadConfig({ ANTARES_SANDBOX_UID_RANGE: range })).toThrow(/ANTARES_SANDBOX_UID_RANGE/);
    for (const cgroup of ['on', 'antares', 'sys/fs/cgroup'])
      expect(() => loadConfig({ ANTARES_FILTER_CGROUP: cgroup })).toThrow(
        /ANTARES_FILTER_CGROUP: must be auto, off or an absolute cgroup v2 folder/,
      );
  });
});

import { describe, expect, it } from 'vitest';

import { buildFilters, coneRadiusDegrees, initialControls, relativeMinimumMjd, sameFilters } from './search-controls';

const bounds = { min: 1, max: 50 };
const now = new Date('2024-03-31T12:00:00Z');

describe('search controls', () => {
  it('change nothing in their initial state', () => {
    const result = buildFilters([], initialControls([]), bounds, now);
    expect(result.filters).toEqual([]);
    expect(result.errors).toEqual({});
  });

  it('build a cone search from the three coordinate formats, radius in arcsec or arcmin', () => {
    for (const center of ['10.6846 41.2692', '10d41m04.5s +41d16m09s', '00:42:44.3 +41:16:09']) {
      const controls = { ...initialControls([]), cone: { center, radius: '2', unit: 'arcmin' as const } };
      const [filter] = buildFilters([], controls, bounds, now).filters;
      expect(filter.type).toBe('sky_distance');
      const field = filter.field as { distance: string; htm16: { center: string } };
      expect(field.distance).toBe(`${2 / 60} degree`);
      const [ra, dec] = field.htm16.center.split(' ').map(Number);
      expect(ra).toBeCloseTo(10.6846, 2);
      expect(dec).toBeCloseTo(41.2692, 2);
    }
    expect(coneRadiusDegrees(1, 'arcsec')).toBe(1 / 3600);
    const bad = buildFilters([], { ...initialControls([]), cone: { center: 'nowhere', radius: '1', unit: 'arcsec' } }, bounds, now);
    expect(bad.errors.center).toBeTruthy();
  });

  it('set relative time ranges and keep them equal as the clock moves', () => {
    expect(relativeMinimumMjd('LAST_DAY', now)).toBeCloseTo(60400.5 - 1, 6);
    const controls = { ...initialControls([]), latest: { choice: 'LAST_WEEK' as const, min: '', max: '' } };
    const applied = buildFilters([], controls, bounds, now).filters;
    expect(applied[0]).toMatchObject({
      type: 'range',
      field: 'properties.newest_alert_observation_time',
      options: { choice: 'LAST_WEEK' },
      text: 'Latest Alert Within: Last Week',
    });
    const later = buildFilters(applied, initialControls(applied), bounds, new Date(now.getTime() + 60_000)).filters;
    expect(sameFilters(later, applied)).toBe(true);
    const cleared = buildFilters(
      applied,
      { ...initialControls(applied), latest: { choice: 'ALL_TIME', min: '', max: '' } },
      bounds,
      now,
    ).filters;
    expect(cleared).toEqual([]);
  });

  it('apply custom MJD bounds, the measurement range, catalogs, tags and a GW id prefix', () => {
    const controls = {
      ...initialControls([]),
      first: { choice: 'CUSTOM_RANGE' as const, min: '59000', max: '' },
      measurements: [3, 20] as [number, number],
      catalogs: ['vsx'],
      tags: ['b', 'a'],
      gravWaveId: 'S2305',
    };
    const { filters } = buildFilters([], controls, bounds, now);
    expect(filters.map((f) => f.text)).toEqual([
      'First Alert Within: MJD 59000 or later',
      'Number of Measurements: 3 - 20',
      'Catalogs: vsx',
      'Tags: a, b',
      'Gravitational Wave Event: S2305',
    ]);
    expect(filters[4]).toMatchObject({ type: 'wildcard', field: 'grav_wave_events', value: 'S2305*' });
    // Typing a GW id that is already applied changes nothing (the Apply button stays hidden).
    const again = buildFilters(filters, { ...initialControls(filters), gravWaveId: 'S2305' }, bounds, now).filters;
    expect(sameFilters(again, filters)).toBe(true);
    // The full measurement range removes that filter.
    const full = buildFilters(filters, { ...initialControls(filters), measurements: [1, 50] }, bounds, now).filters;
    expect(full.some((f) => f.field === 'properties.num_mag_values')).toBe(false);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestDatabase, type TestDatabase } from './testing.ts';

// Level 2 reads every alert of the loci it runs, each with its gravitational-wave associations
// (filters' alert.grav_wave_events): the associations come from one read of alert_grav_wave by locus.
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

describe('AlertRepository.listForFiltersByLoci', () => {
  it('lists the loci’s alerts oldest first, each with its GW associations by event id, [] for none', async () => {
    const { repos } = database;
    const alert = (alert_id: string, locus_id: string, mjd: number) => ({
      alert_id,
      locus_id,
      survey: alert_id.startsWith('lsst') ? 'lsst' : 'ztf',
      mjd,
      properties: { ant_mjd: mjd },
      summary: {},
    });
    await repos.alerts.insertMany([
      alert('ztf_candidate:3', 'ANT2026gwA', 61002),
      alert('ztf_candidate:1', 'ANT2026gwA', 61000),
      alert('lsst:2', 'ANT2026gwA', 61001),
      alert('lsst:4', 'ANT2026gwB', 61003),
      alert('lsst:5', 'ANT2026gwC', 61004),
    ]);
    const association = (gracedb_id: string, alert_id: string, locus_id: string, contour_level: number) => ({
      gracedb_id,
      alert_id,
      locus_id,
      contour_level,
      contour_area: 10 * contour_level,
    });
    await repos.gravWaves.addAssociations([
      association('S2', 'ztf_candidate:1', 'ANT2026gwA', 40),
      association('S1', 'ztf_candidate:1', 'ANT2026gwA', 80),
      association('S1', 'lsst:4', 'ANT2026gwB', 20),
      association('S1', 'lsst:5', 'ANT2026gwC', 30), // a locus not asked for
    ]);
    const listed = await repos.alerts.listForFiltersByLoci(['ANT2026gwB', 'ANT2026gwA']);
    expect(listed).toEqual([
      {
        alert_id: 'ztf_candidate:1',
        locus_id: 'ANT2026gwA',
        survey: 'ztf',
        mjd: 61000,
        grav_wave_events: [
          { gracedb_id: 'S1', contour_level: 80, contour_area: 800 },
          { gracedb_id: 'S2', contour_level: 40, contour_area: 400 },
        ],
      },
      { alert_id: 'lsst:2', locus_id: 'ANT2026gwA', survey: 'lsst', mjd: 61001, grav_wave_events: [] },
      { alert_id: 'ztf_candidate:3', locus_id: 'ANT2026gwA', survey: 'ztf', mjd: 61002, grav_wave_events: [] },
      {
        alert_id: 'lsst:4',
        locus_id: 'ANT2026gwB',
        survey: 'lsst',
        mjd: 61003,
        grav_wave_events: [{ gracedb_id: 'S1', contour_level: 20, contour_area: 200 }],
      },
    ]);
    expect(await repos.alerts.listForFiltersByLoci([])).toEqual([]);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { migrate } from './migrate.ts';
import { openDatabase, type OpenedDatabase } from './open.ts';
import type { JsonObject } from './schema.ts';

// Migration 0011 on a database made before it (migrated up to 0010), which holds alerts stored with the
// old Rubin codes (detections 3, forced photometry 4 without a flag); the later migrations then run too.
// Embedded, in both passes: the test databases of the server are cloned from a fully migrated one.
const MIGRATION = '0011_rubin_survey_codes';
let database: OpenedDatabase;

const rubinFields = { lsst_diaSource_diaSourceId: '169298432598474793', lsst_diaSource_psfFlux: 1234.5, lsst_diaSource_band: 'r' };
const OLD_ALERTS: Array<{ alert_id: string; survey: string; properties: JsonObject }> = [
  {
    alert_id: 'lsst:169298432598474793',
    survey: 'lsst',
    properties: { ant_survey: 3, ant_mag: 23.2, ant_magerr: 0.1, ant_maglim: 24.1, ant_passband: 'r', ...rubinFields },
  },
  {
    alert_id: 'lsst_forced:169298432598474800',
    survey: 'lsst',
    properties: { ant_survey: 4, ant_mag: 22.9, ant_magerr: 0.2, ant_maglim: 24.0, ant_passband: 'g', lsst_diaForcedSource_psfFlux: 2000 },
  },
  {
    alert_id: 'lsst_forced:169298432598474801',
    survey: 'lsst',
    properties: { ant_survey: 4, ant_maglim: 24.3, ant_passband: 'y', lsst_diaForcedSource_psfFlux: -12 },
  },
  { alert_id: 'ztf_candidate:2552120390115015005', survey: 'ztf', properties: { ant_survey: 1, ant_mag: 19.5, ant_passband: 'R' } },
  { alert_id: 'ztf_upper_limit:ZTF21abcdefg-1234', survey: 'ztf', properties: { ant_survey: 2, ant_maglim: 20.5, ant_passband: 'g' } },
];

async function propertiesById(): Promise<Map<string, JsonObject>> {
  const rows = await database.db.selectFrom('alert').select(['alert_id', 'properties']).execute();
  return new Map(rows.map((row) => [row.alert_id, row.properties]));
}

beforeAll(async () => {
  database = await openDatabase({});
  await migrate(database.db, { until: '0010_lsst_ids' });
  for (const [i, alert] of OLD_ALERTS.entries()) {
    await sql`INSERT INTO alert (alert_id, locus_id, survey, mjd, properties, summary)
      VALUES (${alert.alert_id}, 'ANT2026rubincodes', ${alert.survey}, ${60800 + i}, ${JSON.stringify(alert.properties)}, '{"ant_mag": 20}')`.execute(
      database.db,
    );
  }
});

afterAll(async () => {
  await database?.close();
});

describe(`migration ${MIGRATION}`, () => {
  it('gives every stored Rubin alert ant_survey 4 and flags forced photometry, leaving all else as it was', async () => {
    // The first one applied to a database left at 0010; the later ones follow it.
    expect((await migrate(database.db))[0]).toBe(MIGRATION);
    const after = await propertiesById();
    const [detection, forcedMeasurement, forcedLimit, ztfDetection, ztfLimit] = OLD_ALERTS;
    expect(after.get(detection.alert_id)).toEqual({ ...detection.properties, ant_survey: 4 });
    expect(after.get(forcedMeasurement.alert_id)).toEqual({ ...forcedMeasurement.properties, ant_forced_photometry: true });
    // An insignificant forced flux stays an upper limit: no ant_mag, its ant_maglim kept.
    expect(after.get(forcedLimit.alert_id)).toEqual({ ...forcedLimit.properties, ant_forced_photometry: true });
    expect(after.get(forcedLimit.alert_id)).not.toHaveProperty('ant_mag');
    expect(after.get(ztfDetection.alert_id)).toEqual(ztfDetection.properties);
    expect(after.get(ztfLimit.alert_id)).toEqual(ztfLimit.properties);
  });

  it('is applied once: a later migrate leaves the rows and the record alone', async () => {
    const before = await propertiesById();
    expect(await migrate(database.db)).toEqual([]);
    expect(await propertiesById()).toEqual(before);
    const applied = await database.db.selectFrom('schema_migrations').select('version').where('version', '=', MIGRATION).execute();
    expect(applied).toHaveLength(1);
  });
});

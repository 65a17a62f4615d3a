import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { dateToMjd } from '@antares/astro';
import { compileLocusSearch, createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { renderCutoutPng } from '../fits/render-png.ts';
import { GwMatcher, ingestNotice } from '../gw/association.ts';
import { parseIgwnNotice, skyMapPeak } from '../gw/notice.ts';
import { type AlertPacket, decodeAvroFile, fullHistory, type LsstPacket, type ZtfPacket } from '../sources/alert-avro.ts';
import { fluxToMag } from '../stages/lsst-alerts.ts';
import { WatchMatcher } from '../stages/watch-match.ts';
import { emptyStats, ingestBatch, type IngestStats } from './ingest-batch.ts';
import { expandInputs, ingestFiles } from './ingest-files.ts';

// Every Rubin packet of ../shared/data (Fink's 7.4 and 9.0 alerts, the schema's own samples) goes through
// the whole pipeline; the expectations are read from the raw packets, not from our mapping.
const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');
const files = expandInputs([
  path.join(DATA, 'fink-broker/rubin_v7.4_fink'),
  path.join(DATA, 'fink-broker/rubin_v9.0_fink_subset'),
  path.join(DATA, 'lsst-alert_packet/schema'),
]);

let database: TestDatabase;
let stats: IngestStats;
const rubin: LsstPacket[] = [];
const sourcesById = new Map<string, Array<Record<string, unknown>>>();

const TRUSTED_FLAGS = [
  'psfFlux_flag',
  'centroid_flag',
  'pixelFlags_bad',
  'pixelFlags_offimage',
  'pixelFlags_nodataCenter',
  'pixelFlags_saturatedCenter',
  'pixelFlags_suspectCenter',
];

/** The expected Level 1 outcome, written out from the packet's own fields. */
function expectedRejection(s: Record<string, unknown>): string | null {
  if ((s.snr as number) < 5) return 'bogus: snr';
  if (s.ssObjectId !== 0 && s.ssObjectId !== null && s.ssObjectId !== undefined) return 'solar_system: ssObjectId';
  if (s.isDipole === true) return 'dipole: isDipole';
  const flag = TRUSTED_FLAGS.find((f) => s[f] === true);
  if (flag) return `flags: ${flag}`;
  return null;
}

beforeAll(async () => {
  database = await createTestDatabase();
  for (const file of files) {
    for await (const record of decodeAvroFile(file))
      if ('packet' in record && record.packet.survey === 'lsst') rubin.push(fullHistory(record.packet));
  }
  for (const p of rubin) {
    for (const s of [p.diaSource, ...p.prvDiaSources]) {
      const id = String(s.diaSourceId);
      sourcesById.set(id, [...(sourcesById.get(id) ?? []), s]);
    }
  }
  stats = await ingestFiles(database.repos, files, { batchSize: 40 });
}, 120_000);
afterAll(async () => database?.close());

describe('ingesting every Rubin packet of the shared data', () => {
  it('stores each packet or rejects it for a stated reason', () => {
    expect(rubin.length).toBe(128); // 100 (7.4) + 25 (9.0) + the 9.0, 10.0 and 11.0 schema samples
    expect(stats.packetsRead).toBe(128);
    // The 7.4 schema sample carries a Unix time as its MJD: undecodable, with the reason.
    expect(stats.undecodable.map((u) => u.reason)).toEqual([
      'Rubin alert lsst:281323062375219200 has midpointMjdTai 1480360995, which is not an MJD',
    ]);
    const expected: Record<string, number> = {};
    for (const p of rubin) {
      const reason = expectedRejection(p.diaSource);
      if (reason) expected[reason] = (expected[reason] ?? 0) + 1;
    }
    expect(stats.rejected).toEqual(expected);
    expect(Object.keys(expected).sort()).toEqual([
      'dipole: isDipole',
      'flags: pixelFlags_saturatedCenter',
      'flags: psfFlux_flag',
      'solar_system: ssObjectId',
    ]);
    const rejected = Object.values(stats.rejected).reduce((a, b) => a + b, 0);
    expect(stats.packetsStored + rejected + stats.duplicates).toBe(128);
    expect(stats.packetsStored).toBeGreaterThan(90);
  });

  it('maps every DiaSource field and the ant_* values, keeping 64-bit ids exact', async () => {
    let checked = 0;
    for (const p of rubin) {
      const alert = await database.repos.alerts.findById(`lsst:${p.diaSourceId}`);
      if (expectedRejection(p.diaSource)) {
        expect(alert, p.diaSourceId).toBeUndefined();
        continue;
      }
      expect(alert, p.diaSourceId).toBeDefined();
      const props = alert!.properties;
      expect(alert!.survey).toBe('lsst');
      // A DiaSource also comes back in later packets' histories, sometimes re-measured: the stored
      // fields must equal one of the packets' copies exactly (NaN, which JSON cannot hold, as null).
      const copies = sourcesById.get(p.diaSourceId)!;
      const stored = (s: Record<string, unknown>) =>
        Object.entries(s).every(
          ([key, value]) =>
            JSON.stringify(props[`lsst_diaSource_${key}`]) ===
            JSON.stringify(typeof value === 'number' && !Number.isFinite(value) ? null : value),
        );
      expect(copies.some(stored), p.diaSourceId).toBe(true);
      const source = copies.find(stored)!;
      expect(props.ant_mjd).toBe(source.midpointMjdTai);
      expect(props.ant_passband).toBe(source.band);
      expect(props.ant_survey).toBe(4);
      expect(props.ant_forced_photometry).toBeUndefined();
      expect(props.ant_ra).toBe(source.ra);
      const flux = Math.abs(source.psfFlux as number);
      expect(props.ant_mag as number).toBeCloseTo(31.4 - 2.5 * Math.log10(flux), 10);
      expect(props.ant_magerr as number).toBeCloseTo((1.0857362047581294 * (source.psfFluxErr as number)) / flux, 10);
      checked++;
    }
    expect(checked).toBe(stats.packetsStored + stats.duplicates); // the three schema samples share one diaSourceId
    // Ids above 2^53 are decimal strings, digit for digit.
    const first = await database.repos.alerts.findById('lsst:58804293150441522');
    expect(first!.properties.lsst_diaSource_diaSourceId).toBe('58804293150441522');
    expect(first!.properties.lsst_diaSource_diaObjectId).toBe('3677566298566426694');
  });

  it('stores forced photometry: a measurement when significant, else an upper limit', async () => {
    let measurements = 0;
    let limits = 0;
    for (const p of rubin) {
      if (expectedRejection(p.diaSource)) continue;
      const visits = new Set([p.diaSource.visit, ...p.prvDiaSources.map((s) => s.visit)]);
      for (const f of p.prvDiaForcedSources) {
        const alert = await database.repos.alerts.findById(`lsst_forced:${String(f.diaForcedSourceId)}`);
        if (visits.has(f.visit)) continue; // the same visit's DiaSource stands for it
        expect(alert, String(f.diaForcedSourceId)).toBeDefined();
        const props = alert!.properties;
        expect(props.ant_survey).toBe(4);
        expect(props.ant_forced_photometry).toBe(true);
        expect(props.ant_maglim as number).toBeCloseTo(fluxToMag(5 * (f.psfFluxErr as number)), 10);
        if ((f.psfFlux as number) / (f.psfFluxErr as number) >= 5) {
          expect(props.ant_mag as number).toBeCloseTo(fluxToMag(f.psfFlux as number), 10);
          measurements++;
        } else {
          expect(props.ant_mag).toBeUndefined();
          limits++;
        }
      }
    }
    expect(limits).toBeGreaterThan(20);
    expect(measurements).toBeGreaterThan(0);
    console.log(`forced photometry: ${measurements} measurements, ${limits} upper limits`);
  });

  it('gives loci the survey.lsst block, searchable by term, terms and exists', async () => {
    const stored = rubin.filter((p) => !expectedRejection(p.diaSource));
    for (const p of stored.filter((x) => x.diaSource.diaObjectId !== 0).slice(0, 20)) {
      const objectId = String(p.diaSource.diaObjectId);
      for (const value of [objectId, /^\d{1,15}$/.test(objectId) ? Number(objectId) : objectId]) {
        const search = compileLocusSearch({ query: { bool: { filter: { term: { 'properties.survey.lsst.dia_object_id': value } } } } });
        const { rows } = await database.repos.loci.search({ search, sort: [], limit: 10, offset: 0 });
        expect(rows.length, objectId).toBe(1);
        expect((rows[0].properties.survey as { lsst: { dia_object_id: string[] } }).lsst.dia_object_id).toContain(objectId);
      }
    }
    const ids = stored.slice(0, 5).map((p) => String(p.diaSource.diaObjectId));
    const terms = compileLocusSearch({ query: { terms: { 'properties.survey.lsst.dia_object_id': ids } } });
    expect((await database.repos.loci.search({ search: terms, sort: [], limit: 10, offset: 0 })).rows.length).toBe(5);
    const exists = compileLocusSearch({ query: { bool: { filter: { exists: { field: 'properties.survey.lsst.dia_object_id' } } } } });
    const { count } = await database.repos.loci.search({ search: exists, sort: [], limit: 1, offset: 0 });
    // A DiaSource without a DiaObject (diaObjectId 0) gives its locus no id to find it by.
    const withObject = stored.filter((p) => p.diaSource.diaObjectId !== 0 && p.diaSource.diaObjectId !== null);
    expect(withObject.length).toBeLessThan(stored.length);
    expect(count).toBe(new Set(withObject.map((p) => String(p.diaSource.diaObjectId))).size);
  });

  it("keeps each alert's three FITS cutouts, and they render", async () => {
    const p = rubin.find((x) => !expectedRejection(x.diaSource) && x.cutouts.science)!;
    const rows = await database.db.selectFrom('alert_thumbnail').selectAll().where('alert_id', '=', `lsst:${p.diaSourceId}`).execute();
    expect(rows.map((r) => r.filename).sort()).toEqual([
      `diaSource${p.diaSourceId}_diff.fits.png`,
      `diaSource${p.diaSourceId}_ref.fits.png`,
      `diaSource${p.diaSourceId}_sci.fits.png`,
    ]);
    for (const row of rows) expect(renderCutoutPng(row.cutout as Uint8Array).readUInt32BE(16)).toBeGreaterThan(0);
  });
});

describe('a ZTF and a Rubin detection of the same object', () => {
  it('share one locus whose alerts and survey block hold both surveys', async () => {
    const db = await createTestDatabase();
    try {
      let ztf: ZtfPacket | undefined;
      for await (const r of decodeAvroFile(path.join(DATA, 'ztf-avro-alert/samples/1661382530015060001_v3.5_ZTF18aaxjdyr.avro')))
        if ('packet' in r && r.packet.survey === 'ztf') ztf = r.packet;
      const template = rubin.find((p) => !expectedRejection(p.diaSource) && p.prvDiaSources.length > 0)!;
      // The Rubin detection lands 0.4" from the ZTF position, a year later.
      const ra = (ztf!.candidate.ra as number) + 0.4 / 3600 / Math.cos(((ztf!.candidate.dec as number) * Math.PI) / 180);
      const moved: AlertPacket = {
        ...template,
        prvDiaSources: [],
        prvDiaForcedSources: [],
        diaSource: { ...template.diaSource, ra, dec: ztf!.candidate.dec, midpointMjdTai: (ztf!.candidate.jd as number) - 2400000.5 + 365 },
      };
      const stats = emptyStats();
      await ingestBatch(db.repos, [ztf!], stats);
      await ingestBatch(db.repos, [moved], stats);
      expect(stats.lociCreated).toBe(1);
      const ztfAlert = await db.repos.alerts.findById(`ztf_candidate:${ztf!.candid}`);
      const lsstAlert = await db.repos.alerts.findById(`lsst:${template.diaSourceId}`);
      expect(lsstAlert!.locus_id).toBe(ztfAlert!.locus_id);
      const locus = await db.repos.loci.findById(ztfAlert!.locus_id);
      const survey = locus!.properties.survey as { ztf: { id: string[] }; lsst: { dia_object_id: string[] } };
      expect(survey.ztf.id).toEqual([ztf!.objectId]);
      expect(survey.lsst.dia_object_id).toEqual([String(template.diaSource.diaObjectId)]);
      const surveys = new Set((await db.repos.alerts.listByLocus(ztfAlert!.locus_id)).map((a) => a.survey));
      expect([...surveys].sort()).toEqual(['lsst', 'ztf']);
    } finally {
      await db.close();
    }
  });
});

describe('Rubin alerts downstream: watch lists and gravitational waves', () => {
  it('match watched objects and associate with an event, like ZTF alerts', async () => {
    const db = await createTestDatabase();
    try {
      const notice = parseIgwnNotice(JSON.parse(readFileSync(path.join(DATA, 'fink-mm/lvk/MS230518e_INITIAL_mock.json'), 'utf8')));
      await ingestNotice(db.repos, notice);
      const peak = skyMapPeak(notice.skymap!);
      const eventMjd = dateToMjd(new Date(notice.event_datetime!));
      const [a, b] = rubin.filter((p) => !expectedRejection(p.diaSource));
      // One alert at the event's most probable position a day after it; one elsewhere, on a watched object.
      const atPeak: AlertPacket = {
        ...a,
        prvDiaSources: [],
        prvDiaForcedSources: [],
        diaSource: { ...a.diaSource, ra: peak.ra, dec: peak.dec, midpointMjdTai: eventMjd + 1 },
      };
      const user = (await db.repos.users.create({ username: 'watcher', email: 'w@example.org', name: 'W', password_hash: 'x' }))!;
      await db.repos.watchLists.create({ user_id: user.user_id, name: 'Rubin field', description: '', slack_channel: '#rubin' }, [
        { ra: b.diaSource.ra as number, dec: b.diaSource.dec as number, radius: 2 / 3600, comment: 'b' },
      ]);
      const stats = emptyStats();
      await ingestBatch(db.repos, [atPeak, b], stats, { gw: new GwMatcher(), watch: new WatchMatcher('http://antares.test') });
      expect(stats.packetsStored).toBe(2);
      const peakAlert = await db.repos.alerts.findById(`lsst:${a.diaSourceId}`);
      expect((peakAlert!.grav_wave_events as Array<{ gracedb_id: string }>).map((e) => e.gracedb_id)).toEqual(['MS230518e']);
      const watchedLocus = (await db.repos.alerts.findById(`lsst:${b.diaSourceId}`))!.locus_id;
      const watched = await db.db
        .selectFrom('locus')
        .select(['watch_object_ids'])
        .where('locus_id', '=', watchedLocus)
        .executeTakeFirstOrThrow();
      expect(watched.watch_object_ids.length).toBe(1);
      const pending = await db.db.selectFrom('chat_outbox').select(['channel', 'text']).execute();
      expect(pending).toEqual([
        {
          channel: '#rubin',
          text: expect.stringMatching(
            new RegExp(
              `^Watch list \\*Rubin field\\*: object "b" .* new alert on <http://antares.test/loci/ANT\\S+\\|ANT\\S+>: ${String(b.diaSource.band)}-band magnitude \\d+\\.\\d\\d at `,
            ),
          ),
        },
      ]);
    } finally {
      await db.close();
    }
  });
});

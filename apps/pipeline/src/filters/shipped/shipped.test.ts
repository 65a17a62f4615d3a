import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { angularSeparationDeg, icrsToGalactic } from '@antares/astro';
import { createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { expandInputs, ingestFiles } from '../../ingest/ingest-files.ts';
import { DEFAULT_START_MJD, planSurvey, type SimClass, simulateSurvey } from '../../simulate/index.ts';
import { M31 } from '../../simulate/m31.ts';
import { decodeAvroFile, type ZtfPacket } from '../../sources/alert-avro.ts';
import { level1 } from '../../stages/level1.ts';
import { Level2Stage } from '../level2.ts';
import { APT_INSTALL, FilterSandboxPool, missingSandboxPrerequisites } from '../pool/index.ts';
import { SHIPPED_FILTERS, shippedFilterCode } from './index.ts';
import { ensureShippedFilters, SYSTEM_USERNAME } from './seed.ts';

// The shipped filters end to end: seeded into a fresh database, run by Level 2 while the real ZTF packets
// of ../shared/data are ingested. What each locus should get is worked out here from the packets' own
// fields (Level 1 decides what is stored), not by running the filters' logic again.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `shipped filter tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const SHARED_DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../../shared/data');
const SNR_PER_MAG_ERR = 2.5 / Math.LN10;
type Row = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const jdOf = (r: Row) => r.jd as number;

/** What Level 1 lets through of one ZTF object: its detections (by candid) and upper limits. */
interface StoredObject {
  detections: Map<string, Row>;
  limits: Map<string, Row>;
}

/**
 * The rows each ZTF object keeps, as the pipeline stores them: packets whose candidate passes Level 1,
 * in time order (a packet repeating a stored candidate is a duplicate), the first copy of a row winning.
 */
function storedObjects(packets: ZtfPacket[]): Map<string, StoredObject> {
  const objects = new Map<string, StoredObject>();
  const triggers = new Set<string>();
  const accepted = packets.filter((p) => level1(p.candidate).passed).sort((a, b) => jdOf(a.candidate) - jdOf(b.candidate));
  for (const p of accepted) {
    if (triggers.has(String(p.candidate.candid))) continue;
    triggers.add(String(p.candidate.candid));
    const o = objects.get(p.objectId) ?? { detections: new Map(), limits: new Map() };
    objects.set(p.objectId, o);
    for (const row of [p.candidate, ...p.prvCandidates]) {
      if (row.candid === null || row.candid === undefined) {
        if (!o.limits.has(String(row.pid))) o.limits.set(String(row.pid), row);
      } else if ((row === p.candidate || level1(row).passed) && !o.detections.has(String(row.candid))) {
        o.detections.set(String(row.candid), row);
      }
    }
  }
  return objects;
}

/** Objects merged per locus: two ZTF ids can name one position (different fields or readout channels). */
function storedLoci(objects: Map<string, StoredObject>, loci: LocusRows): Map<string, StoredObject> {
  const out = new Map<string, StoredObject>();
  for (const locus of loci) {
    const merged: StoredObject = { detections: new Map(), limits: new Map() };
    for (const id of locus.ztf_object_ids) {
      const o = objects.get(id);
      if (!o) continue;
      for (const [k, v] of o.detections) if (!merged.detections.has(k)) merged.detections.set(k, v);
      for (const [k, v] of o.limits) merged.limits.set(`${id}-${k}`, v);
    }
    out.set(locus.locus_id, merged);
  }
  return out;
}

/** The expected tags of one stored object, from its rows: the newest detection triggers. */
function expectedTags(o: StoredObject, position: { ra: number; dec: number }): Set<string> {
  const tags = new Set<string>();
  const dets = [...o.detections.values()].sort((a, b) => jdOf(a) - jdOf(b));
  if (dets.length < 2) return tags; // Level 2 needs two measurements
  const t = dets.at(-1)!;
  const sigma = num(t.sigmapsf)!;
  const [distpsnr1, sgscore1, distnr, rb, drb] = [t.distpsnr1, t.sgscore1, t.distnr, t.rb, t.drb].map((v) => num(v) ?? -999);
  // 't'/'1' in ZTF packets; the 2016 commissioning packets carry the number 1.
  const positive = (r: Row) => r.isdiffpos === 't' || r.isdiffpos === '1' || r.isdiffpos === 1 || r.isdiffpos === true;
  const threshold: Record<number, number> = { 1: 50, 2: 55 };
  if (dets.some((r) => threshold[r.fid as number] !== undefined && SNR_PER_MAG_ERR / (r.sigmapsf as number) > threshold[r.fid as number]))
    tags.add('high_snr');
  if (Math.abs(icrsToGalactic(position.ra, position.dec).b) >= 10 && distpsnr1 >= 0 && distpsnr1 <= 5 && sgscore1 >= 0 && sgscore1 < 0.5)
    tags.add('extragalactic');
  if (
    positive(t) &&
    distnr >= 0 &&
    distnr <= 0.5 &&
    distpsnr1 >= 0 &&
    distpsnr1 <= 1 &&
    sgscore1 >= 0 &&
    sgscore1 < 0.5 &&
    rb >= 0.65 &&
    (drb <= 0 || drb >= 0.8)
  )
    tags.add('nuclear_transient');
  const counts = [1, 2, 3].map((fid) => dets.filter((r) => r.fid === fid).length);
  if (Math.max(...counts) >= 3) tags.add('lc_feature_extractor');
  // REFITT: young, few, all positive, rising in the trigger's band, SNR >= 10, real, no star or asteroid.
  const firstJd = Math.min(jdOf(dets[0]), num(t.jdstarthist) ?? Infinity);
  const earlier = dets.slice(0, -1).filter((r) => r.fid === t.fid);
  const limits = [...o.limits.values()].filter((r) => r.fid === t.fid).map((r) => r.diffmaglim as number);
  const rising =
    earlier.length > 0
      ? (earlier[0].magpsf as number) - (t.magpsf as number) > Math.hypot(earlier[0].sigmapsf as number, sigma)
      : limits.some((l) => l > (t.magpsf as number));
  const star = distpsnr1 >= 0 && distpsnr1 <= 1 && sgscore1 > 0.5;
  const asteroid = (num(t.ssdistnr) ?? -999) >= 0 && (num(t.ssdistnr) ?? -999) <= 5;
  if (
    SNR_PER_MAG_ERR / sigma >= 10 &&
    (drb <= 0 || drb >= 0.5) &&
    !star &&
    !asteroid &&
    dets.every(positive) &&
    jdOf(t) - firstJd <= 10 &&
    Math.max(dets.length, num(t.ndethist) ?? 0) <= 15 &&
    rising
  )
    tags.add('refitt_newsources_snrcut');
  return tags;
}

/**
 * The Rubin tags of each locus whose newest alert (Level 2's trigger in a single batch) is a Rubin
 * detection, from its stored alerts: high_snr above psfFlux / psfFluxErr 200, rubin_quality_transient.
 */
async function expectedRubinTags(database: TestDatabase): Promise<Map<string, Set<string>>> {
  const alerts = await database.db.selectFrom('alert').select(['alert_id', 'locus_id', 'mjd', 'properties']).orderBy('mjd').execute();
  const byLocus = new Map<string, typeof alerts>();
  for (const a of alerts) byLocus.set(a.locus_id, [...(byLocus.get(a.locus_id) ?? []), a]);
  const out = new Map<string, Set<string>>();
  for (const [locusId, rows] of byLocus) {
    const trigger = rows.at(-1)!;
    const measured = rows.filter((a) => typeof a.properties.ant_mag === 'number');
    if (!trigger.alert_id.startsWith('lsst:') || measured.length < 2) continue;
    const p = (name: string) => trigger.properties[`lsst_diaSource_${name}`];
    const [flux, err, reliability] = [p('psfFlux'), p('psfFluxErr'), p('reliability')].map((v) => num(v) ?? NaN);
    const tags = new Set<string>();
    if (err > 0 && flux / err > 200) tags.add('high_snr');
    const flags = [
      'shape_flag',
      'psfFlux_flag_edge',
      'pixelFlags_edge',
      'pixelFlags_cr',
      'pixelFlags_interpolatedCenter',
      'pixelFlags_streak',
    ];
    const detections = rows.filter((a) => a.alert_id.startsWith('lsst:'));
    if (
      reliability >= 0.9 &&
      flux > 0 &&
      p('isNegative') !== true &&
      p('isDipole') !== true &&
      flux / err >= 10 &&
      flags.every((f) => p(f) !== true) &&
      detections.length >= 2 &&
      trigger.mjd - detections[0].mjd <= 10
    )
      tags.add('rubin_quality_transient');
    out.set(locusId, tags);
  }
  return out;
}

/** Elliptical radius in M31's D25 ellipse, from separation and position angle on the sphere. */
function m31Radius(ra: number, dec: number): number {
  const rad = Math.PI / 180;
  const s = angularSeparationDeg(M31.ra, M31.dec, ra, dec);
  const pa = Math.atan2(
    Math.sin((ra - M31.ra) * rad) * Math.cos(dec * rad),
    Math.cos(M31.dec * rad) * Math.sin(dec * rad) - Math.sin(M31.dec * rad) * Math.cos(dec * rad) * Math.cos((ra - M31.ra) * rad),
  );
  return Math.hypot((s * Math.cos(pa - M31.paDeg * rad)) / M31.semiMajorDeg, (s * Math.sin(pa - M31.paDeg * rad)) / M31.semiMinorDeg);
}

async function allLoci(database: TestDatabase) {
  return database.db.selectFrom('locus').select(['locus_id', 'ra', 'dec', 'tags', 'properties', 'ztf_object_ids']).execute();
}
type LocusRows = Awaited<ReturnType<typeof allLoci>>;

describe.skipIf(missing.length > 0)('the shipped filters', () => {
  let database: TestDatabase;
  let pool: FilterSandboxPool;
  const packets: ZtfPacket[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new FilterSandboxPool({ maxWorkers: 6, slotOffset: 300 });
    const files = expandInputs([SHARED_DATA]);
    for (const file of files)
      for await (const r of decodeAvroFile(file)) if ('packet' in r && r.packet.survey === 'ztf') packets.push(r.packet);
  });
  afterAll(async () => {
    await pool?.close();
    await database?.close();
  });

  it('are installed public and enabled, owned by an account nobody can log in to, with their tags', async () => {
    const { repos } = database;
    const results = await ensureShippedFilters(repos);
    expect(results.map((r) => [r.name, r.action])).toEqual(SHIPPED_FILTERS.map((f) => [f.name, 'created']));
    const owner = (await repos.users.findByUsername(SYSTEM_USERNAME))!;
    expect(owner.password_hash.startsWith('$')).toBe(false); // not an argon2 hash: no password matches
    expect(owner.admin).toBe(false);
    const running = await repos.filters.listForPipeline();
    expect(running.map((f) => f.name)).toEqual([...SHIPPED_FILTERS].sort((a, b) => a.priority - b.priority).map((f) => f.name));
    for (const f of running) {
      const filter = (await repos.filters.findById(f.filter_id))!;
      expect([filter.public, filter.user_id, filter.enabled_version_id]).toEqual([true, owner.user_id, f.version_id]);
      expect(f.code).toBe(shippedFilterCode(SHIPPED_FILTERS.find((s) => s.name === f.name)!));
      // The tag list shows each tag with the description the filter declares.
      const tag = (await repos.tags.find(f.name))!;
      expect(tag.description).toBe(SHIPPED_FILTERS.find((s) => s.name === f.name)!.tagDescription);
      const version = (await repos.filters.findVersion(f.filter_id, f.version_id))!;
      expect((version.declared_outputs as { tags: string[] }).tags).toEqual([f.name]);
    }
  });

  it('tag the real ZTF loci as their packets say, through Level 2', async () => {
    const level2 = new Level2Stage(database.repos, pool);
    await level2.refresh();
    expect(level2.filterCount).toBe(SHIPPED_FILTERS.length);
    // One batch: Level 2 sees each locus once, with all of its alerts.
    await ingestFiles(database.repos, expandInputs([SHARED_DATA]), { level2, batchSize: 1000 });
    expect(level2.stats.failures).toBe(0);

    const objects = storedObjects(packets);
    const loci = await allLoci(database);
    // Every stored object is on exactly one locus.
    expect(loci.flatMap((l) => l.ztf_object_ids).sort()).toEqual([...objects.keys()].sort());
    const stored = storedLoci(objects, loci);
    const rubin = await expectedRubinTags(database);
    const expected = new Map(
      loci.map((l) => [l.locus_id, new Set([...expectedTags(stored.get(l.locus_id)!, l), ...(rubin.get(l.locus_id) ?? [])])]),
    );
    for (const { name } of SHIPPED_FILTERS) {
      const got = loci
        .filter((l) => l.tags.includes(name))
        .map((l) => l.locus_id)
        .sort();
      const want = [...expected]
        .filter(([, tags]) => tags.has(name))
        .map(([id]) => id)
        .sort();
      expect(got, name).toEqual(want);
    }
    const count = (tag: string) => [...expected.values()].filter((t) => t.has(tag)).length;
    const counted = ['high_snr', 'extragalactic', 'nuclear_transient', 'rubin_quality_transient', 'lc_feature_extractor'].map(count);
    expect(counted.every((n) => n > 0)).toBe(true);
    // Both real packets in M31 fail Level 1 (fwhm 5.24" and elongation 1.22): no M31 locus from them.
    for (const id of ['ZTF18abpvcmz', 'ZTF18acbycbx']) {
      expect(packets.find((p) => p.objectId === id)).toBeDefined();
      expect(objects.has(id)).toBe(false);
    }
  });

  it('store per-passband light-curve features on the loci', async () => {
    const loci = await allLoci(database);
    const stored = storedLoci(storedObjects(packets), loci);
    let withThree = 0;
    for (const locus of loci) {
      const dets = [...stored.get(locus.locus_id)!.detections.values()];
      if (dets.length < 2) continue;
      for (const [fid, band] of [
        [1, 'g'],
        [2, 'r'],
      ] as const) {
        const rows = dets.filter((r) => r.fid === fid).sort((a, b) => jdOf(a) - jdOf(b));
        const p = (name: string) => locus.properties[`feature_${name}_magn_${band}`];
        expect(p('n_points')).toBe(rows.length);
        if (rows.length < 2) {
          expect(p('duration')).toBeNull();
          continue;
        }
        expect(p('duration')).toBeCloseTo(jdOf(rows.at(-1)!) - jdOf(rows[0]), 6);
        const w = rows.map((r) => (r.sigmapsf as number) ** -2);
        const m = rows.map((r) => r.magpsf as number);
        const mean = m.reduce((s, v, i) => s + v * w[i], 0) / w.reduce((s, v) => s + v, 0);
        expect(p('reduced_chi2')).toBeCloseTo(m.reduce((s, v, i) => s + (v - mean) ** 2 * w[i], 0) / (rows.length - 1), 6);
        if (rows.length >= 3) withThree++;
      }
    }
    expect(withThree).toBeGreaterThan(10);
  });

  it('seed idempotently, give changed code a new enabled version and leave an admin decision alone', async () => {
    const { repos } = database;
    const before = await repos.filters.listForPipeline();
    const again = await ensureShippedFilters(repos);
    expect(again.every((r) => r.action === 'unchanged')).toBe(true);
    expect(await repos.filters.listForPipeline()).toEqual(before);
    for (const f of before) expect((await repos.filters.listVersions(f.filter_id, { sort: 'id', limit: 10, offset: 0 })).count).toBe(1);

    // A changed file: a new version, enabled; the old one disabled.
    const shipped = SHIPPED_FILTERS.find((f) => f.name === 'high_snr')!;
    const old = before.find((f) => f.name === 'high_snr')!;
    const changed = `${shippedFilterCode(shipped)}\n# changed\n`;
    const [result] = await ensureShippedFilters(repos, { filters: [{ ...shipped, code: changed }] });
    expect(result.action).toBe('new-version');
    const now = (await repos.filters.listForPipeline()).find((f) => f.name === 'high_snr')!;
    expect(now.version_id).not.toBe(old.version_id);
    expect(now.code).toBe(changed);
    expect((await repos.filters.findVersion(old.filter_id, old.version_id))!.status).toBe('DISABLED');

    // An admin disables it: the next start (same code) does not turn it back on.
    await repos.filters.transition(now.filter_id, now.version_id, 'DISABLED', 'paused by an admin');
    const [kept] = await ensureShippedFilters(repos, { filters: [{ ...shipped, code: changed }] });
    expect(kept.action).toBe('unchanged');
    expect((await repos.filters.findById(now.filter_id))!.enabled_version_id).toBeNull();
  });

  it('tag the simulated survey by what its objects really are: M31 novae in_m31, only transients young', async () => {
    const simulated = await createTestDatabase();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'antares-shipped-'));
    try {
      await ensureShippedFilters(simulated.repos);
      const level2 = new Level2Stage(simulated.repos, pool);
      await level2.refresh();
      // Seed 5: both M31 novae of these 300 objects (indexes 149 and 299) are detected in the 4 nights.
      await simulateSurvey({ objects: 300, nights: 4, seed: 5, outDir: dir, processes: 1 });
      await ingestFiles(simulated.repos, expandInputs([dir]), { level2 });
      const loci = await allLoci(simulated);
      const inside = loci.filter((l) => m31Radius(l.ra, l.dec) <= 1 && Number(l.properties.num_mag_values) >= 2);
      expect(inside.length).toBeGreaterThan(0);
      expect(
        loci
          .filter((l) => l.tags.includes('in_m31'))
          .map((l) => l.locus_id)
          .sort(),
      ).toEqual(inside.map((l) => l.locus_id).sort());
      // M31 is a galaxy: its novae sit on extended, galaxy-like light.
      for (const l of inside) expect(l.tags).toContain('extragalactic');
      // The simulator's truth: which class each object is.
      const truth = new Map(
        planSurvey({ objects: 300, nights: 4, seed: 5, startMjd: DEFAULT_START_MJD }).objects.map((o) => [o.objectId, o.cls]),
      );
      const classesOf = (tag: string) =>
        new Set(loci.filter((l) => l.tags.includes(tag)).flatMap((l) => l.ztf_object_ids.map((id) => truth.get(id))));
      const allowed: Record<string, SimClass[]> = {
        refitt_newsources_snrcut: ['SN Ia', 'SN II-P', 'Nova'], // never a variable star, a flare or an AGN
        nuclear_transient: ['AGN', 'SN Ia', 'SN II-P'],
        extragalactic: ['AGN', 'SN Ia', 'SN II-P', 'Nova'], // the novae: M31's
        in_m31: ['Nova'],
      };
      for (const [tag, classes] of Object.entries(allowed)) {
        expect(classesOf(tag).size, tag).toBeGreaterThan(0);
        for (const cls of classesOf(tag)) expect(classes, `${tag}: ${cls}`).toContain(cls);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await simulated.close();
    }
  });
});

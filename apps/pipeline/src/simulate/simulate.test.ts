import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { createTestDatabase } from '@antares/db';
import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { readFits } from '../fits/fits.ts';
import { ingestFiles } from '../ingest/ingest-files.ts';
import { decodeAvroFile, type LsstPacket } from '../sources/alert-avro.ts';
import { level1Lsst } from '../stages/level1.ts';
import { planSurvey, SIM_CLASSES, type SimulateResult, simulateSurvey } from './index.ts';
import { LSST_FLAGS, njyToMag } from './lsst-plan.ts';
import { LSST_ALERT_SCHEMA, lsstAlertType } from './lsst-schema.ts';
import { OcfWriter } from './ocf-writer.ts';
import { typeWithBigIntLongs, ZTF_ALERT_SCHEMA, ztfAlertType } from './ztf-schema.ts';

type Packet = any;

const OPTS = { objects: 150, nights: 6, seed: 7, startMjd: 61000 };
let dir: string;
let first: SimulateResult;
let second: SimulateResult;
let other: SimulateResult;
const progress: [number, number][] = [];
const packets: Packet[] = [];
/** Rubin files decoded by avsc (BigInt ids) and by the ingestion's own decoder. */
const rubinRaw: Packet[] = [];
const rubin: LsstPacket[] = [];
const ztfFiles = (r: SimulateResult) => r.files.filter((f) => basename(f).startsWith('ztf_'));
const lsstFiles = (r: SimulateResult) => r.files.filter((f) => basename(f).startsWith('lsst_'));

/** Decode a container with the writer schema embedded in it (as any consumer would). */
async function decode(path: string): Promise<Packet[]> {
  const out: Packet[] = [];
  await new Promise((resolve, reject) => {
    avro
      .createFileDecoder(path, { parseHook: (schema) => typeWithBigIntLongs(schema) })
      .on('data', (p: Packet) => out.push(p))
      .on('end', resolve)
      .on('error', reject);
  });
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'antares-sim-'));
  // Two processes (a helper child writes every other night) vs one: must not change a byte.
  first = await simulateSurvey({ ...OPTS, processes: 2, outDir: join(dir, 'a'), onProgress: (d, t) => progress.push([d, t]) });
  second = await simulateSurvey({ ...OPTS, processes: 1, outDir: join(dir, 'b') });
  other = await simulateSurvey({ ...OPTS, processes: 1, seed: 8, outDir: join(dir, 'c') });
  for (const f of ztfFiles(first)) packets.push(...(await decode(f)));
  for (const f of lsstFiles(first)) {
    rubinRaw.push(...(await decode(f)));
    for await (const r of decodeAvroFile(f)) if ('packet' in r && r.packet.survey === 'lsst') rubin.push(r.packet);
  }
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('simulateSurvey output files', () => {
  it('writes one ztf_<YYYYMMDD>_sim.avro per night, consecutive dates, and lsst_<YYYYMMDD>_sim.avro for nights with Rubin alerts', () => {
    expect(ztfFiles(first).map((f) => basename(f))).toEqual([
      'ztf_20251121_sim.avro',
      'ztf_20251122_sim.avro',
      'ztf_20251123_sim.avro',
      'ztf_20251124_sim.avro',
      'ztf_20251125_sim.avro',
      'ztf_20251126_sim.avro',
    ]);
    expect(lsstFiles(first).length).toBeGreaterThan(0);
    for (const f of lsstFiles(first)) expect(basename(f)).toMatch(/^lsst_202511(2[1-6])_sim\.avro$/);
    expect(packets.length).toBe(first.ztfPackets);
    expect(rubin.length).toBe(first.lsstPackets);
    expect(first.packets).toBe(first.ztfPackets + first.lsstPackets);
    // Objects with a packet of either survey (some ZTF objects alert only through Rubin in these nights).
    const plan = planSurvey(OPTS);
    const seen = new Set(packets.map((p) => p.objectId));
    const rubinObjects = new Set(rubin.map((p) => String(p.diaSource.diaObjectId)));
    const alerted = new Set([
      ...plan.objects.filter((o) => seen.has(o.objectId)),
      ...plan.lsst.objects.filter((o) => rubinObjects.has(String(o.diaObjectId))).map((o) => o.sim),
    ]);
    expect(first.objects).toBe(alerted.size);
    expect(progress.at(-1)).toEqual([first.packets, first.packets]);
    expect(progress.every(([d, t], i) => t === first.packets && (i === 0 || d >= progress[i - 1][0]))).toBe(true);
  });

  it('is byte-identical for the same seed (with or without a helper process), different for another', async () => {
    expect(second.files.map((f) => basename(f))).toEqual(first.files.map((f) => basename(f)));
    for (let i = 0; i < first.files.length; i++) {
      const a = await readFile(first.files[i]);
      expect(a.equals(await readFile(second.files[i])), first.files[i]).toBe(true);
    }
    for (let i = 0; i < ztfFiles(first).length; i++)
      expect((await readFile(first.files[i])).equals(await readFile(other.files[i]))).toBe(false);
  });

  it('writes the same ZTF files with Rubin left out', async () => {
    const ztfOnly = await simulateSurvey({ ...OPTS, processes: 1, lsst: false, outDir: join(dir, 'z') });
    expect(ztfOnly.files).toHaveLength(ztfFiles(first).length);
    expect(ztfOnly.lsstPackets).toBe(0);
    for (let i = 0; i < ztfOnly.files.length; i++)
      expect((await readFile(ztfOnly.files[i])).equals(await readFile(first.files[i]))).toBe(true);
  });

  it('embeds the Rubin 10.0 schema and encodes exactly as avsc would encode the whole record', async () => {
    const path = lsstFiles(first)[0];
    const header = avro.extractFileHeader(path, { decode: false })!;
    expect(JSON.parse(String(header.meta['avro.schema']))).toEqual(LSST_ALERT_SCHEMA);
    const type = lsstAlertType();
    const copy = join(dir, 'reencoded-lsst.avro');
    const writer = await OcfWriter.create(copy, JSON.stringify(LSST_ALERT_SCHEMA), header.sync as Buffer, 'null');
    for (const p of await decode(path)) await writer.append(type.toBuffer(p));
    await writer.close();
    expect((await readFile(copy)).equals(await readFile(path))).toBe(true);
  });

  it('embeds the 4.02 schema and encodes exactly as avsc would encode the whole record', async () => {
    const path = first.files[2];
    const header = avro.extractFileHeader(path, { decode: false })!;
    expect(JSON.parse(String(header.meta['avro.schema']))).toEqual(ZTF_ALERT_SCHEMA);
    // Re-encode every decoded packet with the full type and rebuild the container: same bytes.
    const type = ztfAlertType();
    const copy = join(dir, 'reencoded.avro');
    const writer = await OcfWriter.create(copy, JSON.stringify(ZTF_ALERT_SCHEMA), header.sync as Buffer, 'null');
    for (const p of await decode(path)) await writer.append(type.toBuffer(p));
    await writer.close();
    expect((await readFile(copy)).equals(await readFile(path))).toBe(true);
  });
});

describe('options', () => {
  it('can write deflate-compressed blocks, decodable by avsc', async () => {
    const res = await simulateSurvey({ objects: 30, nights: 2, seed: 1, processes: 1, codec: 'deflate', outDir: join(dir, 'd') });
    const header = avro.extractFileHeader(res.files[0], { decode: false })!;
    expect(String(header.meta['avro.codec'])).toBe('deflate');
    let n = 0;
    for (const f of res.files) n += (await decode(f)).length;
    expect(n).toBe(res.packets);
  });

  it('rejects nonsense sizes', async () => {
    await expect(simulateSurvey({ objects: -1, nights: 2, seed: 1, outDir: join(dir, 'e') })).rejects.toThrow(/objects/);
    await expect(simulateSurvey({ objects: 5, nights: 0, seed: 1, outDir: join(dir, 'e') })).rejects.toThrow(/nights/);
  });
});

describe('packets', () => {
  it('are schema 4.02 with ZTF-style ids and exact 64-bit candids', () => {
    const candids = new Set<bigint>();
    for (const p of packets) {
      expect(p.schemavsn).toBe('4.02');
      expect(p.objectId).toMatch(/^ZTF\d{2}[a-z]{7}$/);
      expect(typeof p.candid).toBe('bigint');
      expect(p.candid).toBeGreaterThan(2n ** 53n);
      expect(p.candid).toBe(p.candidate.candid);
      expect(p.candid / 1_000_000n).toBe(p.candidate.pid); // real layout: candid = pid + 6 digits
      expect(Math.floor(p.candidate.jd - 2400000.5) - 57754).toBe(p.candidate.nid); // nid: days since 2017-01-01
      candids.add(p.candid);
    }
    expect(candids.size).toBe(packets.length);
  });

  it('have sensible candidate fields', () => {
    for (const { candidate: c } of packets) {
      expect([1, 2]).toContain(c.fid);
      expect(['t', 'f']).toContain(c.isdiffpos);
      expect(c.rcid).toBeGreaterThanOrEqual(0);
      expect(c.rcid).toBeLessThanOrEqual(63);
      expect(c.dec).toBeGreaterThan(-30);
      expect(c.magpsf).toBeGreaterThan(12);
      expect(c.magpsf).toBeLessThan(c.diffmaglim + 0.5);
      expect(c.diffmaglim).toBeGreaterThanOrEqual(19.5);
      expect(c.diffmaglim).toBeLessThanOrEqual(20.8);
      expect(c.sigmapsf).toBeGreaterThan(0);
      expect(c.ssnamenr).toBeNull();
      expect(c.ndethist).toBeGreaterThanOrEqual(1);
      expect(c.ncovhist).toBeGreaterThanOrEqual(c.ndethist);
      expect(c.jdstarthist).toBeLessThanOrEqual(c.jd);
      expect(c.jdendhist).toBe(c.jd);
    }
  });

  it('carry 30 days of history in time order, strictly before the alert, with ZTF-style upper limits', () => {
    let limits = 0;
    for (const p of packets) {
      const prv = p.prv_candidates ?? [];
      for (let i = 0; i < prv.length; i++) {
        expect(prv[i].jd).toBeLessThan(p.candidate.jd);
        expect(prv[i].jd).toBeGreaterThanOrEqual(p.candidate.jd - 30);
        if (i > 0) expect(prv[i].jd).toBeGreaterThan(prv[i - 1].jd);
        expect(prv[i].diffmaglim).not.toBeNull();
        if (prv[i].candid === null) {
          limits++;
          expect(prv[i].magpsf).toBeNull();
          expect(prv[i].ra).toBeNull();
          expect(prv[i].isdiffpos).toBeNull();
        } else {
          expect(typeof prv[i].magpsf).toBe('number');
        }
      }
    }
    expect(limits).toBeGreaterThan(0);
  });

  it('jitter positions by a fraction of an arcsec so all detections of an object lie within 1"', () => {
    const byObject = new Map<string, [number, number][]>();
    for (const p of packets) {
      const pos = byObject.get(p.objectId) ?? [];
      pos.push([p.candidate.ra, p.candidate.dec]);
      for (const r of p.prv_candidates ?? []) if (r.candid !== null) pos.push([r.ra, r.dec]);
      byObject.set(p.objectId, pos);
    }
    let moved = 0;
    for (const pos of byObject.values()) {
      for (const [ra, dec] of pos) {
        const dra = (ra - pos[0][0]) * Math.cos((dec * Math.PI) / 180) * 3600;
        const ddec = (dec - pos[0][1]) * 3600;
        const sep = Math.hypot(dra, ddec);
        expect(sep).toBeLessThan(1);
        if (sep > 0.05) moved++;
      }
    }
    expect(moved).toBeGreaterThan(0);
  });

  it('have three 63x63 gzipped FITS cutouts with real ZTF file names', () => {
    for (const p of packets.slice(0, 60)) {
      const c = p.candidate;
      const stem = `candid${p.candid}`;
      expect(p.cutoutScience.fileName).toBe(`${stem}_pid${c.pid}_targ_sci.fits.gz`);
      expect(p.cutoutTemplate.fileName).toBe(`${stem}_ref.fits.gz`);
      expect(p.cutoutDifference.fileName).toBe(`${stem}_pid${c.pid}_targ_${c.isdiffpos === 't' ? 'scimref' : 'refmsci'}.fits.gz`);
      for (const cut of [p.cutoutScience, p.cutoutTemplate, p.cutoutDifference]) {
        const raw = gunzipSync(cut.stampData);
        expect(raw.length % 2880).toBe(0);
        const img = readFits(raw);
        expect([img.width, img.height, img.header.NAXIS1, img.header.NAXIS2]).toEqual([63, 63, 63, 63]);
      }
      // The difference image shows the (positive, after ZTF's flip for 'f') source at the centre.
      const diff = readFits(p.cutoutDifference.stampData).data;
      const centre = Math.max(...[-1, 0, 1].flatMap((dy) => [-1, 0, 1].map((dx) => diff[(31 + dy) * 63 + 31 + dx])));
      if (!p.candidate.nbad && p.candidate.rb >= 0.55) expect(centre).toBeGreaterThan(0);
    }
  });
});

describe('simulated population', () => {
  const plan = planSurvey(OPTS);
  const classOf = new Map(plan.objects.map((o) => [o.objectId, o]));

  it('contains every class', () => {
    const seen = new Set(packets.map((p) => classOf.get(p.objectId)!.cls));
    expect([...seen].sort()).toEqual([...SIM_CLASSES].sort());
  });

  it('makes bogus alerts fail real/bogus and real ones pass it', () => {
    let bogus = 0;
    for (const p of packets) {
      const c = p.candidate;
      if (classOf.get(p.objectId)!.cls === 'Bogus') {
        bogus++;
        expect(c.rb).toBeLessThan(0.55);
      } else {
        expect(c.rb).toBeGreaterThanOrEqual(0.55);
        expect(c.nbad).toBe(0);
        expect(c.elong).toBeLessThanOrEqual(1.1);
        expect(Math.abs(c.magdiff)).toBeLessThan(1);
      }
    }
    expect(bogus / packets.length).toBeGreaterThan(0.02);
    expect(bogus / packets.length).toBeLessThan(0.2);
  });

  it('gives type Ia light curves that brighten from first detection to peak', () => {
    let checked = 0;
    for (const obj of plan.objects.filter((o) => o.cls === 'SN Ia')) {
      const mine = packets.filter((p) => p.objectId === obj.objectId);
      if (mine.length === 0) continue;
      const last = mine[mine.length - 1];
      const dets = [...(last.prv_candidates ?? []).filter((r: Packet) => r.candid !== null), last.candidate];
      for (const fid of [1, 2]) {
        const lc = dets.filter((d) => d.fid === fid);
        const peakJd = obj.lc!.peakMjd! + 2400000.5;
        if (lc.length < 3 || lc[0].jd > peakJd - 8 || lc.at(-1).jd < peakJd - 1) continue;
        expect(Math.min(...lc.map((d) => d.magpsf))).toBeLessThan(lc[0].magpsf - 0.2);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe('Rubin alerts', () => {
  const plan = planSurvey(OPTS);

  it('decode as Rubin 10.0 packets with exact 64-bit ids', () => {
    expect(rubin.length).toBeGreaterThan(20);
    expect(rubinRaw.length).toBe(rubin.length);
    const ids = new Set<string>();
    rubin.forEach((p, i) => {
      const raw = rubinRaw[i];
      expect(p.schemaVersion).toBe('10.0');
      // avsc's BigInt and the ingestion's decimal string agree digit for digit, above 2^53.
      expect(typeof raw.diaSourceId).toBe('bigint');
      expect(raw.diaSourceId).toBeGreaterThan(2n ** 53n);
      expect(p.diaSourceId).toBe(raw.diaSourceId.toString());
      expect(p.diaSource.diaSourceId).toBe(p.diaSourceId);
      expect(raw.diaSource.diaObjectId).toBeGreaterThan(2n ** 53n);
      expect(p.diaSource.diaObjectId).toBe(raw.diaSource.diaObjectId.toString());
      expect(p.diaObject!.diaObjectId).toBe(p.diaSource.diaObjectId);
      expect(p.diaSource.ssObjectId).toBe(0);
      for (const f of p.prvDiaForcedSources) expect(f.diaObjectId).toBe(p.diaSource.diaObjectId);
      ids.add(p.diaSourceId);
    });
    expect(ids.size).toBe(rubin.length);
    // Same seed, same ids: they come from the plan, not from chance at writing time.
    const planned = new Set(
      plan.lsst.objects.flatMap((o) => o.obs.filter((x) => x.detected && x.visit.night >= 0).map((x) => String(x.diaSourceId))),
    );
    expect([...ids].every((id) => planned.has(id))).toBe(true);
  });

  it("have fluxes in nJy matching the models' magnitudes, a realistic snr and Rubin bands", () => {
    const bands = new Set<string>();
    for (const p of rubin) {
      const s = p.diaSource;
      bands.add(s.band as string);
      expect(['u', 'g', 'r', 'i', 'z', 'y']).toContain(s.band);
      expect(s.snr as number).toBeCloseTo(Math.abs(s.psfFlux as number) / (s.psfFluxErr as number), 3);
      expect(s.snr as number).toBeGreaterThanOrEqual(5);
      expect(s.isNegative).toBe((s.psfFlux as number) < 0);
      expect(s.midpointMjdTai as number).toBeGreaterThanOrEqual(61000);
      expect(s.midpointMjdTai as number).toBeLessThan(61006);
      // LSSTCam visits: dayObs (the date at UTC-12h) * 100000 + seqNum.
      expect(String(s.visit)).toMatch(/^202511(2\d)\d{5}$/);
    }
    expect(bands.size).toBeGreaterThanOrEqual(5);
    // The simulated difference flux of a transient (nothing in the template) converted to AB mag.
    let checked = 0;
    for (const lo of plan.lsst.objects.filter((o) => o.sim.cls === 'SN Ia')) {
      for (const o of lo.obs.filter((x) => x.detected && x.sigma < Math.abs(x.diffFlux) / 20)) {
        const modelMag = 25 - 2.5 * Math.log10(lo.sim.lc!.flux(o.visit.band === 'u' || o.visit.band === 'g' ? 0 : 1, o.visit.mjd));
        const colour = { u: 0.6, g: 0, r: 0, i: -0.15, z: -0.25, y: -0.3 }[o.visit.band];
        expect(njyToMag(o.flux)).toBeCloseTo(modelMag + colour, 0);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('carry earlier DiaSources and forced photometry, some of it not significant (upper limits)', () => {
    let history = 0;
    let limits = 0;
    let measurements = 0;
    for (const p of rubin) {
      const t = p.diaSource.midpointMjdTai as number;
      for (const s of p.prvDiaSources) {
        expect(s.midpointMjdTai as number).toBeLessThan(t);
        expect(s.diaObjectId).toBe(p.diaSource.diaObjectId);
        history++;
      }
      for (const f of p.prvDiaForcedSources) {
        expect(f.midpointMjdTai as number).toBeLessThan(t);
        if ((f.psfFlux as number) / (f.psfFluxErr as number) >= 5) measurements++;
        else limits++;
      }
    }
    expect(history).toBeGreaterThan(0);
    expect(measurements).toBeGreaterThan(0);
    expect(limits).toBeGreaterThan(0);
  });

  it('have three 31x31 plain FITS cutouts in nJy, the source at the centre of the difference', () => {
    for (const p of rubin.slice(0, 40)) {
      for (const cut of [p.cutouts.science!, p.cutouts.template!, p.cutouts.difference!]) {
        expect(cut[0]).not.toBe(0x1f); // not gzipped
        const img = readFits(cut);
        expect([img.width, img.height, img.header.BUNIT]).toEqual([31, 31, 'nJy']);
      }
      const diff = readFits(p.cutouts.difference!).data;
      const centre = Math.max(...[-1, 0, 1].flatMap((dy) => [-1, 0, 1].map((dx) => Math.abs(diff[(15 + dy) * 31 + 15 + dx]))));
      if (!p.diaSource.isDipole && (p.diaSource.snr as number) > 20) expect(centre).toBeGreaterThan(Math.abs(diff[0]));
    }
  });

  it('observe a share of the ZTF objects at the same position on other nights, and a few southern objects only Rubin sees', () => {
    const shared = plan.lsst.objects.filter((o) => o.ztf);
    const only = plan.lsst.objects.filter((o) => !o.ztf);
    expect(shared.length / plan.objects.length).toBeGreaterThan(0.06);
    expect(shared.length / plan.objects.length).toBeLessThan(0.2);
    expect(only.length).toBeGreaterThan(0);
    expect(only.length).toBeLessThan(shared.length);
    for (const o of only) expect(o.sim.dec).toBeLessThan(-30);
    for (const o of shared) {
      expect(plan.objects).toContain(o.sim);
      const ztfNights = new Set(o.sim.obs.map((x) => x.exp.night));
      for (const x of o.obs) expect(ztfNights.has(x.visit.night), `${o.sim.objectId} night ${x.visit.night}`).toBe(false);
    }
  });
});

describe('ingesting the simulated survey', () => {
  it('puts ZTF and Rubin detections of an object on one locus and rejects the flagged Rubin alerts in Level 1', async () => {
    const db = await createTestDatabase();
    try {
      const stats = await ingestFiles(db.repos, first.files, {});
      expect(stats.undecodable).toEqual([]);
      expect(stats.packetsRead).toBe(first.packets);
      // Level 1 on every Rubin packet, as the pipeline runs it: exactly the flagged ones fail.
      const flagged = rubin.filter((p) => LSST_FLAGS.some((f) => p.diaSource[f] === true));
      expect(flagged.length).toBeGreaterThan(0);
      for (const p of rubin) expect(level1Lsst(p.diaSource).passed, p.diaSourceId).toBe(!flagged.includes(p));
      const rejectedRubin = Object.entries(stats.rejected)
        .filter(([k]) => /^(flags|dipole):/.test(k))
        .reduce((n, [, v]) => n + v, 0);
      expect(rejectedRubin).toBe(flagged.length);
      for (const p of flagged) expect(await db.repos.alerts.findById(`lsst:${p.diaSourceId}`)).toBeUndefined();
      const stored = rubin.find((p) => !flagged.includes(p))!;
      expect((await db.repos.alerts.findById(`lsst:${stored.diaSourceId}`))!.properties.lsst_diaSource_diaSourceId).toBe(
        stored.diaSourceId,
      );

      const loci = await db.db.selectFrom('locus').select(['locus_id', 'properties']).execute();
      const surveys = (l: { properties: unknown }) => (l.properties as { survey?: Record<string, unknown> }).survey ?? {};
      const both = loci.filter((l) => surveys(l).ztf && surveys(l).lsst);
      const rubinOnly = loci.filter((l) => !surveys(l).ztf && surveys(l).lsst);
      expect(both.length).toBeGreaterThan(5);
      expect(rubinOnly.length).toBeGreaterThan(0);
      const alerts = await db.repos.alerts.listByLocus(both[0].locus_id);
      expect(new Set(alerts.map((a) => a.survey))).toEqual(new Set(['ztf', 'lsst']));
      expect(new Set(alerts.map((a) => a.properties.ant_survey))).toEqual(new Set([1, 2, 4]));
      const rubinAlerts = alerts.filter((a) => a.survey === 'lsst');
      expect(rubinAlerts.every((a) => a.properties.ant_survey === 4)).toBe(true);
      // Forced photometry is told apart by its id and ant_forced_photometry (ADR 0013), detections have neither.
      expect(rubinAlerts.every((a) => (a.properties.ant_forced_photometry === true) === a.alert_id.startsWith('lsst_forced:'))).toBe(true);
      expect(rubinAlerts.some((a) => a.alert_id.startsWith('lsst_forced:'))).toBe(true);
    } finally {
      await db.close();
    }
  }, 120_000);
});

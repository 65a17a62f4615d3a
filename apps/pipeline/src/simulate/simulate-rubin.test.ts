import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { createTestDatabase } from '@antares/db';
import { describe, expect, it } from 'vitest';

import { fitsHdus, parseHeader, readFits } from '../fits/fits.ts';
import { expandInputs } from '../ingest/ingest-files.ts';
import { ingestFiles } from '../ingest/ingest-files.ts';
import { decodeAvroFile } from '../sources/alert-avro.ts';
import type { LsstPacket } from '../sources/lsst-packet.ts';
import { level1Lsst } from '../stages/level1.ts';
import { planSurvey } from './index.ts';
import { LSST_FLAGS, njyToMag } from './lsst-plan.ts';
import { OPTS, survey, useSimulatedSurvey } from './testing/simulated-survey.ts';

// The Rubin alerts of a simulated survey, and the whole survey ingested.
// apps/pipeline/src/simulate -> /work/shared/data (shared/ sits beside the repo root).
const REAL_RUBIN = fileURLToPath(new URL('../../../../../shared/data/fink-broker/rubin_v9.0_fink_subset', import.meta.url));
useSimulatedSurvey();
const { rubin, rubinRaw } = survey;

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

  it.skipIf(!existsSync(REAL_RUBIN))(
    'carry their variance and PSF after the image, in the layout and sizes of real Rubin cutouts',
    async () => {
      // A real lsst.v9_0 packet: image (30x30), UNCERT (its variance) and PSFIMAGE (float64, 41x41 for a
      // visit, 47x47 for the template coadd); 34,560 and 40,320 bytes. The benchmarks' packet sizes and the
      // storage figures of ADR 0036 depend on the simulated ones having the same.
      let real: LsstPacket | undefined;
      for await (const r of decodeAvroFile(expandInputs([REAL_RUBIN])[0]))
        if ('packet' in r && r.packet.survey === 'lsst') real ??= r.packet;
      const layout = (cut: Uint8Array) =>
        fitsHdus(cut).map((h) => ({ name: h.name, bitpix: h.bitpix, psf: h.name === 'PSFIMAGE' ? h.axes : [] }));
      for (const type of ['science', 'template', 'difference'] as const) {
        const realCut = real!.cutouts[type]!;
        for (const p of rubin.slice(0, 20)) {
          const cut = p.cutouts[type]!;
          expect(layout(cut), type).toEqual(layout(realCut));
          expect(cut.length, type).toBe(realCut.length);
        }
      }
      const psfAt = fitsHdus(rubin[0].cutouts.science!)
        .slice(0, 2)
        .reduce((a, h) => a + h.bytes, 0);
      const { header, dataOffset } = parseHeader(rubin[0].cutouts.science!.subarray(psfAt));
      const psf = new DataView(rubin[0].cutouts.science!.buffer, rubin[0].cutouts.science!.byteOffset + psfAt + dataOffset, 41 * 41 * 8);
      let sum = 0;
      for (let i = 0; i < 41 * 41; i++) sum += psf.getFloat64(i * 8);
      expect(header.EXTNAME).toBe('PSFIMAGE');
      expect(sum).toBeCloseTo(1, 9); // a normalised PSF
    },
  );

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
      const stats = await ingestFiles(db.repos, survey.first.files, {});
      expect(stats.undecodable).toEqual([]);
      expect(stats.packetsRead).toBe(survey.first.packets);
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

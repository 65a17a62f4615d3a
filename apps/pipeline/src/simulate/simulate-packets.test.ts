import { gunzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { readFits } from '../fits/fits.ts';
import { planSurvey, SIM_CLASSES } from './index.ts';
import { OPTS, type Packet, survey, useSimulatedSurvey } from './testing/simulated-survey.ts';

// The ZTF packets of a simulated survey and the population behind them.
useSimulatedSurvey();
const { packets } = survey;

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

// When ZTF looks where: a coarse field grid, a per-field cadence of one visit every 2-3 nights
// (g and R exposures separated by >= 30 min, sometimes a second R), and per-exposure conditions
// (depth, seeing, zero point). Exposures are shared by all objects in a field, like real ones,
// and carry the identifiers real ZTF derives from them (nid, pid, image file names).
import { Rng } from './prng.ts';

/** ZTF night ids count days since 2017-01-01 (MJD 57754); real pids start with them. */
const NID_EPOCH_MJD = 57754;

export interface Exposure {
  night: number; // index relative to the first written night (negative: pre-roll history)
  mjd: number;
  fid: 1 | 2;
  field: number;
  nid: number;
  /** Fraction of the UT day in units of 1e-5 d: digits 5-9 of a real pid. Unique per night. */
  frac5: number;
  diffmaglim: number;
  fwhm: number; // pixels
  magzpsci: number;
  magzpsciunc: number;
  magzpscirms: number;
  clrcoeff: number;
  clrcounc: number;
  nmatches: number;
  seed: number;
}

/** Field ids from declination bands ~7 deg high split into ~7.3 deg wide RA cells. */
const BAND_HEIGHT = 7;
const DEC_MIN = -31;
const BANDS = Math.ceil((90 - DEC_MIN) / BAND_HEIGHT);
const CELLS: number[] = [];
const FIRST_FIELD: number[] = [];
for (let b = 0, next = 245; b < BANDS; b++) {
  const decMid = Math.min(89, DEC_MIN + (b + 0.5) * BAND_HEIGHT);
  CELLS.push(Math.max(1, Math.round((360 * Math.cos((decMid * Math.PI) / 180)) / 7.3)));
  FIRST_FIELD.push(next);
  next += CELLS[b];
}

export function fieldOf(ra: number, dec: number): number {
  const b = Math.min(BANDS - 1, Math.max(0, Math.floor((dec - DEC_MIN) / BAND_HEIGHT)));
  return FIRST_FIELD[b] + Math.min(CELLS[b] - 1, Math.floor((ra / 360) * CELLS[b]));
}

interface NightConditions {
  depth: number; // typical 5-sigma limit of the night
  seeing: number; // typical FWHM [px]
  clear: number; // fraction of the planned visits that happen (weather)
}

function nightConditions(seed: number, night: number): NightConditions {
  const rng = new Rng(seed, 'night', night);
  const u = rng.next();
  // Most nights are clear; some are partly cloudy; never a total loss, so every file has alerts.
  const clear = u < 0.7 ? 0.95 : u < 0.9 ? rng.uniform(0.5, 0.8) : rng.uniform(0.15, 0.4);
  return { depth: rng.clippedNormal(20.35, 0.22, 19.7, 20.7), seeing: rng.clippedNormal(2.1, 0.3, 1.6, 2.8), clear };
}

function makeExposure(seed: number, cond: NightConditions, field: number, night: number, mjd: number, fid: 1 | 2): Exposure {
  const rng = new Rng(seed, 'exposure', field, night, fid, Math.round(mjd * 1e5));
  let fwhm = Math.min(3, Math.max(1.5, cond.seeing * rng.uniform(0.9, 1.15)));
  let depth = cond.depth + (fid === 1 ? 0.1 : 0) + rng.normal(0, 0.12);
  // A few exposures are taken in poor seeing: shallower, and rejected by Level 1 (fwhm > 5).
  if (rng.chance(0.015)) {
    fwhm = rng.uniform(5.1, 6.5);
    depth -= 0.8;
  }
  const zp = fid === 1 ? 26.3 : 26.15;
  const dayMjd = Math.floor(mjd);
  return {
    night,
    mjd,
    fid,
    field,
    nid: dayMjd - NID_EPOCH_MJD,
    frac5: Math.floor((mjd - dayMjd) * 1e5),
    diffmaglim: Math.min(20.8, Math.max(19.5, depth)),
    fwhm,
    magzpsci: zp + rng.normal(0, 0.04) - (cond.depth - depth) * 0.3,
    magzpsciunc: rng.uniform(1e-5, 3e-5),
    magzpscirms: rng.uniform(0.025, 0.042),
    clrcoeff: fid === 1 ? rng.normal(-0.045, 0.01) : rng.normal(0.1, 0.01),
    clrcounc: rng.uniform(2e-5, 4e-5),
    nmatches: rng.int(1200) + 250,
    seed: rng.u32(),
  };
}

/**
 * Exposures of the given fields over nights [firstNight, lastNight] (relative indices; night n
 * starts at MJD startMjd + n). Returns a map field -> exposures in time order.
 */
export function buildSchedule(
  seed: number,
  startMjd: number,
  fields: Iterable<number>,
  firstNight: number,
  lastNight: number,
): Map<number, Exposure[]> {
  const out = new Map<number, Exposure[]>();
  const conditions = new Map<number, NightConditions>();
  for (let n = firstNight; n <= lastNight; n++) conditions.set(n, nightConditions(seed, n));
  const byNight = new Map<number, Exposure[]>();
  for (const field of [...new Set(fields)].sort((a, b) => a - b)) {
    const rng = new Rng(seed, 'field', field);
    const cadence = rng.chance(0.55) ? 2 : 3;
    const phase = rng.int(cadence);
    const list: Exposure[] = [];
    for (let n = firstNight; n <= lastNight; n++) {
      if ((((n - phase) % cadence) + cadence) % cadence !== 0) continue;
      const cond = conditions.get(n)!;
      if (!rng.chance(cond.clear)) continue; // clouds, or the scheduler picked other fields
      // Palomar night in UT: ~0.15-0.53 of the MJD day. g and R >= 30 min apart.
      const t1 = rng.uniform(0.155, 0.36);
      const t2 = t1 + rng.uniform(0.022, 0.15);
      const gFirst = rng.chance(0.5);
      const day = startMjd + n;
      const tonight = [
        makeExposure(seed, cond, field, n, day + t1, gFirst ? 1 : 2),
        makeExposure(seed, cond, field, n, day + t2, gFirst ? 2 : 1),
      ];
      const t3 = t2 + rng.uniform(0.03, 0.1);
      if (rng.chance(0.15) && t3 < 0.53) tonight.push(makeExposure(seed, cond, field, n, day + t3, 2));
      list.push(...tonight);
      if (!byNight.has(n)) byNight.set(n, []);
      byNight.get(n)!.push(...tonight);
    }
    out.set(field, list);
  }
  // Two fields exposed in the same 0.86 s slot would share a pid: nudge later ones forward.
  for (const exps of byNight.values()) {
    exps.sort((a, b) => a.frac5 - b.frac5 || a.field - b.field || a.fid - b.fid);
    for (let i = 1; i < exps.length; i++) {
      if (exps[i].frac5 <= exps[i - 1].frac5) {
        exps[i].frac5 = exps[i - 1].frac5 + 1;
        exps[i].mjd = Math.floor(exps[i].mjd) + exps[i].frac5 / 1e5 + 3e-6;
      }
    }
  }
  for (const list of out.values()) list.sort((a, b) => a.mjd - b.mjd);
  return out;
}

/** Real ZTF pid: nid, 5 digits of day fraction, 2-digit readout channel, "15". */
export function pidOf(exp: Exposure, rcid: number): bigint {
  return BigInt(exp.nid) * 1_000_000_000n + BigInt(exp.frac5) * 10_000n + BigInt(rcid) * 100n + 15n;
}

/** MJD -> "YYYYMMDD" of the UT date (files are named after the UT date the night starts on). */
const dates = new Map<number, string>(); // Date formatting is slow and called for every row
export function utDate(mjd: number): string {
  const day = Math.floor(mjd);
  let s = dates.get(day);
  if (s === undefined) {
    s = new Date((day - 40587) * 86400000).toISOString().slice(0, 10).replace(/-/g, '');
    dates.set(day, s);
  }
  return s;
}

/** Difference-image file name as real alerts give it in pdiffimfilename. */
export function diffImageName(exp: Exposure, rcid: number): string {
  const frac6 = String(Math.floor((exp.mjd - Math.floor(exp.mjd)) * 1e6)).padStart(6, '0');
  const ccd = String(Math.floor(rcid / 4) + 1).padStart(2, '0');
  return (
    `ztf_${utDate(exp.mjd)}${frac6}_${String(exp.field).padStart(6, '0')}_z${exp.fid === 1 ? 'g' : 'r'}` +
    `_c${ccd}_o_q${(rcid % 4) + 1}_scimrefdiffimg.fits`
  );
}

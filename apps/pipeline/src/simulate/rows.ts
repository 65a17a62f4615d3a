// prv_candidate rows: the measurements of one exposure at an object's position, as ZTF reports
// them. Each detection row is generated from its own seeded stream so that the same detection
// looks identical as the alert's `candidate` and later as a `prv_candidates` entry.
import { fluxToMag } from './lightcurves.ts';
import type { Obs, SimObject } from './plan.ts';
import { Rng } from './prng.ts';
import { diffImageName, utDate } from './schedule.ts';

export type Row = Record<string, unknown>;

/** ZTF pixel scale [arcsec/pixel]; distnr and positions in pixels use it. */
export const PIXEL_SCALE = 1.012;
export const RB_VERSION = 't17_f5_c3';

/** What a detection measured, beyond the Avro fields (cutouts need the jitter and shape). */
export interface Measurement {
  row: Row;
  jx: number; // measured position minus true position [arcsec]
  jy: number;
  drb: number; // deep-learning real/bogus: a candidate-only field
}

function archivePath(obs: Obs, rcid: number): string {
  const name = diffImageName(obs.exp, rcid);
  const d = utDate(obs.exp.mjd);
  const frac6 = name.slice(12, 18);
  return `/ztf/archive/sci/${d.slice(0, 4)}/${d.slice(4)}/${frac6}/${name}.fz`;
}

/** Fields every row has, detection or not (a non-detection has only these; the rest is null). */
function headerRow(obj: SimObject, obs: Obs, fullPath: boolean): Row {
  const e = obs.exp;
  return {
    jd: e.mjd + 2400000.5,
    fid: e.fid,
    pid: obs.pid,
    diffmaglim: e.diffmaglim,
    pdiffimfilename: fullPath ? archivePath(obs, obj.rcid) : diffImageName(e, obj.rcid),
    programpi: 'Kulkarni',
    programid: 1,
    candid: null,
    isdiffpos: null,
    tblid: null,
    nid: e.nid,
    rcid: obj.rcid,
    field: e.field,
    xpos: null,
    ypos: null,
    ra: null,
    dec: null,
    magpsf: null,
    sigmapsf: null,
    chipsf: null,
    magap: null,
    sigmagap: null,
    distnr: null,
    magnr: null,
    sigmagnr: null,
    chinr: null,
    sharpnr: null,
    sky: null,
    magdiff: null,
    fwhm: null,
    classtar: null,
    mindtoedge: null,
    magfromlim: null,
    seeratio: null,
    aimage: null,
    bimage: null,
    aimagerat: null,
    bimagerat: null,
    elong: null,
    nneg: null,
    nbad: null,
    rb: null,
    ssdistnr: null,
    ssmagnr: null,
    ssnamenr: null,
    sumrat: null,
    magapbig: null,
    sigmagapbig: null,
    ranr: null,
    decnr: null,
    scorr: null,
    magzpsci: e.magzpsci,
    magzpsciunc: e.magzpsciunc,
    magzpscirms: e.magzpscirms,
    clrcoeff: e.clrcoeff,
    clrcounc: e.clrcounc,
    rbversion: RB_VERSION,
  };
}

/** An upper limit: real ZTF sends these with null candid and only the exposure fields. */
export function nonDetectionRow(obj: SimObject, obs: Obs): Row {
  return headerRow(obj, obs, true);
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Sky position of the reference source (statics[refIdx]) or null. */
export function refPosition(obj: SimObject): { ra: number; dec: number; dx: number; dy: number } | null {
  const s = obj.statics[obj.refIdx];
  if (!s) return null;
  return { ra: obj.ra + s.dx / (3600 * Math.cos((obj.dec * Math.PI) / 180)), dec: obj.dec + s.dy / 3600, dx: s.dx, dy: s.dy };
}

export function measure(obj: SimObject, obs: Obs, fullPath: boolean): Measurement {
  const r = new Rng(obj.seed, 'row', obs.index);
  const e = obs.exp;
  const band = e.fid === 1 ? 0 : 1;
  const row = headerRow(obj, obs, fullPath);
  const flux = Math.abs(obs.fluxObs);
  const snr = flux / obs.sigma;
  const magpsf = fluxToMag(flux);
  const sigmapsf = Math.sqrt((1.0857 / snr) ** 2 + 0.01 ** 2);
  // Centroid scatter shrinks with S/N; clipped at 0.3" per axis, so any two detections of an
  // object are < 0.85" apart and always associate within a 1" radius.
  const sAst = Math.min(0.2, 0.06 + 0.6 / snr);
  const jx = clamp(r.normal(0, sAst), -0.3, 0.3);
  const jy = clamp(r.normal(0, sAst), -0.3, 0.3);
  const cosDec = Math.cos((obj.dec * Math.PI) / 180);
  const xpos = obj.xpos + jx / PIXEL_SCALE;
  const ypos = obj.ypos + jy / PIXEL_SCALE;
  let fwhm = e.fwhm > 5 ? e.fwhm : clamp(e.fwhm * r.uniform(0.95, 1.06), 1.5, 3);
  let elong = r.uniform(1.0, 1.1);
  let rb = clamp(0.99 - 0.2 * r.next() ** 2 - 0.6 / snr, 0.62, 0.999);
  let drb = 1 - Math.pow(10, -r.uniform(0.8, 4));
  let magdiff = clamp(r.normal(0, 0.03 + 0.4 * sigmapsf), -0.4, 0.4);
  let nneg = r.poisson(0.4);
  let nbad = 0;
  let sumrat = r.uniform(0.9, 1);
  let chipsf = r.uniform(0.5, 1.5) + snr / 60;
  let classtar = r.uniform(0.9, 0.99);
  if (obs.bogus) {
    // Artefacts: the real/bogus scores see through them, and each kind trips a Level 1 cut.
    rb = r.uniform(0.05, 0.5);
    drb = Math.pow(10, -r.uniform(0.5, 3.3));
    chipsf = r.uniform(5, 60);
    classtar = r.uniform(0, 0.9);
    sumrat = r.uniform(0.3, 0.85);
    if (obs.bogus === 'hotpix') {
      nbad = 1 + r.int(6);
      fwhm = r.uniform(0.8, 1.3);
    }
    if (obs.bogus === 'streak') {
      elong = r.uniform(1.6, 4);
      fwhm *= r.uniform(1.1, 1.6);
    }
    if (obs.bogus === 'blob') {
      fwhm = r.uniform(5.2, 8);
      elong = r.uniform(1.0, 1.2);
    }
    if (obs.bogus === 'dipole') {
      magdiff = r.uniform(1.1, 2.5);
      nneg = 5 + r.int(8);
    }
  }
  const aimage = 0.56 * fwhm * Math.sqrt(elong);
  const bimage = aimage / elong;
  const magap = magpsf + magdiff;
  const sigmagap = sigmapsf * r.uniform(0.7, 1.0);
  const ref = refPosition(obj);
  const refStatic = obj.statics[obj.refIdx];
  Object.assign(row, {
    candid: obs.candid,
    isdiffpos: obs.fluxObs >= 0 ? 't' : 'f',
    tblid: BigInt(obs.tblid),
    xpos,
    ypos,
    ra: obj.ra + jx / (3600 * cosDec),
    dec: obj.dec + jy / 3600,
    magpsf,
    sigmapsf,
    chipsf,
    magap,
    sigmagap,
    sky: r.normal(0, 0.8),
    magdiff,
    fwhm,
    classtar,
    mindtoedge: Math.min(xpos, ypos, 3072 - xpos, 3080 - ypos),
    magfromlim: e.diffmaglim - magap,
    seeratio: r.uniform(0.85, 1.35),
    aimage,
    bimage,
    aimagerat: aimage / fwhm,
    bimagerat: bimage / fwhm,
    elong,
    nneg,
    nbad,
    rb,
    sumrat,
    magapbig: magap + r.normal(-0.02, 0.02),
    sigmagapbig: sigmagap * 1.2,
    scorr: snr * r.uniform(0.9, 1.3),
  });
  if (ref && refStatic) {
    const magnr = refStatic.mag[band];
    Object.assign(row, {
      distnr: Math.hypot(ref.dx - jx, ref.dy - jy) / PIXEL_SCALE,
      magnr,
      sigmagnr: 0.005 + 0.02 * Math.pow(10, 0.4 * (magnr - 20)),
      chinr: refStatic.star ? r.uniform(0.3, 1.5) : r.uniform(2, 8),
      sharpnr: refStatic.star ? r.normal(0, 0.03) : r.uniform(0.1, 0.6),
      ranr: ref.ra,
      decnr: ref.dec,
    });
  } else {
    // ranr/decnr are non-nullable in the schema; ZTF uses -999 for "no source".
    Object.assign(row, { ranr: -999, decnr: -999 });
  }
  return { row, jx, jy, drb };
}

/** Observations in the 30 days before `obs` (its prv_candidates), oldest first. */
export function previousObs(obj: SimObject, obs: Obs): Obs[] {
  const t = obs.exp.mjd;
  let i = obs.index;
  while (i > 0 && obj.obs[i - 1].exp.mjd >= t - 30) i--;
  return obj.obs.slice(i, obs.index);
}

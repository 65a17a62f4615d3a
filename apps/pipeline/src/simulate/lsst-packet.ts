// Assembles Rubin alert records (schema 10.0, lsst-schema.ts) from the Rubin plan: the triggering
// DiaSource, the object's earlier DiaSources, forced photometry of its earlier visits (precovery
// included, so many points are not significant: upper limits), the DiaObject as it stood after this
// visit, and three plain-FITS cutouts (image, variance, PSF: cutouts.ts). Each row comes from its own
// seeded stream, so a DiaSource looks the same as the alert's diaSource and later in prvDiaSources.
import type { StampFactory } from './cutouts.ts';
import { LSST_BANDS, LSST_PIXEL_SCALE, type LsstObject, type LsstObs } from './lsst-plan.ts';
import { DIA_OBJECT_FIELDS, DIA_SOURCE_FIELDS } from './lsst-schema.ts';
import { Rng } from './prng.ts';

type Row = Record<string, unknown>;

/** Rubin sends a year of history (simulated when the survey's lsstHistoryDays reaches back that far). */
const HISTORY_DAYS = 365;
/** Forced photometry starts this long before the first detection (precovery). */
const PRECOVERY_DAYS = 30;
/** Detector size of LSSTCam science CCDs [pixels]. */
const CCD_PIXELS = 4000;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

function emptyRecord(fields: string[]): Row {
  const row: Row = {};
  for (const f of fields) row[f] = null;
  return row;
}

export interface LsstPacketContext {
  stamps: StampFactory;
  /** DiaSource row of a detection (memoised by the caller). */
  diaSource: (lo: LsstObject, obs: LsstObs) => Row;
  /** DiaForcedSource row of a visit (memoised by the caller). */
  forced: (lo: LsstObject, obs: LsstObs) => Row;
}

/** Every field of the DiaSource a detection made, flags false unless the plan flagged it. */
export function diaSourceRow(lo: LsstObject, obs: LsstObs): Row {
  if (!obs.detected || obs.diaSourceId === null) throw new Error('DiaSources exist only for detections');
  const r = new Rng(lo.sim.seed, 'lsst-row', obs.index);
  const v = obs.visit;
  const snr = Math.abs(obs.flux) / obs.sigma;
  // Centroid scatter shrinks with S/N, clipped at 0.15" per axis (Rubin's astrometry beats ZTF's).
  const sAst = Math.min(0.1, 0.01 + (0.25 * v.seeing) / snr);
  const jx = clamp(r.normal(0, sAst), -0.15, 0.15);
  const jy = clamp(r.normal(0, sAst), -0.15, 0.15);
  const cosDec = Math.cos((lo.sim.dec * Math.PI) / 180);
  const ra = (lo.sim.ra + jx / (3600 * cosDec) + 360) % 360;
  const dec = lo.sim.dec + jy / 3600;
  const psfSigmaArcsec = v.seeing / 2.3548;
  const ixxPSF = psfSigmaArcsec ** 2 * r.uniform(0.95, 1.05);
  const iyyPSF = psfSigmaArcsec ** 2 * r.uniform(0.95, 1.05);
  const bbox = Math.round((4 * v.seeing) / LSST_PIXEL_SCALE) + r.int(12);
  const flag = obs.flag;
  const row = emptyRecord(DIA_SOURCE_FIELDS);
  Object.assign(row, {
    diaSourceId: obs.diaSourceId,
    visit: v.id,
    detector: obs.detector,
    diaObjectId: lo.diaObjectId,
    ssObjectId: 0n,
    parentDiaSourceId: 0n,
    midpointMjdTai: v.mjd,
    ra,
    raErr: sAst / 3600,
    dec,
    decErr: sAst / 3600,
    ra_dec_Cov: (sAst / 3600) ** 2 * r.normal(0, 0.1),
    x: r.uniform(20, CCD_PIXELS - 20),
    xErr: sAst / LSST_PIXEL_SCALE,
    y: r.uniform(20, CCD_PIXELS - 20),
    yErr: sAst / LSST_PIXEL_SCALE,
    centroid_flag: flag === 'centroid_flag',
    apFlux: obs.flux * r.uniform(0.93, 1.07),
    apFluxErr: obs.sigma * r.uniform(1.3, 1.8),
    apFlux_flag: false,
    apFlux_flag_apertureTruncated: false,
    isNegative: obs.flux < 0,
    snr,
    psfFlux: obs.flux,
    psfFluxErr: obs.sigma,
    psfChi2: bbox * bbox * r.uniform(0.9, 1.3),
    psfNdata: bbox * bbox,
    psfFlux_flag: flag === 'psfFlux_flag',
    psfFlux_flag_edge: false,
    psfFlux_flag_noGoodPixels: false,
    trailFlux: obs.flux * r.uniform(1, 1.25),
    trailFluxErr: obs.sigma * r.uniform(1.1, 1.4),
    trailRa: ra,
    trailDec: dec,
    trailLength: r.uniform(0, 0.6 * v.seeing),
    trailAngle: r.uniform(-180, 180),
    trail_flag_edge: false,
    dipoleNdata: 0,
    scienceFlux: obs.templateFlux + obs.diffFlux + r.normal(0, obs.sigma),
    scienceFluxErr: obs.sigma * r.uniform(1, 1.05),
    forced_PsfFlux_flag: false,
    forced_PsfFlux_flag_edge: false,
    forced_PsfFlux_flag_noGoodPixels: false,
    templateFlux: obs.templateFlux + r.normal(0, obs.sigma / 4),
    templateFluxErr: obs.sigma / 4,
    ixx: ixxPSF * r.uniform(0.9, 1.25),
    iyy: iyyPSF * r.uniform(0.9, 1.25),
    ixy: psfSigmaArcsec ** 2 * r.normal(0, 0.05),
    ixxPSF,
    iyyPSF,
    ixyPSF: psfSigmaArcsec ** 2 * r.normal(0, 0.03),
    shape_flag: false,
    shape_flag_no_pixels: false,
    shape_flag_not_contained: false,
    shape_flag_parent_source: false,
    extendedness: r.uniform(0, 0.3),
    reliability: flag ? r.uniform(0.05, 0.6) : clamp(1 - 0.25 * r.next() ** 2 - 1.5 / snr, 0.5, 0.999),
    band: v.band,
    isDipole: flag === 'isDipole',
    dipoleFitAttempted: flag === 'isDipole' || r.chance(0.1),
    timeProcessedMjdTai: v.mjd + r.uniform(0.0015, 0.004),
    bboxSize: bbox,
    pixelFlags: false,
    pixelFlags_bad: false,
    pixelFlags_cr: false,
    pixelFlags_crCenter: false,
    pixelFlags_edge: false,
    pixelFlags_nodata: false,
    pixelFlags_nodataCenter: false,
    pixelFlags_interpolated: false,
    pixelFlags_interpolatedCenter: false,
    pixelFlags_offimage: false,
    pixelFlags_saturated: flag === 'pixelFlags_saturatedCenter',
    pixelFlags_saturatedCenter: flag === 'pixelFlags_saturatedCenter',
    pixelFlags_suspect: flag === 'pixelFlags_suspectCenter',
    pixelFlags_suspectCenter: flag === 'pixelFlags_suspectCenter',
    pixelFlags_streak: false,
    pixelFlags_streakCenter: false,
    pixelFlags_injected: false,
    pixelFlags_injectedCenter: false,
    pixelFlags_injected_template: false,
    pixelFlags_injected_templateCenter: false,
    glint_trail: false,
  });
  if (row.dipoleFitAttempted) {
    const lobe = Math.abs(obs.flux) * (flag === 'isDipole' ? r.uniform(1, 2) : r.uniform(0.4, 0.8));
    Object.assign(row, {
      dipoleMeanFlux: lobe,
      dipoleMeanFluxErr: obs.sigma,
      dipoleFluxDiff: lobe * r.uniform(0.02, 0.2),
      dipoleFluxDiffErr: obs.sigma * 1.4,
      dipoleLength: flag === 'isDipole' ? r.uniform(0.6, 1.2) : r.uniform(0, 0.3),
      dipoleAngle: r.uniform(-180, 180),
      dipoleChi2: bbox * bbox * r.uniform(0.9, 1.2),
      dipoleNdata: bbox * bbox,
    });
  }
  return row;
}

/** Forced PSF photometry of a visit at the object's position (significant or not). */
export function diaForcedSourceRow(lo: LsstObject, obs: LsstObs): Row {
  if (lo.diaObjectId === null) throw new Error('forced photometry needs a DiaObject');
  const r = new Rng(lo.sim.seed, 'lsst-forced', obs.index);
  const v = obs.visit;
  // The same image as the DiaSource measured (if any), at a fixed position: nearly the same flux.
  const flux = obs.flux + r.normal(0, obs.detected ? 0.05 * obs.sigma : 0.02 * obs.sigma);
  return {
    diaForcedSourceId: obs.diaForcedSourceId,
    diaObjectId: lo.diaObjectId,
    ra: lo.sim.ra,
    dec: lo.sim.dec,
    visit: v.id,
    detector: obs.detector,
    psfFlux: flux,
    psfFluxErr: obs.sigma * r.uniform(0.98, 1.02),
    midpointMjdTai: v.mjd,
    scienceFlux: obs.templateFlux + obs.diffFlux + r.normal(0, obs.sigma),
    scienceFluxErr: obs.sigma * r.uniform(1, 1.05),
    band: v.band,
    timeProcessedMjdTai: v.mjd + r.uniform(0.0015, 0.004),
    timeWithdrawnMjdTai: null,
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The DiaObject after `obs`: mean position and per-band flux statistics of its sources so far. */
function diaObjectRecord(lo: LsstObject, sources: Row[], forced: Row[], processed: number): Row {
  const rec = emptyRecord(DIA_OBJECT_FIELDS);
  const ras = sources.map((s) => s.ra as number);
  const decs = sources.map((s) => s.dec as number);
  const err = mean(sources.map((s) => s.raErr as number)) / Math.sqrt(sources.length);
  Object.assign(rec, {
    diaObjectId: lo.diaObjectId,
    validityStartMjdTai: processed,
    ra: mean(ras),
    raErr: err,
    dec: mean(decs),
    decErr: err,
    ra_dec_Cov: 0,
    firstDiaSourceMjdTai: sources[0].midpointMjdTai,
    lastDiaSourceMjdTai: sources.at(-1)!.midpointMjdTai,
    nDiaSources: sources.length,
  });
  for (const band of LSST_BANDS) {
    const mine = sources.filter((s) => s.band === band);
    if (mine.length > 0) {
      const fluxes = mine.map((s) => s.psfFlux as number);
      const errs = mine.map((s) => s.psfFluxErr as number);
      const m = mean(fluxes);
      Object.assign(rec, {
        [`${band}_psfFluxMean`]: m,
        [`${band}_psfFluxMeanErr`]: Math.sqrt(errs.reduce((a, e) => a + e * e, 0)) / errs.length,
        [`${band}_psfFluxSigma`]: fluxes.length > 1 ? Math.sqrt(fluxes.reduce((a, f) => a + (f - m) ** 2, 0) / (fluxes.length - 1)) : null,
        [`${band}_psfFluxNdata`]: fluxes.length,
        [`${band}_psfFluxMin`]: Math.min(...fluxes),
        [`${band}_psfFluxMax`]: Math.max(...fluxes),
        [`${band}_psfFluxErrMean`]: mean(errs),
      });
    }
    const fp = forced.filter((f) => f.band === band);
    if (fp.length > 0) {
      const errs = fp.map((f) => f.psfFluxErr as number);
      const sciErrs = fp.map((f) => f.scienceFluxErr as number);
      Object.assign(rec, {
        [`${band}_fpFluxMean`]: mean(fp.map((f) => f.psfFlux as number)),
        [`${band}_fpFluxMeanErr`]: Math.sqrt(errs.reduce((a, e) => a + e * e, 0)) / errs.length,
        [`${band}_scienceFluxMean`]: mean(fp.map((f) => f.scienceFlux as number)),
        [`${band}_scienceFluxMeanErr`]: Math.sqrt(sciErrs.reduce((a, e) => a + e * e, 0)) / sciErrs.length,
      });
    }
  }
  return rec;
}

/** An alert in the pieces LsstAlertEncoder assembles: the histories as the observations they hold. */
export interface LsstAlertParts {
  head: Row; // the fields before diaSource
  diaSource: Row;
  prvDiaSources: LsstObs[] | null; // null when empty, as ZTF sends an empty prv_candidates
  prvDiaForcedSources: LsstObs[] | null;
  tail: Row; // diaObject, ssSource, mpc_orbits and the cutouts
}

export function lsstAlertParts(ctx: LsstPacketContext, lo: LsstObject, obs: LsstObs): LsstAlertParts {
  const diaSource = ctx.diaSource(lo, obs);
  const t = obs.visit.mjd;
  const firstDetection = lo.obs.find((o) => o.detected)!;
  const earlier = lo.obs.slice(0, obs.index).filter((o) => o.visit.mjd >= t - HISTORY_DAYS);
  const sources = earlier.filter((o) => o.detected);
  const forced = earlier.filter((o) => o.visit.mjd >= firstDetection.visit.mjd - PRECOVERY_DAYS);
  const diaObject = diaObjectRecord(
    lo,
    [...sources.map((o) => ctx.diaSource(lo, o)), diaSource],
    [...forced, obs].map((o) => ctx.forced(lo, o)),
    diaSource.timeProcessedMjdTai as number,
  );
  const cut = ctx.stamps.makeLsst(lo.sim, obs);
  return {
    head: { diaSourceId: obs.diaSourceId, observation_reason: null, target_name: null },
    diaSource,
    prvDiaSources: sources.length > 0 ? sources : null,
    prvDiaForcedSources: forced.length > 0 ? forced : null,
    tail: {
      diaObject,
      ssSource: null,
      mpc_orbits: null,
      cutoutDifference: cut.difference,
      cutoutScience: cut.science,
      cutoutTemplate: cut.template,
    },
  };
}

/** The whole `lsst.v10_0.alert` record for a detection (64-bit ids as BigInt). */
export function buildLsstAlert(ctx: LsstPacketContext, lo: LsstObject, obs: LsstObs): Row {
  const p = lsstAlertParts(ctx, lo, obs);
  return {
    ...p.head,
    diaSource: p.diaSource,
    prvDiaSources: p.prvDiaSources?.map((o) => ctx.diaSource(lo, o)) ?? null,
    prvDiaForcedSources: p.prvDiaForcedSources?.map((o) => ctx.forced(lo, o)) ?? null,
    ...p.tail,
  };
}

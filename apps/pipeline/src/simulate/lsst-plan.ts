// What Rubin (LSST) sees of the simulated universe: a share of the ZTF objects (those Rubin can reach,
// dec < +25, not ZTF's bogus artefacts) and a few objects of the far south that only Rubin sees. Rubin
// visits each sky region on nights between ZTF's visits of it, two visits a night in a pair of bands
// (u g r i z y) about half an hour apart, and is ~4 magnitudes deeper. Each visit yields a forced
// measurement at the object's position and, when the change is 5 sigma, a DiaSource (one alert).
// Fluxes are in nanojansky: AB mag = 31.4 - 2.5 log10(flux / nJy), the ZTF models' mag = 25 - 2.5
// log10(flux), so nJy = zp25 flux * 10^2.56. Like plan.ts, planning is cheap and fixes everything.
import type { Window } from './lightcurves.ts';
import { Rng } from './prng.ts';
import type { Exposure } from './schedule.ts';
import { utDate } from './schedule.ts';
import type { SimObject } from './sim-object.ts';

export const LSST_BANDS = ['u', 'g', 'r', 'i', 'z', 'y'] as const;
export type LsstBand = (typeof LSST_BANDS)[number];

/** zp25 model flux -> nJy. */
export const NJY_PER_ZP25 = Math.pow(10, 0.4 * (31.4 - 25));
export const magToNjy = (mag: number): number => Math.pow(10, -0.4 * (mag - 31.4));
export const njyToMag = (flux: number): number => 31.4 - 2.5 * Math.log10(flux);
/** LSSTCam pixel scale [arcsec/pixel]. */
export const LSST_PIXEL_SCALE = 0.2;
/** LSSTCam science detectors are numbered 0-188. */
const DETECTORS = 189;

/**
 * Per band: which of the models' two bands it follows (0 = g, 1 = R), a colour offset from it [mag]
 * (a fixed, roughly stellar colour), the typical single-visit 5-sigma depth and relative seeing.
 */
export const BAND_MODEL: Record<LsstBand, { base: 0 | 1; colour: number; depth: number; seeing: number }> = {
  u: { base: 0, colour: 0.6, depth: 23.7, seeing: 1.12 },
  g: { base: 0, colour: 0, depth: 24.8, seeing: 1.05 },
  r: { base: 1, colour: 0, depth: 24.4, seeing: 1 },
  i: { base: 1, colour: -0.15, depth: 23.9, seeing: 0.97 },
  z: { base: 1, colour: -0.25, depth: 23.3, seeing: 0.95 },
  y: { base: 1, colour: -0.3, depth: 22.4, seeing: 0.93 },
};

/** Band pairs of a night's two visits (repeats weight the common ones). */
const PAIRS: Array<[LsstBand, LsstBand]> = [
  ['g', 'r'],
  ['g', 'r'],
  ['r', 'i'],
  ['r', 'i'],
  ['i', 'z'],
  ['i', 'z'],
  ['z', 'y'],
  ['u', 'g'],
  ['u', 'r'],
  ['g', 'i'],
  ['r', 'z'],
];

/** Share of the eligible ZTF objects Rubin also sees (about 12% of all objects), and Rubin-only ones per object. */
const SHARED_CHANCE = 0.28;
const SHARED_MAX_DEC = 25;
export const LSST_ONLY_PER_OBJECT = 0.03;

/** Detections whose measurement Level 1 must reject (a few percent), and how. */
export const LSST_FLAGS = ['psfFlux_flag', 'centroid_flag', 'pixelFlags_saturatedCenter', 'pixelFlags_suspectCenter', 'isDipole'] as const;
export type LsstFlag = (typeof LSST_FLAGS)[number];
const FLAG_CHANCE = 0.04;

export interface LsstVisit {
  id: bigint; // dayObs * 100000 + seqNum, as Rubin numbers visits
  night: number;
  mjd: number;
  band: LsstBand;
  depth: number; // 5-sigma point-source limit of the difference image [AB mag]
  seeing: number; // PSF FWHM [arcsec]
}

export interface LsstObs {
  visit: LsstVisit;
  index: number;
  detector: number;
  templateFlux: number; // flux of the varying component in the template [nJy]
  diffFlux: number; // true change since the template [nJy]
  flux: number; // measured PSF flux on the difference image [nJy]
  sigma: number; // its uncertainty [nJy]
  detected: boolean;
  diaSourceId: bigint | null;
  diaForcedSourceId: bigint;
  flag?: LsstFlag;
}

export interface LsstObject {
  sim: SimObject;
  /** Also a ZTF object (same position), or one only Rubin sees. */
  ztf: boolean;
  /** The id of the object's first DiaSource, as Rubin gives its DiaObjects; null if never detected. */
  diaObjectId: bigint | null;
  obs: LsstObs[];
}

export interface LsstPlan {
  objects: LsstObject[];
}

/** Whether Rubin also sees this ZTF object. */
export function seenByRubin(seed: number, obj: SimObject): boolean {
  return obj.cls !== 'Bogus' && obj.dec < SHARED_MAX_DEC && new Rng(seed, 'lsst-select', obj.index).chance(SHARED_CHANCE);
}

/** Position of a Rubin-only object: the southern sky ZTF cannot reach (dec -85 to -32). */
export function southernPosition(seed: number, k: number): { ra: number; dec: number } {
  const rng = new Rng(seed, 'lsst-only-position', k);
  const ra = rng.uniform(0, 360);
  const dec = (Math.asin(rng.uniform(Math.sin((-85 * Math.PI) / 180), Math.sin((-32 * Math.PI) / 180))) * 180) / Math.PI;
  return { ra, dec };
}

/** Rubin sky regions (~3.5 deg cells) of the Rubin-only objects; shared ones use their ZTF field. */
function southernRegion(ra: number, dec: number): number {
  const band = Math.floor((dec + 90) / 3.5);
  const cells = Math.max(1, Math.round((360 * Math.cos(((band * 3.5 - 88.25) * Math.PI) / 180)) / 3.5));
  return 1_000_000 + band * 1000 + Math.min(cells - 1, Math.floor((ra / 360) * cells));
}

interface RegionNight {
  region: number;
  night: number;
  times: [number, number];
  bands: [LsstBand, LsstBand];
}

/**
 * Nights Rubin visits a region: never on a night ZTF exposed the same field, at least three nights
 * apart, and not when clouds or the scheduler say otherwise. Regions only Rubin sees: every third night.
 */
function regionNights(
  seed: number,
  startMjd: number,
  region: number,
  ztfNights: Set<number> | null,
  first: number,
  last: number,
): RegionNight[] {
  const rng = new Rng(seed, 'lsst-region', region);
  const phase = rng.int(3);
  const out: RegionNight[] = [];
  let previous = -Infinity;
  for (let n = first; n <= last; n++) {
    if (ztfNights ? ztfNights.has(n) || n - previous < 3 : (((n - phase) % 3) + 3) % 3 !== 0) continue;
    if (!rng.chance(0.8)) continue;
    previous = n;
    // Cerro Pachon's night in UT is ~23:30-09:30: MJD fractions ~0.0-0.4 of the same day.
    const t1 = startMjd + n + rng.uniform(0.02, 0.33);
    out.push({ region, night: n, times: [t1, t1 + rng.uniform(0.015, 0.03)], bands: rng.pick(PAIRS) });
  }
  return out;
}

export interface LsstPlanInput {
  seed: number;
  startMjd: number;
  window: Window;
  firstNight: number;
  lastNight: number;
  /** ZTF objects (some of which Rubin also sees) and their ZTF exposures, by field. */
  ztfObjects: SimObject[];
  ztfSchedule: Map<number, Exposure[]>;
  /** Objects only Rubin sees (made by plan.ts like any other object, in the south). */
  rubinOnly: SimObject[];
}

/** Where a seed's sources start in each visit-detector's numbering (detections below 4096). */
export function lsstSourceBase(seed: number): number {
  return new Rng(seed, 'lsst-source-ids').int(2048);
}

export function planLsst(input: LsstPlanInput): LsstPlan {
  const { seed, startMjd, window } = input;
  const members: Array<{ sim: SimObject; ztf: boolean; region: number }> = [
    ...input.ztfObjects.filter((o) => seenByRubin(seed, o)).map((sim) => ({ sim, ztf: true, region: sim.field })),
    ...input.rubinOnly.map((sim) => ({ sim, ztf: false, region: southernRegion(sim.ra, sim.dec) })),
  ];

  // Visits: per region and night, then numbered per night in time order (seqNum), as Rubin does.
  const nightsByRegion = new Map<number, RegionNight[]>();
  for (const m of members) {
    if (nightsByRegion.has(m.region)) continue;
    const ztf = m.ztf ? new Set((input.ztfSchedule.get(m.region) ?? []).map((e) => e.night)) : null;
    nightsByRegion.set(m.region, regionNights(seed, startMjd, m.region, ztf, input.firstNight, input.lastNight));
  }
  const visitsByRegion = new Map<number, LsstVisit[]>();
  const byNight = new Map<number, Array<{ region: number; visit: LsstVisit }>>();
  for (const [region, nights] of [...nightsByRegion].sort((a, b) => a[0] - b[0])) {
    const list: LsstVisit[] = [];
    for (const rn of nights) {
      const cond = new Rng(seed, 'lsst-night', rn.night);
      const depthOffset = cond.clippedNormal(0, 0.25, -0.8, 0.4);
      const seeing = cond.clippedNormal(0.8, 0.15, 0.55, 1.4);
      for (let k = 0; k < 2; k++) {
        const band = rn.bands[k];
        const r = new Rng(seed, 'lsst-visit', region, rn.night, k);
        const visit: LsstVisit = {
          id: 0n,
          night: rn.night,
          mjd: rn.times[k],
          band,
          depth: BAND_MODEL[band].depth + depthOffset + r.normal(0, 0.1),
          seeing: seeing * BAND_MODEL[band].seeing * r.uniform(0.95, 1.05),
        };
        list.push(visit);
        if (!byNight.has(rn.night)) byNight.set(rn.night, []);
        byNight.get(rn.night)!.push({ region, visit });
      }
    }
    visitsByRegion.set(region, list);
  }
  for (const [night, list] of byNight) {
    list.sort((a, b) => a.visit.mjd - b.visit.mjd || a.region - b.region);
    // dayObs is the date at UTC-12h: the night of MJD day D (UT 00-10h) belongs to day D - 1.
    const dayObs = BigInt(utDate(startMjd + night - 1));
    list.forEach(({ visit }, i) => {
      visit.id = dayObs * 100_000n + BigInt(20 + 3 * i);
    });
  }

  const objects: LsstObject[] = [];
  const counters = new Map<string, number>();
  // Each seed numbers a visit-detector's sources from its own place (as plan.ts does for ZTF): two
  // simulations of the same nights otherwise give unrelated sources the same diaSourceId.
  const sourceBase = lsstSourceBase(seed);
  for (const m of members) {
    const rng = new Rng(m.sim.seed, 'lsst-observe');
    const lc = m.sim.lc;
    const obs: LsstObs[] = [];
    for (const visit of visitsByRegion.get(m.region) ?? []) {
      if (visit.mjd < window.first || rng.chance(0.03)) continue; // chip gap, or off the focal plane
      const model = BAND_MODEL[visit.band];
      const colour = Math.pow(10, -0.4 * model.colour) * NJY_PER_ZP25;
      const total = lc ? lc.flux(model.base, visit.mjd) * colour : 0;
      const templateFlux = lc ? lc.refFlux[model.base] * colour : 0;
      const diffFlux = total - templateFlux;
      // Sky-limited noise, source photon noise and a 0.4% calibration / subtraction floor.
      const sigLim = magToNjy(visit.depth) / 5;
      const sigma = Math.sqrt(sigLim * sigLim + Math.max(total, 0) + (0.004 * total) ** 2);
      const flux = diffFlux + rng.normal(0, sigma);
      const detected = Math.abs(flux) >= 5 * sigma;
      const detector = rng.int(DETECTORS);
      const flag = detected && rng.chance(FLAG_CHANCE) ? rng.pick(LSST_FLAGS) : undefined;
      // Ids as Rubin builds them from the visit and detector: detections below 4096, forced points above.
      const key = `${visit.id}:${detector}`;
      const n = counters.get(key) ?? sourceBase;
      if (n >= 4096) throw new Error(`simulator: more than ${4096 - sourceBase} Rubin sources on one detector in one visit`);
      counters.set(key, n + 1);
      const base = ((visit.id << 8n) | BigInt(detector)) << 13n;
      obs.push({
        visit,
        index: obs.length,
        detector,
        templateFlux,
        diffFlux,
        flux,
        sigma,
        detected,
        diaSourceId: detected ? base + BigInt(n) : null,
        diaForcedSourceId: base + 4096n + BigInt(n),
        flag,
      });
    }
    objects.push({ sim: m.sim, ztf: m.ztf, diaObjectId: obs.find((o) => o.detected)?.diaSourceId ?? null, obs });
  }
  return { objects };
}

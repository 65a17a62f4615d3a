// The simulated universe and what ZTF sees of it: a catalogue of objects (class, position, light
// curve, what is around them in the reference image) and, per object, every exposure covering it
// with the measured difference flux and whether it was detected. Packets are built from this
// afterwards, so planning is cheap and fully determines the survey.
import {
  agn,
  cepheid,
  eclipsingBinary,
  type FlareStar,
  flareStar,
  type LightCurve,
  magToFlux,
  nova,
  rrLyrae,
  snIa,
  snIIP,
  type Window,
} from './lightcurves.ts';
import { LSST_ONLY_PER_OBJECT, type LsstPlan, planLsst, southernPosition } from './lsst-plan.ts';
import { isM31Object, m31Position } from './m31.ts';
import { Rng } from './prng.ts';
import { buildSchedule, type Exposure, fieldOf, pidOf } from './schedule.ts';
import { type BogusMode, type Obs, SIM_CLASSES, type SimClass, type SimObject, type StaticSource } from './sim-object.ts';

export { type BogusMode, type Obs, SIM_CLASSES, type SimClass, type SimObject, type StaticSource };

// Bogus "objects" yield only 1-4 alerts each, real ones ~5-15, so this gives ~7% bogus alerts.
const WEIGHTS: Record<SimClass, number> = {
  'SN Ia': 0.17,
  'SN II-P': 0.09,
  'RR Lyrae': 0.12,
  Cepheid: 0.05,
  'Eclipsing binary': 0.07,
  'M dwarf flare': 0.09,
  AGN: 0.11,
  Nova: 0.03,
  Bogus: 0.3,
};

/** Classes whose position has been detected since the survey began (ids from 2018-2020). */
const PERSISTENT: Partial<Record<SimClass, number>> = {
  'RR Lyrae': 0.7,
  Cepheid: 0.6,
  'Eclipsing binary': 0.35,
  AGN: 0.25,
  'M dwarf flare': 0.03,
};

/** Days of survey simulated before the first written night, to give packets a 30-day history. */
export const PREROLL_NIGHTS = 30;

export interface SurveyPlan {
  window: Window;
  objects: SimObject[];
  /** What Rubin sees: some of these objects, and a few southern ones only it can see (lsst-plan.ts). */
  lsst: LsstPlan;
}

function starColor(rng: Rng, magR: number): [number, number] {
  return [magR + rng.uniform(0.3, 1.2), magR];
}

function makeObject(seed: number, index: number, cls: SimClass, w: Window, inM31 = false, at?: { ra: number; dec: number }): SimObject {
  const rng = new Rng(seed, 'object', index);
  let ra = rng.uniform(0, 360);
  let dec = (Math.asin(rng.uniform(Math.sin(-Math.PI / 6), 0.999)) * 180) / Math.PI; // dec > -30
  // Drawn from a stream of its own, so the object's other properties come out as for any object.
  if (inM31) ({ ra, dec } = m31Position(new Rng(seed, 'm31', index)));
  if (at) ({ ra, dec } = at);
  const statics: StaticSource[] = [];
  const nField = rng.int(6);
  for (let i = 0; i < nField; i++) {
    // Field stars at least 5" away so they never blend with the object itself.
    const r = rng.uniform(5, 30);
    const th = rng.uniform(0, 2 * Math.PI);
    statics.push({ dx: r * Math.cos(th), dy: r * Math.sin(th), mag: starColor(rng, rng.uniform(15, 20.5)), sigmaPx: 0, star: true });
  }
  const counterpart = (mag: [number, number], star: boolean, sigmaPx = 0, offset = rng.uniform(0.01, 0.07)) => {
    const th = rng.uniform(0, 2 * Math.PI);
    statics.unshift({ dx: offset * Math.cos(th), dy: offset * Math.sin(th), mag, sigmaPx, star });
    return 0;
  };
  const fromFlux = (f: [number, number]): [number, number] => [25 - 2.5 * Math.log10(f[0]), 25 - 2.5 * Math.log10(f[1])];
  let lc: LightCurve | null = null;
  let refIdx = -1;
  const host = (p: number) => {
    if (!rng.chance(p)) return;
    const magR = rng.uniform(17.5, 21);
    refIdx = counterpart([magR + rng.uniform(0.6, 1.0), magR], false, rng.uniform(1.5, 3.5), rng.uniform(0.3, 4));
  };
  switch (cls) {
    case 'SN Ia':
      lc = snIa(rng, w);
      host(0.75);
      break;
    case 'SN II-P':
      lc = snIIP(rng, w);
      host(0.9);
      break;
    case 'RR Lyrae':
      lc = rrLyrae(rng);
      break;
    case 'Cepheid':
      lc = cepheid(rng);
      break;
    case 'Eclipsing binary':
      lc = eclipsingBinary(rng);
      break;
    case 'M dwarf flare':
      lc = flareStar(rng, w);
      break;
    case 'AGN': {
      lc = agn(rng, w);
      if (rng.chance(0.6)) {
        const magR = rng.uniform(17, 19.5);
        statics.push({ dx: 0, dy: 0, mag: [magR + 0.8, magR], sigmaPx: rng.uniform(2, 4), star: false });
      }
      refIdx = counterpart(fromFlux(lc.refFlux), false);
      break;
    }
    case 'Nova': {
      if (inM31) {
        // At 780 kpc the progenitor is far below the reference image's depth; what the reference shows
        // at the nova is M31's own (red, extended) bulge or disk light, a few arcsec across.
        lc = nova(rng, w, null, [16, 18.5]);
        const magR = rng.uniform(17.5, 19.5);
        refIdx = counterpart([magR + rng.uniform(0.7, 1.0), magR], false, rng.uniform(2.5, 4), rng.uniform(1, 4));
        break;
      }
      const progenitor = rng.chance(0.7) ? rng.uniform(19.5, 21.5) : null;
      lc = nova(rng, w, progenitor);
      if (progenitor !== null) refIdx = counterpart(fromFlux(lc.refFlux), true);
      break;
    }
    case 'Bogus':
      // Many artefacts sit next to bright stars (ghosts, bad subtractions).
      if (rng.chance(0.4)) refIdx = counterpart(starColor(rng, rng.uniform(12.5, 14.5)), true, 0, rng.uniform(0.5, 3));
      break;
  }
  if (lc && cls !== 'SN Ia' && cls !== 'SN II-P' && cls !== 'AGN' && cls !== 'Nova') {
    refIdx = counterpart(fromFlux(lc.refFlux), true); // the variable star itself
  }
  // No counterpart: the nearest reference source is the closest field star, if any.
  if (refIdx < 0 && statics.length > 0) {
    refIdx = statics.reduce((best, s, i) => (Math.hypot(s.dx, s.dy) < Math.hypot(statics[best].dx, statics[best].dy) ? i : best), 0);
  }
  const detFrac = PERSISTENT[cls];
  const baseCov = 150 + rng.int(1400);
  return {
    index,
    cls,
    seed: rng.u32(),
    ra,
    dec,
    field: fieldOf(ra, dec),
    rcid: rng.int(64),
    xpos: rng.uniform(40, 3032),
    ypos: rng.uniform(40, 3040),
    lc,
    statics,
    refIdx,
    baseCov,
    baseDet: detFrac ? Math.max(1, Math.round(baseCov * detFrac * rng.uniform(0.5, 1))) : 0,
    jdStartHist: detFrac ? 2458200 + rng.uniform(0, 650) : null,
    objectId: '',
    obs: [],
  };
}

function observe(obj: SimObject, exposures: Exposure[], w: Window): void {
  const rng = new Rng(obj.seed, 'observe');
  const lc = obj.lc;
  if (lc && obj.cls === 'M dwarf flare') {
    // Guarantee one caught flare in the written nights so every flare star shows up.
    const inSurvey = exposures.filter((e) => e.night >= 0 && e.fid === 1);
    if (inSurvey.length > 0) {
      const e = rng.pick(inSurvey);
      (lc as FlareStar).addFlare(e.mjd - rng.uniform(0.002, 0.03), rng.uniform(1.5, 3.5), rng.uniform(0.05, 0.2));
    }
  }
  const bogusLeft = new Set<number>();
  if (!lc) {
    const candidates = exposures.map((e, i) => (e.night >= 0 ? i : -1)).filter((i) => i >= 0);
    const n = Math.min(candidates.length, rng.chance(0.5) ? 1 : 2 + rng.int(3));
    while (bogusLeft.size < n) bogusLeft.add(rng.pick(candidates));
  }
  let nCov = 0;
  let nDet = 0;
  exposures.forEach((exp, i) => {
    if (exp.mjd < w.first || rng.chance(0.02)) return; // chip gap / masked
    const b = exp.fid === 1 ? 0 : 1;
    const sigLim = magToFlux(exp.diffmaglim) / 5;
    let diffFlux = 0;
    let total = 0;
    if (lc) {
      total = lc.flux(b, exp.mjd);
      diffFlux = total - lc.refFlux[b];
    }
    // Sky-limited noise plus source photon noise and a 0.5% subtraction systematic.
    const sigma = Math.sqrt(sigLim * sigLim + 0.15 * total + (0.005 * total) ** 2);
    let fluxObs = diffFlux + rng.normal(0, sigma);
    let detected = Math.abs(fluxObs) >= 5 * sigLim && Math.abs(fluxObs) >= 4 * sigma;
    let bogus: BogusMode | undefined;
    if (!lc) {
      detected = bogusLeft.has(i);
      if (detected) {
        bogus = rng.pick(['hotpix', 'streak', 'blob', 'dipole', 'lowrb'] as const);
        const mag = Math.min(exp.diffmaglim - 0.3, rng.uniform(17, 19.8));
        fluxObs = magToFlux(mag) * (rng.chance(0.85) ? 1 : -1);
        diffFlux = fluxObs;
      }
    }
    nCov++;
    if (detected) nDet++;
    obj.obs.push({
      exp,
      index: obj.obs.length,
      pid: pidOf(exp, obj.rcid),
      diffFlux,
      fluxObs,
      sigma,
      detected,
      candid: null,
      tblid: 0,
      nCov,
      nDet,
      bogus,
    });
  });
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function encodeId(n: number): string {
  let s = '';
  for (let i = 0; i < 7; i++, n = Math.floor(n / 26)) s = LETTERS[n % 26] + s;
  return s;
}

/** ZTF-style ids: year of first detection + 7 letters, handed out in order of first detection. */
function assignObjectIds(seed: number, objects: SimObject[]): void {
  const firstJd = (o: SimObject) => o.jdStartHist ?? 2400000.5 + (o.obs.find((x) => x.detected)?.exp.mjd ?? 1e6);
  const byYear = new Map<string, SimObject[]>();
  for (const o of objects) {
    const year = new Date(Math.round((firstJd(o) - 2440587.5) * 86400000)).getUTCFullYear();
    const key = String(Math.min(99, Math.max(17, year - 2000)));
    if (!byYear.has(key)) byYear.set(key, []);
    byYear.get(key)!.push(o);
  }
  for (const [year, list] of byYear) {
    list.sort((a, b) => firstJd(a) - firstJd(b) || a.index - b.index);
    const rng = new Rng(seed, 'objectIds', year);
    let n = Math.floor(rng.uniform(0.3, 40) * 26 ** 5);
    for (const o of list) {
      n += 1 + rng.int(30);
      o.objectId = `ZTF${year}${encodeId(n)}`;
    }
  }
}

/**
 * Real objects to place some simulated ones on (the demo passes catalog rows): supernovae in galaxies,
 * variable stars on stars, so that the demo's loci have catalog matches.
 */
export interface SurveyAnchors {
  galaxies: Array<{ ra: number; dec: number; radiusDeg: number }>;
  stars: Array<{ ra: number; dec: number }>;
}

/** Every ANCHOR_EVERY-th object (at two offsets of the cycle) goes on an anchor when there are any. */
const ANCHOR_EVERY = 60;

function anchored(seed: number, index: number, anchors?: SurveyAnchors): { cls: SimClass; at: { ra: number; dec: number } } | undefined {
  const k = Math.floor(index / ANCHOR_EVERY);
  if (index % ANCHOR_EVERY === 17 && anchors?.galaxies.length) {
    // Within the inner third of the galaxy, where supernovae mostly are.
    const g = anchors.galaxies[k % anchors.galaxies.length];
    const rng = new Rng(seed, 'anchor', index);
    const r = rng.uniform(0, g.radiusDeg / 3);
    const th = rng.uniform(0, 2 * Math.PI);
    const dec = Math.max(-89.9, Math.min(89.9, g.dec + r * Math.sin(th)));
    return { cls: 'SN Ia', at: { ra: (g.ra + (r * Math.cos(th)) / Math.cos((dec * Math.PI) / 180) + 360) % 360, dec } };
  }
  if (index % ANCHOR_EVERY === 43 && anchors?.stars.length) {
    const s = anchors.stars[k % anchors.stars.length];
    return { cls: 'RR Lyrae', at: { ra: s.ra, dec: s.dec } };
  }
  return undefined;
}

/** Classes of the objects only Rubin sees (no ZTF artefacts; flares need ZTF's guaranteed one). */
const LSST_ONLY_CLASSES: SimClass[] = [
  'SN Ia',
  'SN Ia',
  'SN Ia',
  'SN II-P',
  'SN II-P',
  'RR Lyrae',
  'Cepheid',
  'Eclipsing binary',
  'AGN',
  'AGN',
  'Nova',
];

export interface PlanOptions {
  objects: number;
  nights: number;
  seed: number;
  startMjd: number;
  anchors?: SurveyAnchors;
  /** Rubin alerts too (default true): a share of the objects, plus Rubin-only ones in the south. */
  lsst?: boolean;
  /**
   * Days of Rubin visits simulated before the first written night (default and minimum: ZTF's 30-day
   * preroll). With 365 or more, packets carry the year of DiaSources and forced photometry that real
   * Rubin alerts of long-observed objects carry: tens of kilobytes instead of a few.
   */
  lsstHistoryDays?: number;
}

/** Where a seed's sources start in each exposure's numbering (candid's last six digits, after 10,000). */
export function ztfSourceBase(seed: number): number {
  return new Rng(seed, 'ztf-source-ids').int(900) * 1000;
}

export function planSurvey(opts: PlanOptions): SurveyPlan {
  const { seed, startMjd } = opts;
  const window: Window = { first: startMjd - PREROLL_NIGHTS, start: startMjd, end: startMjd + opts.nights };
  const rng = new Rng(seed, 'classes');
  const total = Object.values(WEIGHTS).reduce((a, b) => a + b, 0);
  const objects: SimObject[] = [];
  for (let i = 0; i < opts.objects; i++) {
    // The first objects cycle through the classes so even a tiny survey has one of each.
    let cls: SimClass = SIM_CLASSES[i % SIM_CLASSES.length];
    if (i >= SIM_CLASSES.length) {
      let u = rng.next() * total;
      for (const c of SIM_CLASSES)
        if ((u -= WEIGHTS[c]) < 0 || c === 'Bogus') {
          cls = c;
          break;
        }
    }
    // A few are novae in M31 instead (after the class draw, which the other objects' classes follow).
    const inM31 = isM31Object(i);
    // And a few sit on real galaxies and stars when the caller gives some (after the class draw too).
    const anchor = inM31 ? undefined : anchored(seed, i, opts.anchors);
    objects.push(makeObject(seed, i, inM31 ? 'Nova' : (anchor?.cls ?? cls), window, inM31, anchor?.at));
  }
  const schedule = buildSchedule(
    seed,
    startMjd,
    objects.map((o) => o.field),
    -PREROLL_NIGHTS,
    opts.nights - 1,
  );
  const tblids = new Map<bigint, number>();
  // Two simulations of the same nights (other seeds) observe in the same exposures: each numbers its
  // sources from a block of its own, or their candids would meet and an alert of one would be taken for
  // an alert of the other, already stored on a locus elsewhere in the sky.
  const sourceBase = ztfSourceBase(seed);
  for (const obj of objects) {
    observe(obj, schedule.get(obj.field) ?? [], window);
    for (const o of obj.obs) {
      if (!o.detected) continue;
      o.tblid = tblids.get(o.pid) ?? 0;
      tblids.set(o.pid, o.tblid + 1);
      if (sourceBase + o.tblid >= 990_000) throw new Error(`simulator: more than ${990_000 - sourceBase} detections in one exposure`);
      o.candid = o.pid * 1_000_000n + 10_000n + BigInt(sourceBase + o.tblid);
    }
  }
  assignObjectIds(seed, objects);
  if (opts.lsst === false) return { window, objects, lsst: { objects: [] } };
  // Rubin-only objects come after the ZTF ones (indices objects, objects + 1, ...) and from streams of
  // their own, so adding Rubin changes nothing of what ZTF sees.
  const rubinOnly: SimObject[] = [];
  for (let k = 0; k < Math.round(opts.objects * LSST_ONLY_PER_OBJECT); k++) {
    const cls = new Rng(seed, 'lsst-only-class', k).pick(LSST_ONLY_CLASSES);
    rubinOnly.push(makeObject(seed, opts.objects + k, cls, window, false, southernPosition(seed, k)));
  }
  // Rubin's own preroll only: ZTF's objects, schedule and packets stay as they are.
  const lsstPreroll = Math.max(PREROLL_NIGHTS, Math.floor(opts.lsstHistoryDays ?? PREROLL_NIGHTS));
  const lsst = planLsst({
    seed,
    startMjd,
    window: { ...window, first: startMjd - lsstPreroll },
    firstNight: -lsstPreroll,
    lastNight: opts.nights - 1,
    ztfObjects: objects,
    ztfSchedule: schedule,
    rubinOnly,
  });
  return { window, objects, lsst };
}

// A simulated object and its observations: what planning (plan.ts, lsst-plan.ts) produces and packet
// writing reads. Types only, so the ZTF and Rubin planners share them without importing each other.
import type { LightCurve } from './lightcurves.ts';
import type { Exposure } from './schedule.ts';

export const SIM_CLASSES = [
  'SN Ia',
  'SN II-P',
  'RR Lyrae',
  'Cepheid',
  'Eclipsing binary',
  'M dwarf flare',
  'AGN',
  'Nova',
  'Bogus',
] as const;
export type SimClass = (typeof SIM_CLASSES)[number];

/** Something in the reference image near the object: field star, host galaxy, the variable star. */
export interface StaticSource {
  dx: number; // offset from the object's true position [arcsec], +x = +RA
  dy: number;
  mag: [number, number]; // g, R
  sigmaPx: number; // intrinsic Gaussian size; 0 for point sources
  star: boolean;
}

export type BogusMode = 'hotpix' | 'streak' | 'blob' | 'dipole' | 'lowrb';

export interface Obs {
  exp: Exposure;
  index: number;
  pid: bigint;
  diffFlux: number; // true difference flux (zp25 units)
  fluxObs: number; // measured
  sigma: number;
  detected: boolean;
  candid: bigint | null;
  tblid: number;
  nCov: number; // coverage / detection counts within the simulation, up to and including this
  nDet: number;
  bogus?: BogusMode;
}

export interface SimObject {
  index: number;
  cls: SimClass;
  seed: number;
  ra: number;
  dec: number;
  field: number;
  rcid: number;
  xpos: number;
  ypos: number;
  lc: LightCurve | null; // null for bogus
  statics: StaticSource[];
  /** statics[refIdx] is the nearest reference-catalogue source (magnr/distnr), -1 if none. */
  refIdx: number;
  baseCov: number; // coverage and detections before the simulation started
  baseDet: number;
  jdStartHist: number | null;
  objectId: string;
  obs: Obs[];
}

/**
 * Level 1 filters (wire format section 5): alerts failing them are not stored. Each check is skipped
 * when its field is absent, as in the real system.
 */
export type Level1Stage = 'bogus' | 'bad_seeing' | 'flags' | 'dipole' | 'solar_system' | 'bad_time';
export type Level1Result = { passed: true } | { passed: false; stage: Level1Stage; reason: string };

const MIN_REAL_BOGUS = 0.55;

// Observation times outside 1950-2100 (MJD 33282-88069) are corrupt, not observations: alert rows are
// stored in monthly partitions of their MJD, and such a time would make a partition far outside the
// archive, or none at all (past the range of a partition bound), failing its whole batch.
const MIN_MJD = 33282;
const MAX_MJD = 88069;

/** Level 1 for any row's observation time (every survey, triggering rows and history alike). */
export function level1Time(mjd: number): Level1Result {
  if (Number.isFinite(mjd) && mjd >= MIN_MJD && mjd <= MAX_MJD) return { passed: true };
  return { passed: false, stage: 'bad_time', reason: `MJD ${mjd} outside ${MIN_MJD}-${MAX_MJD}` };
}
const MAX_ABS_MAGDIFF = 1.0;
const MAX_FWHM_ARCSEC = 5.0;
const MAX_ELONGATION = 1.2;

export function level1(candidate: Record<string, unknown>, prefix = ''): Level1Result {
  // Stored history rows carry the candidate fields with the ztf_ prefix; no copy is made to read them.
  const field = (name: string) => numberOrNull(candidate[prefix + name]);
  const rb = field('rb');
  if (rb !== null && rb < MIN_REAL_BOGUS) return bogus(`rb ${rb} < ${MIN_REAL_BOGUS}`);
  const nbad = field('nbad');
  if (nbad !== null && nbad !== 0) return bogus(`nbad ${nbad} != 0`);
  const magdiff = field('magdiff');
  if (magdiff !== null && (magdiff < -MAX_ABS_MAGDIFF || magdiff > MAX_ABS_MAGDIFF)) {
    return bogus(`magdiff ${magdiff} outside [-1, 1]`);
  }
  const fwhm = field('fwhm');
  if (fwhm !== null && fwhm > MAX_FWHM_ARCSEC) return badSeeing(`fwhm ${fwhm} > ${MAX_FWHM_ARCSEC}`);
  const elong = field('elong');
  if (elong !== null && elong > MAX_ELONGATION) return badSeeing(`elong ${elong} > ${MAX_ELONGATION}`);
  return { passed: true };
}

// Rubin: DiaSources are already cut at 5 sigma by the alert production; the checks below remove
// measurements that cannot be trusted (their flux, centroid or pixels flagged), dipoles (mostly
// subtraction residuals) and detections of known solar-system objects (not transients; they belong to
// a moving object, not to a fixed position on the sky).
const LSST_MIN_SNR = 5;
const LSST_REJECTING_FLAGS = [
  'psfFlux_flag',
  'centroid_flag',
  'pixelFlags_bad',
  'pixelFlags_offimage',
  'pixelFlags_nodataCenter',
  'pixelFlags_saturatedCenter',
  'pixelFlags_suspectCenter',
] as const;

/** Level 1 for a Rubin DiaSource (its own field names). */
export function level1Lsst(diaSource: Record<string, unknown>): Level1Result {
  const snr = numberOrNull(diaSource.snr);
  if (snr !== null && snr < LSST_MIN_SNR) return bogus(`snr ${snr} < ${LSST_MIN_SNR}`);
  const ssObjectId = diaSource.ssObjectId;
  if (ssObjectId !== null && ssObjectId !== undefined && ssObjectId !== 0 && ssObjectId !== '0') {
    return { passed: false, stage: 'solar_system', reason: `ssObjectId ${String(ssObjectId)}` };
  }
  if (diaSource.isDipole === true) return { passed: false, stage: 'dipole', reason: 'isDipole set' };
  for (const flag of LSST_REJECTING_FLAGS) {
    if (diaSource[flag] === true) return { passed: false, stage: 'flags', reason: `${flag} set` };
  }
  return { passed: true };
}

/** A short reason key for summaries, e.g. "bogus: rb" from "rb 0.3 < 0.55". */
export function reasonKey(result: Level1Result): string {
  return result.passed ? 'passed' : `${result.stage}: ${result.reason.split(' ')[0]}`;
}

function bogus(reason: string): Level1Result {
  return { passed: false, stage: 'bogus', reason };
}

function badSeeing(reason: string): Level1Result {
  return { passed: false, stage: 'bad_seeing', reason };
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

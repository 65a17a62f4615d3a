/**
 * Level 1 filters (wire format section 5): alerts failing them are not stored. Each check is skipped
 * when its field is absent, as in the real system.
 */
export type Level1Result = { passed: true } | { passed: false; stage: 'bogus' | 'bad_seeing'; reason: string };

const MIN_REAL_BOGUS = 0.55;
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

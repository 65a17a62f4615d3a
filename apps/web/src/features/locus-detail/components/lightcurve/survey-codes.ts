import type { LightcurvePoint } from '../../api/lightcurve';

/**
 * What the surveys' codes mean on the charts. ZTF passbands are g, R, i; Rubin's are u, g, r, i,
 * z, y (lowercase). Each of the seven gets its own colour: ZTF's R and Rubin's r are different
 * filters and must never look alike. g and i keep one colour across the two surveys (same band).
 */
export const PASSBAND_COLORS: Record<string, string> = {
  u: '#3b4cc0',
  g: '#1b9e3b',
  r: '#ff7f0e',
  R: '#d62728',
  i: '#9467bd',
  z: '#8c564b',
  y: '#e377c2',
};
const FALLBACK_COLOR = '#555555';

/** Legend order: by wavelength, ZTF's R beside Rubin's r; unknown bands after, alphabetically. */
const PASSBAND_ORDER = ['u', 'g', 'r', 'R', 'i', 'z', 'y'];

export function passbandColor(passband: string): string {
  return PASSBAND_COLORS[passband] ?? FALLBACK_COLOR;
}

export function sortPassbands(passbands: Iterable<string>): string[] {
  const rank = (band: string) => {
    const index = PASSBAND_ORDER.indexOf(band);
    return index === -1 ? PASSBAND_ORDER.length : index;
  };
  return [...new Set(passbands)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** ant_survey: 1 ZTF candidate, 2 ZTF upper limit, 3 Rubin detection, 4 Rubin forced photometry. */
export const ALERT_TYPE_LABELS: Record<number, string> = {
  1: 'ZTF candidate',
  2: 'ZTF upper limit',
  3: 'Rubin detection',
  4: 'Rubin forced photometry',
};

/** Alert id prefixes, for lightcurves whose rows lack ant_survey. */
const ALERT_TYPE_BY_PREFIX: Record<string, number> = { ztf_candidate: 1, ztf_upper_limit: 2, lsst: 3, lsst_forced: 4 };

/** A point's alert type: its ant_survey, else what its alert id's prefix says; undefined if neither. */
export function alertTypeOf(point: Pick<LightcurvePoint, 'ant_survey' | 'alert_id'>): number | undefined {
  if (typeof point.ant_survey === 'number' && Number.isInteger(point.ant_survey)) return point.ant_survey;
  const prefix = point.alert_id.slice(0, point.alert_id.indexOf(':'));
  return ALERT_TYPE_BY_PREFIX[prefix];
}

/** The lightcurve's in-chart legend has about 130 px for a label. */
const SHORT_LABELS: Record<number, string> = { ...ALERT_TYPE_LABELS, 4: 'Rubin forced phot.' };

export function alertTypeLabel(code: number, form: 'full' | 'short' = 'full'): string {
  return (form === 'short' ? SHORT_LABELS : ALERT_TYPE_LABELS)[code] ?? `Survey code ${code}`;
}

import type { LightcurvePoint } from '@/features/locus-detail/api/lightcurve';

/**
 * What the surveys' codes mean on the charts. ZTF passbands are g, R, i; Rubin's are u, g, r, i,
 * z, y (lowercase). Each of the seven gets its own colour from the Okabe-Ito palette, chosen to stay
 * distinct under the common colour-vision deficiencies (its yellow is left out: too faint on white).
 * ZTF's R and Rubin's r are different filters and must never look alike; g and i keep one colour
 * across the two surveys (same band).
 */
export const PASSBAND_COLORS: Record<string, string> = {
  u: '#CC79A7',
  g: '#009E73',
  r: '#E69F00',
  R: '#D55E00',
  i: '#0072B2',
  z: '#56B4E9',
  y: '#000000',
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

/**
 * What kind of point an alert is. `ant_survey` is read as clients read it (ADR 0013): 1 ZTF detection,
 * 2 ZTF upper limit, 3 DECam, 4 LSST (Rubin). Rubin's code covers detections and forced photometry,
 * told apart by the `lsst_forced:` alert id; a forced point without ant_mag is an upper limit.
 * An unknown code N is `survey_N`.
 */
export type AlertType =
  'ztf_detection' | 'ztf_upper_limit' | 'decam' | 'rubin_detection' | 'rubin_forced' | 'rubin_upper_limit' | `survey_${number}`;

const ALERT_TYPE_ORDER: AlertType[] = ['ztf_detection', 'ztf_upper_limit', 'decam', 'rubin_detection', 'rubin_forced', 'rubin_upper_limit'];

const ALERT_TYPE_LABELS: Record<string, string> = {
  ztf_detection: 'ZTF detection',
  ztf_upper_limit: 'ZTF upper limit',
  decam: 'DECam',
  rubin_detection: 'Rubin detection',
  rubin_forced: 'Rubin forced measurement',
  rubin_upper_limit: 'Rubin upper limit',
};

/** The lightcurve's in-chart legend has about 130 px for a label. */
const SHORT_LABELS: Record<string, string> = { ...ALERT_TYPE_LABELS, rubin_forced: 'Rubin forced meas.' };

/** ant_survey codes by alert id prefix, for lightcurves whose rows lack ant_survey. */
const SURVEY_CODE_BY_PREFIX: Record<string, number> = { ztf_candidate: 1, ztf_upper_limit: 2, lsst: 4, lsst_forced: 4 };

/** A point's alert type: from its ant_survey (else its alert id's prefix) and, for Rubin, its id; undefined if neither says. */
export function alertTypeOf(point: Pick<LightcurvePoint, 'ant_survey' | 'alert_id' | 'ant_mag'>): AlertType | undefined {
  const prefix = point.alert_id.slice(0, Math.max(point.alert_id.indexOf(':'), 0));
  const code =
    typeof point.ant_survey === 'number' && Number.isInteger(point.ant_survey) ? point.ant_survey : SURVEY_CODE_BY_PREFIX[prefix];
  if (code === undefined) return undefined;
  if (code === 1) return 'ztf_detection';
  if (code === 2) return 'ztf_upper_limit';
  if (code === 3) return 'decam';
  if (code === 4) {
    if (prefix !== 'lsst_forced') return 'rubin_detection';
    return point.ant_mag === undefined ? 'rubin_upper_limit' : 'rubin_forced';
  }
  return `survey_${code}`;
}

const CODE_OF_TYPE: Record<string, number> = {
  ztf_detection: 1,
  ztf_upper_limit: 2,
  decam: 3,
  rubin_detection: 4,
  rubin_forced: 4,
  rubin_upper_limit: 4,
};

/** The ant_survey code an alert type stands for (shown beside its label). */
export function alertTypeCode(type: AlertType): number {
  return CODE_OF_TYPE[type] ?? Number(type.slice('survey_'.length));
}

export function alertTypeLabel(type: AlertType, form: 'full' | 'short' = 'full'): string {
  return (form === 'short' ? SHORT_LABELS : ALERT_TYPE_LABELS)[type] ?? `Survey code ${alertTypeCode(type)}`;
}

/** The types present, in legend order: ZTF, DECam, Rubin, then unknown codes by number. */
export function sortAlertTypes(types: Iterable<AlertType>): AlertType[] {
  const rank = (type: AlertType) => {
    const index = ALERT_TYPE_ORDER.indexOf(type);
    return index === -1 ? ALERT_TYPE_ORDER.length + alertTypeCode(type) : index;
  };
  return [...new Set(types)].sort((a, b) => rank(a) - rank(b));
}

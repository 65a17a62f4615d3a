import { foldPhase, limitingFlux, ztfDifferenceFlux } from '@antares/astro';

import { isDrawable, type LightcurvePoint } from '@/features/locus-detail/api/lightcurve';

import type { Mark, MarkKind, Quantity } from './lightcurve-marks';
import { alertTypeLabel, alertTypeOf } from './survey-codes';

/**
 * The lightcurve's other views of the same points: difference fluxes in nJy instead of magnitudes,
 * the limit marks worth drawing, the phase-folded abscissa, and the CSV of what is plotted.
 */

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * Flux marks from each alert's own fields: Rubin's psfFlux / psfFluxErr (nJy, detections and forced
 * photometry alike, significant or not: a flux needs no detection), ZTF's magpsf / sigmapsf signed
 * by isdiffpos, and a ZTF non-detection as an upper limit at its limiting flux (diffmaglim, 5 sigma).
 * `propertiesOf` gives an alert's properties, or undefined while the alerts are loading.
 */
export function buildFluxMarks(
  points: LightcurvePoint[],
  propertiesOf: (alertId: string) => Record<string, unknown> | undefined,
  rcidByAlert: Map<string, number>,
): Mark[] {
  const marks: Mark[] = [];
  for (const point of points) {
    const p = propertiesOf(point.alert_id) ?? {};
    const base = {
      alertId: point.alert_id,
      passband: point.ant_passband,
      mjd: point.ant_mjd,
      x: point.ant_mjd,
      rcid: rcidByAlert.get(point.alert_id),
      alertType: alertTypeOf(point),
    };
    const rubinFlux = num(p.lsst_diaSource_psfFlux) ?? num(p.lsst_diaForcedSource_psfFlux);
    const rubinErr = num(p.lsst_diaSource_psfFluxErr) ?? num(p.lsst_diaForcedSource_psfFluxErr);
    const ztf = ztfDifferenceFlux(
      num(p.ztf_magpsf) ?? (p.ztf_isdiffpos === undefined ? undefined : point.ant_mag),
      num(p.ztf_sigmapsf) ?? point.ant_magerr,
      p.ztf_isdiffpos,
    );
    const measured = rubinFlux !== undefined ? { flux: rubinFlux, fluxErr: rubinErr } : ztf;
    if (measured) {
      marks.push({ ...base, key: `${point.alert_id}:f`, kind: 'magnitude', y: measured.flux, err: measured.fluxErr });
    } else if (point.ant_mag === undefined && point.ant_maglim !== undefined && point.ant_maglim >= 0) {
      marks.push({ ...base, key: `${point.alert_id}:u`, kind: 'upper_limit', y: limitingFlux(point.ant_maglim) });
    } else {
      marks.push({ ...base, key: `${point.alert_id}:o`, kind: 'other' });
    }
  }
  return marks;
}

/**
 * Observing nights split at 16:48 UTC (MJD fraction 0.7): the afternoon at both Palomar (ZTF) and
 * Cerro Pachon (Rubin), so no night's visits straddle the boundary.
 */
export function nightOf(mjd: number): number {
  return Math.floor(mjd - 0.7);
}

/** Deeper = more constraining: a fainter magnitude, or a smaller flux. */
function deeper(a: number, b: number, quantity: Quantity): boolean {
  return quantity === 'magnitude' ? a > b : a < b;
}

export const LIMIT_RULE =
  "Limits: one per band and night, the most constraining; upper limits only where fainter than the band's brightest detection; lower limits only outside their point's error bar.";

/**
 * The limit marks that carry information, and every other mark. Per band and night only the most
 * constraining limit of each kind is kept (the deepest upper limit; the brightest lower limit); an
 * upper limit no fainter than the band's brightest detection rules out nothing that was seen, and
 * a lower limit inside its point's error bar says nothing the bar does not: both are dropped.
 */
export function informativeMarks(marks: Mark[], quantity: Quantity): Mark[] {
  const brightest = new Map<string, number>();
  for (const mark of marks) {
    if (mark.kind !== 'magnitude' || mark.y === undefined) continue;
    const current = brightest.get(mark.passband);
    if (current === undefined || deeper(current, mark.y, quantity)) brightest.set(mark.passband, mark.y);
  }
  const pointOf = new Map(marks.filter((mark) => mark.kind === 'magnitude').map((mark) => [mark.alertId, mark]));
  const best = new Map<string, Mark>();
  const informative = (mark: Mark): boolean => {
    if (mark.y === undefined) return false;
    if (mark.kind === 'upper_limit') {
      const seen = brightest.get(mark.passband);
      return seen === undefined || deeper(mark.y, seen, quantity);
    }
    const point = pointOf.get(mark.alertId);
    return !point || point.y === undefined || Math.abs(mark.y - point.y) > Math.abs(point.err ?? 0);
  };
  for (const mark of marks) {
    if ((mark.kind !== 'upper_limit' && mark.kind !== 'lower_limit') || !informative(mark)) continue;
    const key = `${mark.kind}|${mark.passband}|${nightOf(mark.mjd)}`;
    const kept = best.get(key);
    // For lower limits (the faint bound), the brightest is the tightest.
    const better = !kept || (mark.kind === 'upper_limit' ? deeper(mark.y!, kept.y!, quantity) : mark.y! < kept.y!);
    if (better) best.set(key, mark);
  }
  const keep = new Set([...best.values()].map((mark) => mark.key));
  return marks.filter((mark) => (mark.kind !== 'upper_limit' && mark.kind !== 'lower_limit') || keep.has(mark.key));
}

/** The marks at their phase for a period (days), epoch the first observation, drawn over two cycles. */
export function foldMarks(marks: Mark[], period: number): Mark[] {
  if (marks.length === 0 || !(period > 0)) return marks;
  const epoch = Math.min(...marks.map((mark) => mark.mjd));
  return marks.flatMap((mark) => {
    const phase = foldPhase(mark.mjd, period, epoch);
    return [
      { ...mark, x: phase },
      { ...mark, key: `${mark.key}~2`, x: phase + 1 },
    ];
  });
}

const KIND_NAMES: Record<MarkKind, string> = {
  magnitude: 'measurement',
  upper_limit: 'upper_limit',
  lower_limit: 'lower_limit',
  other: 'other',
};

/** The plotted data as CSV rows (header first): one row per point, never the folded view's second cycle. */
export function plottedRows(marks: Mark[], quantity: Quantity, period?: number): (string | number | undefined)[][] {
  const value = quantity === 'magnitude' ? ['magnitude', 'magnitude_error'] : ['flux_njy', 'flux_error_njy'];
  const header = ['alert_id', 'mjd', ...(period ? ['phase'] : []), 'passband', 'alert_type', 'mark', ...value];
  const rows = marks
    .filter((mark) => !mark.key.endsWith('~2'))
    .sort((a, b) => a.mjd - b.mjd || a.key.localeCompare(b.key))
    .map((mark) => [
      mark.alertId,
      mark.mjd,
      ...(period ? [mark.x] : []),
      mark.passband,
      mark.alertType ? alertTypeLabel(mark.alertType) : '',
      KIND_NAMES[mark.kind],
      mark.y,
      mark.kind === 'magnitude' ? mark.err : undefined,
    ]);
  return [header, ...rows];
}

/** Each band's detections (magnitude marks), for the periodogram. */
export function detectionsByBand(points: LightcurvePoint[]): Map<string, { t: number[]; y: number[]; dy: (number | undefined)[] }> {
  const bands = new Map<string, { t: number[]; y: number[]; dy: (number | undefined)[] }>();
  for (const point of points) {
    if (
      !isDrawable(point) ||
      point.frontend_mag === undefined ||
      !(point.frontend_mag_type === 'raw' || point.frontend_mag_type === 'calibrated')
    )
      continue;
    const band = bands.get(point.ant_passband) ?? { t: [], y: [], dy: [] };
    band.t.push(point.ant_mjd);
    band.y.push(point.frontend_mag);
    band.dy.push(point.frontend_magerr);
    bands.set(point.ant_passband, band);
  }
  return bands;
}

/** Enough detections in one band for a periodogram worth showing. */
export const MIN_PERIODOGRAM_DETECTIONS = 10;

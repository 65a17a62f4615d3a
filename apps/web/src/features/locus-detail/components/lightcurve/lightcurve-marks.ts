import { symbolCircle, symbolCross, symbolTriangle, type SymbolType } from 'd3-shape';

import { isDrawable, type LightcurvePoint } from '@/features/locus-detail/api/lightcurve';

import { type AlertType, alertTypeOf } from './survey-codes';

/** What the lightcurve draws for each point: one mark per shown magnitude, shaped by its kind. */
export type MarkKind = 'magnitude' | 'upper_limit' | 'lower_limit' | 'other';

export interface Mark {
  key: string;
  alertId: string;
  kind: MarkKind;
  passband: string;
  /** The observation time. */
  mjd: number;
  /** The plotted abscissa: the MJD, or the phase in the folded view. */
  x: number;
  /** The plotted value: a magnitude, or a difference flux in nJy in the flux view; undefined for
   * 'other' marks (nothing to plot): drawn on the bottom edge. */
  y?: number;
  err?: number;
  rcid?: number;
  /** The alert type (from ant_survey and, for Rubin, the alert id), undefined when unknown. */
  alertType?: AlertType;
}

export const MARK_KINDS: MarkKind[] = ['magnitude', 'upper_limit', 'lower_limit', 'other'];

export const MARK_LABELS: Record<MarkKind, string> = {
  magnitude: 'Magnitude',
  upper_limit: 'Upper limit',
  lower_limit: 'Lower limit',
  other: 'Error/other',
};

/** Shapes: circle for magnitudes, down/up triangles for upper/lower limits, a cross otherwise. */
export const MARK_SYMBOLS: Record<MarkKind, { type: SymbolType; rotate: number; size: number }> = {
  magnitude: { type: symbolCircle, rotate: 0, size: 40 },
  upper_limit: { type: symbolTriangle, rotate: 180, size: 45 },
  lower_limit: { type: symbolTriangle, rotate: 0, size: 45 },
  other: { type: symbolCross, rotate: 45, size: 45 },
};

const FALLBACK_COLOR = '#555555';
/** Paul Tol's colour-blind-safe 'muted' scheme (its pale grey swapped for a mid blue). */
const RCID_PALETTE = ['#332288', '#88CCEE', '#44AA99', '#117733', '#999933', '#DDCC77', '#CC6677', '#882255', '#AA4499', '#6699CC'];

export function rcidColor(rcid: number | undefined, rcids: number[]): string {
  if (rcid === undefined) return FALLBACK_COLOR;
  const index = rcids.indexOf(rcid);
  return index === -1 ? FALLBACK_COLOR : RCID_PALETTE[index % RCID_PALETTE.length];
}

/** Builds the marks; points with a negative magnitude or limit are not drawn (spec). */
export function buildMarks(points: LightcurvePoint[], rcidByAlert: Map<string, number>): Mark[] {
  const marks: Mark[] = [];
  for (const point of points) {
    if (!isDrawable(point)) continue;
    const base = {
      alertId: point.alert_id,
      passband: point.ant_passband,
      mjd: point.ant_mjd,
      x: point.ant_mjd,
      rcid: rcidByAlert.get(point.alert_id),
      alertType: alertTypeOf(point),
    };
    const type = point.frontend_mag_type;
    if ((type === 'raw' || type === 'calibrated') && point.frontend_mag !== undefined) {
      marks.push({ ...base, key: `${point.alert_id}:m`, kind: 'magnitude', y: point.frontend_mag, err: point.frontend_magerr });
      // Lower-limit marks need a numeric magnitude.
      if (point.frontend_magllim !== undefined)
        marks.push({ ...base, key: `${point.alert_id}:l`, kind: 'lower_limit', y: point.frontend_magllim });
    } else if ((type === 'raw_maglim' || type === 'calibrated_maglim') && point.frontend_magulim !== undefined) {
      marks.push({ ...base, key: `${point.alert_id}:u`, kind: 'upper_limit', y: point.frontend_magulim });
    } else {
      marks.push({ ...base, key: `${point.alert_id}:o`, kind: 'other' });
    }
  }
  return marks;
}

export interface LegendSelection {
  passband?: string;
  alertType?: AlertType;
  kind?: MarkKind;
  rcid?: number;
}

export function matchesSelection(mark: Mark, selection: LegendSelection): boolean {
  return (
    (selection.passband === undefined || mark.passband === selection.passband) &&
    (selection.alertType === undefined || mark.alertType === selection.alertType) &&
    (selection.kind === undefined || mark.kind === selection.kind) &&
    (selection.rcid === undefined || mark.rcid === selection.rcid)
  );
}

const HOUR = 1 / 24;
export const MIN_MJD_SPAN = HOUR;
export const MIN_MAG_SPAN = 0.01;
export const DOMAIN_PADDING = 1.1;

/** Widens [lo, hi] around its mean to at least `minimum`, then pads by the 1.1 factor. */
export function padDomain(lo: number, hi: number, minimum: number): [number, number] {
  let low = lo;
  let high = hi;
  if (high - low < minimum) {
    const mean = (low + high) / 2;
    low = mean - minimum / 2;
    high = mean + minimum / 2;
  }
  const pad = ((high - low) * (DOMAIN_PADDING - 1)) / 2;
  return [low - pad, high + pad];
}

/**
 * Error bars count towards the magnitude domain up to this length (mag): a detection barely above
 * the noise (Rubin sends them, with errors of tens of magnitudes) must not squash the whole curve
 * into a line; its bar simply runs off the plot (the marks are clipped).
 */
export const MAX_DOMAIN_ERROR = 1;

/** What the axes show: magnitudes (bright at the top) or difference fluxes; time or phase. */
export type Quantity = 'magnitude' | 'flux';

/** Minimum spans of the value axis: 0.01 mag (spec), 1 nJy. */
export const MIN_VALUE_SPAN: Record<Quantity, number> = { magnitude: MIN_MAG_SPAN, flux: 1 };

/** The folded view shows two cycles, so a feature at phase 0 is seen whole. */
export const PHASE_DOMAIN: [number, number] = [-0.05, 2.05];

/**
 * The full (un-zoomed) domains: MJD range at least 1 day wide, values (with their errors, capped
 * for magnitudes) padded. In flux, error bars are capped at the largest |flux| for the same reason.
 */
export function fullDomains(marks: Mark[], quantity: Quantity = 'magnitude'): { x: [number, number]; y: [number, number] } {
  const mjds = marks.map((mark) => mark.x);
  const largest = Math.max(0, ...marks.map((mark) => Math.abs(mark.y ?? 0)));
  const cap = quantity === 'magnitude' ? MAX_DOMAIN_ERROR : largest;
  const errorOf = (mark: Mark) => Math.min(Math.abs(mark.err ?? 0), cap) || 0;
  const mags = marks.flatMap((mark) => (mark.y === undefined ? [] : [mark.y - errorOf(mark), mark.y + errorOf(mark)]));
  let x: [number, number] = mjds.length ? [Math.min(...mjds), Math.max(...mjds)] : [0, 1];
  if (x[1] - x[0] < 1) {
    // Narrower than a day: one day centred on the mean time.
    const mean = mjds.length ? mjds.reduce((sum, value) => sum + value, 0) / mjds.length : 0.5;
    x = [mean - 0.5, mean + 0.5];
  }
  const y: [number, number] = mags.length ? [Math.min(...mags), Math.max(...mags)] : quantity === 'magnitude' ? [15, 22] : [-1000, 1000];
  return { x: padDomain(x[0], x[1], 1), y: padDomain(y[0], y[1], MIN_VALUE_SPAN[quantity]) };
}

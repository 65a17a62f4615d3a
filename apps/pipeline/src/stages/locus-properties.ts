import { htmId } from '@antares/astro';

import { lightcurveFeatures } from './lightcurve-features.ts';

/** The alert properties that locus properties are computed from (all others are not read). */
export const SUMMARY_ALERT_PROPERTIES = [
  'ant_mag',
  'ant_magerr',
  'ant_passband',
  'ant_ra',
  'ant_dec',
  'ant_mag_corrected',
  'ztf_object_id',
  'ztf_ssnamenr',
  'ztf_rcid',
  'ztf_field',
  'lsst_diaSource_diaObjectId',
  'lsst_diaSource_ssObjectId',
  'lsst_diaForcedSource_diaObjectId',
] as const;

/** The part of an alert's properties that summarizeLocus reads; stored beside the alert. */
export function summaryOf(properties: Record<string, unknown>): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const name of SUMMARY_ALERT_PROPERTIES) {
    const value = properties[name];
    if (value !== undefined && value !== null) summary[name] = value;
  }
  return summary;
}

/** The fields of a stored alert that locus properties are computed from. */
export interface LocusAlert {
  alert_id: string;
  mjd: number;
  properties: Record<string, unknown>;
}

export interface LocusSummary {
  ra: number;
  dec: number;
  htm16: number;
  properties: Record<string, unknown>;
}

/**
 * Recomputes a locus from all of its alerts: its position (mean of the detections), the standard
 * ANTARES locus properties (wire format section 5), the survey block and light-curve features.
 * Pure, so that re-ingesting the same alerts always gives the same result. This is the definition:
 * ingestion and backtests compute it with IncrementalLocusSummary, which is tested to equal it.
 */
export function summarizeLocus(alerts: LocusAlert[], fallback: { ra: number; dec: number }): LocusSummary {
  const detections = alerts
    .filter((a) => typeof a.properties.ant_mag === 'number')
    .sort((a, b) => a.mjd - b.mjd || a.alert_id.localeCompare(b.alert_id));
  const position = meanPosition(detections) ?? fallback;
  const properties: Record<string, unknown> = {
    num_alerts: alerts.length,
    num_mag_values: detections.length,
  };
  if (detections.length > 0) {
    const oldest = detections[0];
    const newest = detections[detections.length - 1];
    const brightest = detections.reduce((best, a) => (mag(a) < mag(best) ? a : best));
    Object.assign(properties, extremes('oldest', oldest), extremes('newest', newest), extremes('brightest', brightest));
  }
  properties.is_corrected = detections.some((a) => typeof a.properties.ant_mag_corrected === 'number') ? 'true' : 'false';

  const survey: Record<string, unknown> = {};
  const ztfAlerts = alerts.filter((a) => typeof a.properties.ztf_object_id === 'string');
  if (ztfAlerts.length > 0) {
    const ids = distinct(ztfAlerts.map((a) => a.properties.ztf_object_id));
    const ssnames = distinct(detections.map((a) => a.properties.ztf_ssnamenr).filter(isRealSsname));
    properties.ztf_object_id = ids[0];
    const newestSsname = [...detections]
      .reverse()
      .map((a) => a.properties.ztf_ssnamenr)
      .find(isRealSsname);
    if (newestSsname !== undefined) properties.ztf_ssnamenr = newestSsname;
    survey.ztf = {
      id: ids,
      rcid: distinct(detections.map((a) => a.properties.ztf_rcid).filter((v) => v !== undefined)),
      field: distinct(detections.map((a) => a.properties.ztf_field).filter((v) => v !== undefined)),
      ssnamenr: ssnames,
    };
  }
  const lsst = lsstBlock(alerts);
  if (lsst) survey.lsst = lsst;
  if (Object.keys(survey).length > 0) properties.survey = survey;
  Object.assign(
    properties,
    lightcurveFeatures(
      detections
        .filter((a) => typeof a.properties.ant_magerr === 'number' && typeof a.properties.ant_passband === 'string')
        .map((a) => ({
          mjd: a.mjd,
          band: a.properties.ant_passband as string,
          mag: a.properties.ant_mag as number,
          magerr: a.properties.ant_magerr as number,
        })),
    ),
  );
  return { ra: position.ra, dec: position.dec, htm16: htmId(position.ra, position.dec), properties };
}

/**
 * Rubin ids of the locus as exact decimal strings (they exceed 2^53), so that `term` searches and
 * clients compare them as text: `dia_object_id` from every Rubin alert, `ss_object_id` where a
 * detection was attributed to a known solar-system object (0 means none).
 */
function lsstBlock(alerts: LocusAlert[]): Record<string, string[]> | undefined {
  const objectIds = distinct(
    alerts
      .map((a) => a.properties.lsst_diaSource_diaObjectId ?? a.properties.lsst_diaForcedSource_diaObjectId)
      .filter(isRealId)
      .map(String),
  );
  if (objectIds.length === 0 && !alerts.some((a) => a.alert_id.startsWith('lsst'))) return undefined;
  const ssIds = distinct(
    alerts
      .map((a) => a.properties.lsst_diaSource_ssObjectId)
      .filter(isRealId)
      .map(String),
  );
  return { dia_object_id: objectIds, ss_object_id: ssIds };
}

function isRealId(value: unknown): value is number | string {
  return (typeof value === 'number' && value !== 0) || (typeof value === 'string' && value !== '' && value !== '0');
}

function extremes(prefix: string, alert: LocusAlert): Record<string, unknown> {
  return {
    [`${prefix}_alert_id`]: alert.alert_id,
    [`${prefix}_alert_magnitude`]: alert.properties.ant_mag,
    [`${prefix}_alert_observation_time`]: alert.mjd,
  };
}

function mag(alert: LocusAlert): number {
  return alert.properties.ant_mag as number;
}

/** Mean of unit vectors, so that positions either side of RA 0/360 average correctly. */
function meanPosition(detections: LocusAlert[]): { ra: number; dec: number } | null {
  let x = 0,
    y = 0,
    z = 0,
    n = 0;
  for (const a of detections) {
    const ra = a.properties.ant_ra;
    const dec = a.properties.ant_dec;
    if (typeof ra !== 'number' || typeof dec !== 'number') continue;
    const r = (ra * Math.PI) / 180;
    const d = (dec * Math.PI) / 180;
    x += Math.cos(d) * Math.cos(r);
    y += Math.cos(d) * Math.sin(r);
    z += Math.sin(d);
    n++;
  }
  if (n === 0) return null;
  const ra = (Math.atan2(y, x) * 180) / Math.PI;
  return { ra: ra < 0 ? ra + 360 : ra, dec: (Math.atan2(z, Math.hypot(x, y)) * 180) / Math.PI };
}

function isRealSsname(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value !== 'null';
}

function distinct<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/**
 * summarizeLocus for a locus whose alerts come a few at a time (a backtest's replay, ADR 0030): `add()`
 * the next alerts, `summary()` gives exactly what summarizeLocus would give for all alerts so far (same
 * values, same key order), without going over them again. Running sums and extremes continue in the
 * order summarizeLocus goes through the detections (oldest first), so floating-point results agree bit
 * for bit; a detection older than one already added breaks that order and starts them over. Light-curve
 * features are per band: only the bands that got detections are computed again.
 */
export class IncrementalLocusSummary {
  private count = 0;
  private readonly detections: LocusAlert[] = [];
  private x = 0;
  private y = 0;
  private z = 0;
  private positions = 0;
  private brightest: LocusAlert | undefined;
  private corrected = false;
  private readonly ztfIds = new Set<unknown>();
  private readonly ssnames = new Set<string>();
  private newestSsname: string | undefined;
  private readonly rcids = new Set<unknown>();
  private readonly fields = new Set<unknown>();
  private readonly lsstObjectIds = new Set<string>();
  private readonly lsstSsIds = new Set<string>();
  private lsstAlert = false;
  /** Light-curve points by band (in order of first appearance, as lightcurveFeatures groups them), and their features. */
  private readonly bands = new Map<
    string,
    { points: Array<{ mjd: number; band: string; mag: number; magerr: number }>; features?: Record<string, number> }
  >();

  constructor(private readonly fallback: { ra: number; dec: number }) {}

  /**
   * An independent copy, to go on from without changing this one (ingestion keeps a locus's summary
   * until its batch commits). Alerts and light-curve points are shared: neither is ever changed.
   */
  clone(): IncrementalLocusSummary {
    const copy = new IncrementalLocusSummary(this.fallback);
    Object.assign(copy, this, {
      detections: [...this.detections],
      ztfIds: new Set(this.ztfIds),
      ssnames: new Set(this.ssnames),
      rcids: new Set(this.rcids),
      fields: new Set(this.fields),
      lsstObjectIds: new Set(this.lsstObjectIds),
      lsstSsIds: new Set(this.lsstSsIds),
      bands: new Map([...this.bands].map(([band, b]) => [band, { points: [...b.points], features: b.features }])),
    });
    return copy;
  }

  /** The next alerts of the locus (in the order summarizeLocus would be given them). */
  add(alerts: readonly LocusAlert[]): void {
    this.count += alerts.length;
    for (const a of alerts) {
      if (typeof a.properties.ztf_object_id === 'string') this.ztfIds.add(a.properties.ztf_object_id);
      const objectId = a.properties.lsst_diaSource_diaObjectId ?? a.properties.lsst_diaForcedSource_diaObjectId;
      if (isRealId(objectId)) this.lsstObjectIds.add(String(objectId));
      if (isRealId(a.properties.lsst_diaSource_ssObjectId)) this.lsstSsIds.add(String(a.properties.lsst_diaSource_ssObjectId));
      if (a.alert_id.startsWith('lsst')) this.lsstAlert = true;
    }
    const fresh = alerts.filter((a) => typeof a.properties.ant_mag === 'number').sort(byTime);
    if (fresh.length === 0) return;
    const last = this.detections.at(-1);
    if (last && byTime(fresh[0], last) < 0) {
      // Out of order: every detection-order result starts over.
      const all = [...this.detections, ...fresh].sort(byTime);
      this.detections.length = 0;
      this.x = this.y = this.z = this.positions = 0;
      this.brightest = undefined;
      this.ssnames.clear();
      this.newestSsname = undefined;
      this.rcids.clear();
      this.fields.clear();
      this.bands.clear();
      this.addDetections(all);
    } else {
      this.addDetections(fresh);
    }
  }

  private addDetections(detections: LocusAlert[]): void {
    for (const a of detections) {
      this.detections.push(a);
      const p = a.properties;
      if (typeof p.ant_ra === 'number' && typeof p.ant_dec === 'number') {
        // As meanPosition, term by term.
        const r = (p.ant_ra * Math.PI) / 180;
        const d = (p.ant_dec * Math.PI) / 180;
        this.x += Math.cos(d) * Math.cos(r);
        this.y += Math.cos(d) * Math.sin(r);
        this.z += Math.sin(d);
        this.positions++;
      }
      if (!this.brightest || mag(a) < mag(this.brightest)) this.brightest = a;
      if (typeof p.ant_mag_corrected === 'number') this.corrected = true;
      if (isRealSsname(p.ztf_ssnamenr)) {
        this.ssnames.add(p.ztf_ssnamenr);
        this.newestSsname = p.ztf_ssnamenr;
      }
      if (p.ztf_rcid !== undefined) this.rcids.add(p.ztf_rcid);
      if (p.ztf_field !== undefined) this.fields.add(p.ztf_field);
      if (typeof p.ant_magerr === 'number' && typeof p.ant_passband === 'string') {
        let band = this.bands.get(p.ant_passband);
        if (!band) this.bands.set(p.ant_passband, (band = { points: [] }));
        band.points.push({ mjd: a.mjd, band: p.ant_passband, mag: p.ant_mag as number, magerr: p.ant_magerr });
        band.features = undefined;
      }
    }
  }

  /**
   * What summarizeLocus gives for the alerts added so far (a new object each time); `fallback` is the
   * position without detections, the one given when this was made unless another is.
   */
  summary(fallback = this.fallback): LocusSummary {
    const detections = this.detections;
    let position = fallback;
    if (this.positions > 0) {
      const ra = (Math.atan2(this.y, this.x) * 180) / Math.PI;
      position = { ra: ra < 0 ? ra + 360 : ra, dec: (Math.atan2(this.z, Math.hypot(this.x, this.y)) * 180) / Math.PI };
    }
    const properties: Record<string, unknown> = { num_alerts: this.count, num_mag_values: detections.length };
    if (detections.length > 0)
      Object.assign(
        properties,
        extremes('oldest', detections[0]),
        extremes('newest', detections[detections.length - 1]),
        extremes('brightest', this.brightest!),
      );
    properties.is_corrected = this.corrected ? 'true' : 'false';
    const survey: Record<string, unknown> = {};
    if (this.ztfIds.size > 0) {
      properties.ztf_object_id = this.ztfIds.values().next().value;
      if (this.newestSsname !== undefined) properties.ztf_ssnamenr = this.newestSsname;
      survey.ztf = { id: [...this.ztfIds], rcid: [...this.rcids], field: [...this.fields], ssnamenr: [...this.ssnames] };
    }
    if (this.lsstObjectIds.size > 0 || this.lsstAlert)
      survey.lsst = { dia_object_id: [...this.lsstObjectIds], ss_object_id: [...this.lsstSsIds] };
    if (Object.keys(survey).length > 0) properties.survey = survey;
    // lightcurveFeatures of one band gives that band's features alone; assigned in its band order.
    for (const band of this.bands.values()) Object.assign(properties, (band.features ??= lightcurveFeatures(band.points)));
    const { ra, dec } = position;
    // Computed when read: a replay never reads it, and at every step it cost a fifth of the rest.
    return {
      ra,
      dec,
      get htm16() {
        return htmId(ra, dec);
      },
      properties,
    };
  }
}

function byTime(a: LocusAlert, b: LocusAlert): number {
  return a.mjd - b.mjd || a.alert_id.localeCompare(b.alert_id);
}

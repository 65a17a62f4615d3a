import { longKeyDecimal, longKeyOf } from '../sources/avro-long.ts';
import { fullRecord, lazyIdKey } from '../sources/lazy-records.ts';
import { LSST_DETECTION_KEY, LSST_FORCED_KEY, type LsstPacket } from '../sources/lsst-packet.ts';
import type { AlertRecord, PacketRow, StoredAlert } from './alert-record.ts';
import { level1Lsst } from './level1.ts';
import { SUMMARY_ALERT_PROPERTIES } from './locus-properties.ts';
import { prefixedFields } from './prefixed-fields.ts';

/**
 * `ant_survey` of every Rubin alert, detection or forced photometry: clients (TOM Toolkit, the
 * published client) read 1 and 2 as ZTF, 3 as DECam and 4 as LSST. Forced photometry is told apart by
 * its `lsst_forced:` alert id and `ant_forced_photometry` true (ADR 0013).
 */
export const ANT_SURVEY_LSST = 4;

/** Rubin fluxes are in nanojansky: AB magnitude = 31.4 - 2.5 log10(flux / nJy). */
const NJY_ZERO_POINT = 31.4;
const MAG_PER_LN_FLUX = 2.5 / Math.LN10;
/** Forced fluxes below this signal-to-noise are upper limits; the limit quoted is this many sigma. */
const SIGNIFICANT_SNR = 5;

export function lsstDetectionAlertId(diaSourceId: unknown): string {
  return `lsst:${String(diaSourceId)}`;
}

export function lsstForcedAlertId(diaForcedSourceId: unknown): string {
  return `lsst_forced:${String(diaForcedSourceId)}`;
}

/**
 * The rows a Rubin packet carries: the triggering DiaSource first, then its earlier DiaSources and its
 * forced photometry. Forced points of a visit that also has a DiaSource are left out: the detection
 * measures the same image better, and the light curve would show the visit twice.
 */
/** A source's MJD (its visit's midpoint, TAI), NaN when missing; computed once per row (PacketRow.mjd). */
function mjdOf(source: Record<string, unknown>): number {
  return num(source.midpointMjdTai) ?? NaN;
}

export function lsstPacketRows(packet: LsstPacket): PacketRow[] {
  const triggerId = lsstDetectionAlertId(packet.diaSourceId);
  const triggerKey = longKeyOf(packet.diaSourceId);
  const rows: PacketRow[] = [
    {
      alert_id: triggerId,
      key: triggerKey === undefined ? triggerId : LSST_DETECTION_KEY + triggerKey,
      row: packet.diaSource,
      isDetection: true,
      mjd: mjdOf(packet.diaSource),
    },
  ];
  const detectedVisits = new Set([packet.diaSource.visit]);
  for (const source of packet.prvDiaSources) {
    const row = historyRow(source, source.diaSourceId, true);
    if (row === undefined) continue;
    detectedVisits.add(source.visit);
    rows.push(row);
  }
  for (const forced of packet.prvDiaForcedSources) {
    if (forced.visit !== undefined && forced.visit !== null && detectedVisits.has(forced.visit)) continue;
    const row = historyRow(forced, forced.diaForcedSourceId, false);
    if (row !== undefined) rows.push(row);
  }
  return rows;
}

/**
 * The history row of a source with this id; undefined when it has none. Its key (PacketRow.key): which
 * of the two id spaces (LSST_DETECTION_KEY or LSST_FORCED_KEY), then its id's long key (readLongKey),
 * as the lazy reader gives it (lazyIdKey). An id that is no 64-bit integer (not from an Avro long) has
 * its alert id as key, which never starts so.
 */
function historyRow(source: Record<string, unknown>, id: unknown, isDetection: boolean): PacketRow | undefined {
  const lazyKey = lazyIdKey(source);
  if (lazyKey !== undefined) return new HistoryRow(lazyKey, source, isDetection);
  const idKey = longKeyOf(id);
  if (idKey !== undefined) return new HistoryRow((isDetection ? LSST_DETECTION_KEY : LSST_FORCED_KEY) + idKey, source, isDetection);
  if (id === null || id === undefined) return undefined;
  const alertId = isDetection ? lsstDetectionAlertId(id) : lsstForcedAlertId(id);
  return new HistoryRow(alertId, source, isDetection, alertId);
}

/**
 * A history row whose alert id is written, and whose source decoded in full, only when something reads
 * them: a row stored already is only looked up by its key.
 */
class HistoryRow implements PacketRow {
  readonly mjd: number;
  constructor(
    readonly key: string,
    private readonly source: Record<string, unknown>,
    readonly isDetection: boolean,
    private alertId?: string,
  ) {
    this.mjd = mjdOf(source);
  }

  get alert_id(): string {
    if (this.alertId === undefined) {
      const id = longKeyDecimal(this.key, 1);
      this.alertId = this.isDetection ? lsstDetectionAlertId(id) : lsstForcedAlertId(id);
    }
    return this.alertId;
  }

  get row(): Record<string, unknown> {
    return fullRecord(this.source);
  }
}

/** History DiaSources pass the same Level 1 as the triggering one; forced points have nothing to check. */
export function lsstHistoryRowPasses(row: PacketRow): boolean {
  return !row.isDetection || level1Lsst(row.row).passed;
}

export function lsstAlertFromRow(row: PacketRow, timeReceived: number): AlertRecord {
  const parts = alertParts(row, timeReceived);
  const properties = prefixedFields(parts.prefix, parts.source, parts.extra);
  return { alert_id: row.alert_id, survey: 'lsst', mjd: row.mjd, properties, ra: parts.ra, dec: parts.dec };
}

/**
 * A history row's alert as it is stored: the same properties as lsstAlertFromRow's, as JSON text, and
 * only the few fields that locus summaries read as an object (ADR 0037).
 */
export function lsstStoredAlert(row: PacketRow, timeReceived: number): StoredAlert {
  let parts: AlertParts | undefined;
  let summary: Record<string, unknown> | undefined;
  // Methods, not arrow functions: tsx names every arrow function as it is made (esbuild's keepNames),
  // a property definition per function, three per history row. Neither reads `this`: they may be called detached.
  return {
    alert_id: row.alert_id,
    survey: 'lsst',
    mjd: row.mjd,
    writeProperties() {
      const { prefix, source, extra } = (parts ??= alertParts(row, timeReceived));
      return JSON.stringify(prefixedFields(prefix, source, extra));
    },
    summary() {
      return (summary ??= summaryOfParts((parts ??= alertParts(row, timeReceived))));
    },
  };
}

/**
 * The summary of an alert in parts, as summaryOf gives it for the whole properties: each summary field
 * read where it is (the source's fields under the prefix, else the added ones), without first copying
 * the added fields into an object of their own.
 */
function summaryOfParts({ prefix, source, extra }: AlertParts): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const [name, sourceField] of summaryFieldsUnder(prefix)) {
    const value = sourceField === undefined ? extra[name] : source[sourceField];
    if (value !== undefined && value !== null) summary[name] = value;
  }
  return summary;
}

const summaryFieldsByPrefix = new Map<string, Array<[name: string, sourceField: string | undefined]>>();

/** Each summary field with the name of the source field it is under this prefix (undefined: an added field). */
function summaryFieldsUnder(prefix: string): Array<[string, string | undefined]> {
  let fields = summaryFieldsByPrefix.get(prefix);
  if (!fields) {
    fields = SUMMARY_ALERT_PROPERTIES.map((name) => [name, name.startsWith(prefix) ? name.slice(prefix.length) : undefined]);
    summaryFieldsByPrefix.set(prefix, fields);
  }
  return fields;
}

/** An alert's properties in parts: the source's fields (stored under a prefix) and the ant_* ones. */
interface AlertParts {
  prefix: string;
  source: Record<string, unknown>;
  extra: Record<string, unknown>;
  ra: number | null;
  dec: number | null;
}

function alertParts(row: PacketRow, timeReceived: number): AlertParts {
  return row.isDetection ? detection(row, timeReceived) : forced(row, timeReceived);
}

function detection(row: PacketRow, timeReceived: number): AlertParts {
  const source = row.row;
  const flux = num(source.psfFlux);
  const fluxErr = num(source.psfFluxErr);
  const extra: Record<string, unknown> = {
    ant_mjd: row.mjd,
    ant_survey: ANT_SURVEY_LSST,
    ant_ra: source.ra,
    ant_dec: source.dec,
    ant_passband: String(source.band ?? ''),
    ant_time_received: timeReceived,
    ant_input_msg_time: timeReceived,
  };
  // A difference-image flux can be negative (the source got fainter than in the template): its
  // magnitude is that of |flux|, as ZTF's magpsf is, and the sign stays in lsst_diaSource_psfFlux.
  if (flux !== null && flux !== 0) {
    extra.ant_mag = fluxToMag(Math.abs(flux));
    if (fluxErr !== null) extra.ant_magerr = (MAG_PER_LN_FLUX * fluxErr) / Math.abs(flux);
  }
  if (fluxErr !== null && fluxErr > 0) extra.ant_maglim = fluxToMag(SIGNIFICANT_SNR * fluxErr);
  return { prefix: 'lsst_diaSource_', source, extra, ra: num(source.ra), dec: num(source.dec) };
}

function forced(row: PacketRow, timeReceived: number): AlertParts {
  const source = row.row;
  const flux = num(source.psfFlux);
  const fluxErr = num(source.psfFluxErr);
  const extra: Record<string, unknown> = {
    ant_mjd: row.mjd,
    ant_survey: ANT_SURVEY_LSST,
    ant_forced_photometry: true,
    ant_passband: String(source.band ?? ''),
    ant_time_received: timeReceived,
    ant_input_msg_time: timeReceived,
  };
  // Only a significant positive flux is a measurement of the source; anything else bounds it.
  if (flux !== null && fluxErr !== null && fluxErr > 0 && flux / fluxErr >= SIGNIFICANT_SNR) {
    extra.ant_mag = fluxToMag(flux);
    extra.ant_magerr = (MAG_PER_LN_FLUX * fluxErr) / flux;
  }
  if (fluxErr !== null && fluxErr > 0) extra.ant_maglim = fluxToMag(SIGNIFICANT_SNR * fluxErr);
  return { prefix: 'lsst_diaForcedSource_', source, extra, ra: null, dec: null };
}

export function fluxToMag(fluxNjy: number): number {
  return NJY_ZERO_POINT - 2.5 * Math.log10(fluxNjy);
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

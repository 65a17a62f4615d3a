import { correctedMagnitude, type IsDiffPos } from '@antares/astro';

import type { ZtfPacket } from '../sources/alert-avro.ts';
import type { AlertRecord, PacketRow } from './alert-record.ts';

export const ANT_SURVEY_DETECTION = 1;
export const ANT_SURVEY_UPPER_LIMIT = 2;
const PASSBANDS: Record<number, string> = { 1: 'g', 2: 'R', 3: 'i' };
const JD_TO_MJD = 2400000.5;

/** A row's MJD, computed once per row (PacketRow.mjd): its alert's mjd and the key it is looked up by. */
function mjdOf(row: Record<string, unknown>): number {
  return Number(row.jd) - JD_TO_MJD;
}

export function detectionAlertId(candid: string): string {
  return `ztf_candidate:${candid}`;
}

export function upperLimitAlertId(objectId: string, pid: unknown): string {
  return `ztf_upper_limit:${objectId}-${String(pid)}`;
}

/**
 * The rows a packet carries: its triggering detection first, then every prv_candidates row
 * (detections keep their candid; rows without one are upper limits). Cheap: alerts are built
 * (alertFromRow) only for rows not stored yet.
 */
export function packetRows(packet: ZtfPacket): PacketRow[] {
  const triggerId = detectionAlertId(String(packet.candidate.candid));
  const rows: PacketRow[] = [
    { alert_id: triggerId, key: triggerId, row: packet.candidate, isDetection: true, mjd: mjdOf(packet.candidate) },
  ];
  for (const row of packet.prvCandidates) {
    const isDetection = row.candid !== null && row.candid !== undefined;
    const alertId = isDetection ? detectionAlertId(String(row.candid)) : upperLimitAlertId(packet.objectId, row.pid);
    rows.push({ alert_id: alertId, key: alertId, row, isDetection, mjd: mjdOf(row) });
  }
  return rows;
}

export function alertFromRow(objectId: string, packetRow: PacketRow, timeReceived: number): AlertRecord {
  return packetRow.isDetection ? detection(objectId, packetRow, timeReceived) : upperLimit(objectId, packetRow, timeReceived);
}

function detection(objectId: string, packetRow: PacketRow, timeReceived: number): AlertRecord {
  const candidate = packetRow.row;
  const properties = prefixed(candidate);
  properties.ztf_object_id = objectId;
  const mjd = packetRow.mjd;
  Object.assign(properties, {
    ant_mjd: mjd,
    ant_survey: ANT_SURVEY_DETECTION,
    ant_ra: candidate.ra,
    ant_dec: candidate.dec,
    ant_passband: PASSBANDS[Number(candidate.fid)] ?? String(candidate.fid),
    ant_mag: candidate.magpsf,
    ant_magerr: candidate.sigmapsf,
    ant_maglim: candidate.diffmaglim ?? null,
    ant_time_received: timeReceived,
    ant_input_msg_time: timeReceived,
  });
  const magpsf = num(candidate.magpsf);
  const sigmapsf = num(candidate.sigmapsf);
  const isdiffpos = diffSign(candidate.isdiffpos);
  const corrected =
    magpsf === null || sigmapsf === null || isdiffpos === null
      ? null
      : correctedMagnitude({
          magpsf,
          sigmapsf,
          magnr: num(candidate.magnr),
          sigmagnr: num(candidate.sigmagnr),
          isdiffpos,
          distnr: num(candidate.distnr),
          maglim: num(candidate.diffmaglim),
        });
  if (corrected) {
    properties.ant_mag_corrected = corrected.mag;
    properties.ant_magerr_corrected = corrected.magerr;
    if (corrected.magulim !== undefined) properties.ant_magulim_corrected = corrected.magulim;
    if (corrected.magllim !== undefined) properties.ant_magllim_corrected = corrected.magllim;
  }
  return {
    alert_id: detectionAlertId(String(candidate.candid)),
    survey: 'ztf',
    mjd,
    properties,
    ra: num(candidate.ra),
    dec: num(candidate.dec),
  };
}

function upperLimit(objectId: string, packetRow: PacketRow, timeReceived: number): AlertRecord {
  const row = packetRow.row;
  const properties = prefixed(row);
  properties.ztf_object_id = objectId;
  const mjd = packetRow.mjd;
  Object.assign(properties, {
    ant_mjd: mjd,
    ant_survey: ANT_SURVEY_UPPER_LIMIT,
    ant_passband: PASSBANDS[Number(row.fid)] ?? String(row.fid),
    ant_maglim: row.diffmaglim ?? null,
    ant_time_received: timeReceived,
    ant_input_msg_time: timeReceived,
  });
  return { alert_id: upperLimitAlertId(objectId, row.pid), survey: 'ztf', mjd, properties, ra: null, dec: null };
}

/** Every non-null field with the ztf_ prefix (nulls are left out: an absent property is a missing value). */
function prefixed(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in fields) {
    const value = fields[key];
    if (value !== null && value !== undefined) out[prefixedName(key)] = value;
  }
  return out;
}

// The same hundred field names recur in every row: build each prefixed name once.
const PREFIXED_NAMES = new Map<string, string>();
function prefixedName(key: string): string {
  let name = PREFIXED_NAMES.get(key);
  if (name === undefined) PREFIXED_NAMES.set(key, (name = `ztf_${key}`));
  return name;
}

function diffSign(value: unknown): IsDiffPos | null {
  // The 2016 commissioning packets carry isdiffpos as the number 1 or 0.
  if (value === 1 || value === 0) return value === 1 ? '1' : '0';
  return value === 't' || value === 'f' || value === '1' || value === '0' || typeof value === 'boolean' ? value : null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

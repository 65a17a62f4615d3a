// One entry point per pipeline step for a packet of any survey: ingestion does not need to know
// whether it holds a ZTF or a Rubin packet.
import type { AlertPacket } from '../sources/alert-avro.ts';
import type { AlertRecord, PacketRow, StoredAlert } from './alert-record.ts';
import { level1, level1Lsst, type Level1Result } from './level1.ts';
import { summaryOf } from './locus-properties.ts';
import { lsstAlertFromRow, lsstHistoryRowPasses, lsstPacketRows, lsstStoredAlert } from './lsst-alerts.ts';
import { alertFromRow, packetRows } from './ztf-alerts.ts';

/** Level 1 of the packet's triggering detection. */
export function triggerLevel1(packet: AlertPacket): Level1Result {
  return packet.survey === 'lsst' ? level1Lsst(packet.diaSource) : level1(packet.candidate);
}

/** The packet's rows, its triggering detection first. */
export function rowsOf(packet: AlertPacket): PacketRow[] {
  return packet.survey === 'lsst' ? lsstPacketRows(packet) : packetRows(packet);
}

/** Whether a history row is kept: its detections go through Level 1 too; upper limits have nothing to check. */
export function historyRowPasses(packet: AlertPacket, row: PacketRow): boolean {
  return packet.survey === 'lsst' ? lsstHistoryRowPasses(row) : !row.isDetection || level1(row.row).passed;
}

export function alertOf(packet: AlertPacket, row: PacketRow, timeReceived: number): AlertRecord {
  return packet.survey === 'lsst' ? lsstAlertFromRow(row, timeReceived) : alertFromRow(packet.objectId, row, timeReceived);
}

/** A history row's alert as it is stored (properties as JSON text): what alertOf gives, serialised. */
export function storedAlertOf(packet: AlertPacket, row: PacketRow, timeReceived: number): StoredAlert {
  if (packet.survey === 'lsst') return lsstStoredAlert(row, timeReceived);
  const alert = alertOf(packet, row, timeReceived);
  const summary = summaryOf(alert.properties);
  return { ...alert, writeProperties: () => JSON.stringify(alert.properties), summary: () => summary };
}

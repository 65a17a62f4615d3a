// The Rubin (LSST) alert schemas the simulator writes: 10.0 (the default) and 11.0, as published
// (sources/rubin-schemas.ts, which also reads 9.0). Cutouts are plain FITS bytes (not gzipped, unlike ZTF's).
import type avro from 'avsc';

import { COUNTS_REQUIRED_IN_11, rubinAlertSchema, rubinNamespace, rubinRecordSchema } from '../sources/rubin-schemas.ts';
import { varint } from './encoder.ts';
import { typeWithBigIntLongs } from './ztf-schema.ts';

export { DIA_FORCED_SOURCE_FIELDS, DIA_OBJECT_FIELDS, DIA_SOURCE_FIELDS } from '../sources/rubin-schemas.ts';

export const LSST_SCHEMA_VERSION = '10.0';
export type LsstSchemaVersion = '10.0' | '11.0';

/** The full `lsst.v10_0.alert` (or v11_0) schema, its nested records defined inline at first use and then named. */
export function lsstAlertSchema(version: LsstSchemaVersion = '10.0') {
  return rubinAlertSchema(version);
}

export const LSST_ALERT_SCHEMA = lsstAlertSchema('10.0');

/** avsc Type for writing/reading simulated Rubin alerts (64-bit ids as BigInt). */
export function lsstAlertType(version: LsstSchemaVersion = '10.0'): avro.Type {
  return typeWithBigIntLongs(lsstAlertSchema(version));
}

/**
 * 11.0 requires the counts 10.0 allowed to be null. The simulator leaves some unmeasured (null, e.g.
 * trailNdata, or a band without detections); for 11.0 they are written as 0, as Rubin fills them.
 */
function withRequiredCounts(row: Row): Row {
  let out: Row | undefined;
  for (const name of COUNTS_REQUIRED_IN_11) {
    if (name in row && (row[name] === null || row[name] === undefined)) (out ??= { ...row })[name] = 0;
  }
  return out ?? row;
}

type Row = Record<string, unknown>;

/**
 * Encodes alerts in pieces, as encoder.ts does for ZTF: a record's encoding is its fields' encodings
 * concatenated, so DiaSource and DiaForcedSource rows (each repeated in every later alert of the
 * object) are encoded once and the arrays are assembled from their bytes. Same bytes as encoding the
 * whole record with lsstAlertType() (tested).
 */
export class LsstAlertEncoder {
  private readonly head: avro.Type;
  private readonly source: avro.Type;
  private readonly forced: avro.Type;
  private readonly tail: avro.Type;

  constructor(readonly version: LsstSchemaVersion = '10.0') {
    const fields = lsstAlertSchema(version).fields;
    const at = (name: string) => fields.findIndex((f) => f.name === name);
    const part = (from: number, to: number) =>
      typeWithBigIntLongs({ type: 'record', namespace: rubinNamespace(version), name: 'alert', fields: fields.slice(from, to) });
    this.head = part(0, at('diaSource'));
    this.source = typeWithBigIntLongs(rubinRecordSchema(version, 'diaSource'));
    this.forced = typeWithBigIntLongs(rubinRecordSchema(version, 'diaForcedSource'));
    this.tail = part(at('diaObject'), fields.length);
  }

  encodeSource(row: Row): Buffer {
    return this.source.toBuffer(this.version === '10.0' ? row : withRequiredCounts(row));
  }

  encodeForced(row: Row): Buffer {
    return this.forced.toBuffer(row);
  }

  /** Bytes of a whole alert: `head` holds the fields before diaSource, `tail` those after the histories. */
  encode(head: Row, diaSource: Buffer, prvDiaSources: Buffer[] | null, prvDiaForcedSources: Buffer[] | null, tail: Row): Buffer {
    const parts = [this.head.toBuffer(head), diaSource];
    for (const rows of [prvDiaSources, prvDiaForcedSources]) {
      // ["null", array]: branch 0 is null; an array is one block (count, items) and the 0 end marker.
      if (rows === null) parts.push(varint(0));
      else parts.push(varint(1), ...(rows.length > 0 ? [varint(rows.length), ...rows] : []), varint(0));
    }
    const diaObject = tail.diaObject as Row | null | undefined;
    parts.push(this.tail.toBuffer(this.version === '10.0' || !diaObject ? tail : { ...tail, diaObject: withRequiredCounts(diaObject) }));
    return Buffer.concat(parts);
  }
}

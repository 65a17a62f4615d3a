// Recognise Rubin (LSST) alert schemas and map decoded records to LsstPacket. Schema versions 7.x to
// 10.x (and later ones of the same shape) are recognised by their content, not their name: a top-level
// record with a `diaSource` record carrying `diaSourceId`, `midpointMjdTai` and `band`. Brokers that
// re-publish Rubin alerts (Fink) add top-level columns, which are kept aside as `extra`.

import { cutoutBytes, recordOf } from './avro-records.ts';
import { fullRecord, LAZY_ID_ATTRIBUTE, LAZY_KEYS_ATTRIBUTE } from './lazy-records.ts';

export interface LsstCutouts {
  science?: Uint8Array;
  template?: Uint8Array;
  difference?: Uint8Array;
}

export interface LsstPacket {
  survey: 'lsst';
  /** The triggering DiaSource id, always a decimal string (Rubin ids exceed 2^53). */
  diaSourceId: string;
  /** e.g. "7.4", from the schema's namespace `lsst.v7_4`; '' when the namespace does not say. */
  schemaVersion: string;
  /** Longs are `number` when safe integers, decimal `string` otherwise. */
  diaSource: Record<string, unknown>;
  /**
   * Earlier sources and forced photometry. Decoded from Avro they hold only `visit`, `midpointMjdTai`
   * and their id (as `lazyIdKey(item)` when a plain long) until `fullRecord(item)` decodes the rest
   * (lazyHistorySchema).
   */
  prvDiaSources: Array<Record<string, unknown>>;
  prvDiaForcedSources: Array<Record<string, unknown>>;
  diaObject: Record<string, unknown> | null;
  /** Plain FITS images (primary HDU), not gzipped as ZTF's are. */
  cutouts: LsstCutouts;
  /** Top-level columns outside the Rubin schema (broker add-ons such as Fink's cross-matches). */
  extra?: Record<string, unknown>;
}

export interface LsstShape {
  schemaVersion: string;
  extraFields: string[];
}

const STANDARD_FIELDS = new Set([
  'alertId',
  'diaSourceId',
  'observation_reason',
  'target_name',
  'diaSource',
  'prvDiaSources',
  'prvDiaForcedSources',
  'prvDiaNondetectionLimits',
  'diaObject',
  'ssObject',
  'ssSource',
  'mpc_orbits',
  'MPCORB',
  'cutoutDifference',
  'cutoutScience',
  'cutoutTemplate',
]);

/** The shape of a Rubin alert schema, or undefined when the schema is not one. */
export function analyseLsstSchema(schema: unknown): LsstShape | undefined {
  const top = recordOf(schema)?.fields;
  const diaSource = top?.find((f) => f.name === 'diaSource');
  const sourceFields = diaSource && recordOf(diaSource.type)?.fields;
  if (!top || !sourceFields) return undefined;
  const names = new Set(sourceFields.map((f) => f.name));
  if (!['diaSourceId', 'midpointMjdTai', 'ra', 'dec', 'band'].every((n) => names.has(n))) return undefined;
  return { schemaVersion: versionOf(schema), extraFields: top.map((f) => f.name).filter((n) => !STANDARD_FIELDS.has(n)) };
}

/**
 * The history fields whose items are read lazily, the item fields read at once (what lsstPacketRows
 * needs), and the ids among them, read as keys (lazyIdKey, after their id space's prefix) when they are plain longs.
 */
const LAZY_HISTORY_FIELDS = ['prvDiaSources', 'prvDiaForcedSources'];
const HISTORY_KEY_FIELDS = ['visit', 'midpointMjdTai'];
/**
 * The first character of a Rubin row's key (PacketRow.key), telling apart the two id spaces: DiaSource
 * ids and DiaForcedSource ids may be equal.
 */
export const LSST_DETECTION_KEY = '\u0001';
export const LSST_FORCED_KEY = '\u0002';
const HISTORY_ID_PREFIXES = { diaSourceId: LSST_DETECTION_KEY, diaForcedSourceId: LSST_FORCED_KEY };

/**
 * A copy of a Rubin writer schema whose history arrays decode lazily: ingestion needs the whole of
 * only the few history records it has not stored yet (ADR 0037). The binary encoding is unchanged.
 */
export function lazyHistorySchema(schema: unknown): unknown {
  const top = schema as { fields?: Array<{ name: string; type: unknown }> };
  if (!Array.isArray(top.fields)) return schema;
  const markArray = (t: unknown): unknown =>
    Array.isArray(t)
      ? t.map(markArray)
      : t && typeof t === 'object' && (t as { type?: unknown }).type === 'array'
        ? { ...t, [LAZY_KEYS_ATTRIBUTE]: HISTORY_KEY_FIELDS, [LAZY_ID_ATTRIBUTE]: HISTORY_ID_PREFIXES }
        : t;
  return { ...top, fields: top.fields.map((f) => (LAZY_HISTORY_FIELDS.includes(f.name) ? { ...f, type: markArray(f.type) } : f)) };
}

function versionOf(schema: unknown): string {
  const s = schema as { namespace?: unknown; name?: unknown };
  const text = `${typeof s?.namespace === 'string' ? s.namespace : ''}.${typeof s?.name === 'string' ? s.name : ''}`;
  const match = /lsst\.v(\d+)_(\d+)/.exec(text);
  return match ? `${match[1]}.${match[2]}` : '';
}

function idString(v: unknown): string | undefined {
  return typeof v === 'string' && /^-?\d+$/.test(v) ? v : typeof v === 'number' && Number.isInteger(v) ? String(v) : undefined;
}

function records(v: unknown): Array<Record<string, unknown>> {
  return Array.isArray(v) ? v.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object') : [];
}

/** Map one decoded record to a packet; throws with a reason if mandatory parts are missing. */
export function toLsstPacket(rec: Record<string, unknown>, shape: LsstShape): LsstPacket {
  const diaSource = rec.diaSource as Record<string, unknown> | null;
  if (!diaSource) throw new Error('Rubin alert without diaSource');
  const diaSourceId = idString(diaSource.diaSourceId);
  if (diaSourceId === undefined) throw new Error('Rubin alert without diaSourceId');
  if (typeof diaSource.midpointMjdTai !== 'number') throw new Error(`Rubin alert lsst:${diaSourceId} without midpointMjdTai`);
  // The schema's own fake sample alerts (7.x) carry a Unix time here, which would put the alert in 6e6 AD.
  if (diaSource.midpointMjdTai < 30000 || diaSource.midpointMjdTai > 100000) {
    throw new Error(`Rubin alert lsst:${diaSourceId} has midpointMjdTai ${diaSource.midpointMjdTai}, which is not an MJD`);
  }
  if (typeof diaSource.ra !== 'number' || typeof diaSource.dec !== 'number')
    throw new Error(`Rubin alert lsst:${diaSourceId} without a position`);
  const cutouts: LsstCutouts = {};
  const science = cutoutBytes(rec.cutoutScience);
  const template = cutoutBytes(rec.cutoutTemplate);
  const difference = cutoutBytes(rec.cutoutDifference);
  if (science) cutouts.science = science;
  if (template) cutouts.template = template;
  if (difference) cutouts.difference = difference;
  const packet: LsstPacket = {
    survey: 'lsst',
    diaSourceId,
    schemaVersion: shape.schemaVersion,
    diaSource,
    prvDiaSources: records(rec.prvDiaSources),
    prvDiaForcedSources: records(rec.prvDiaForcedSources),
    diaObject: (rec.diaObject as Record<string, unknown> | null) ?? null,
    cutouts,
  };
  if (shape.extraFields.length > 0) {
    const extra: Record<string, unknown> = {};
    for (const name of shape.extraFields) extra[name] = rec[name];
    packet.extra = extra;
  }
  return packet;
}

/** The packet with its history decoded in full (for code that reads every field of it, such as tests). */
export function fullHistory(packet: LsstPacket): LsstPacket {
  return {
    ...packet,
    prvDiaSources: packet.prvDiaSources.map(fullRecord),
    prvDiaForcedSources: packet.prvDiaForcedSources.map(fullRecord),
  };
}

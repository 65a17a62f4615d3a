// Recognise ZTF alert schemas and map decoded records to ZtfPacket, across the shapes found in
// the wild: official ZTF 3.x/4.x, pre-3.0 (2018) and 2016 commissioning packets, and
// Spark-rewritten packets (Fink/ALeRCE "topLevelRecord": every field a nullable union,
// prv_candidates as array<record|null>, top-level candid sometimes absent, broker add-on columns).

import { cutoutBytes, recordOf } from './avro-records.ts';

export interface ZtfCutouts {
  science?: Uint8Array;
  template?: Uint8Array;
  difference?: Uint8Array;
}

export interface ZtfPacket {
  survey: 'ztf';
  objectId: string;
  /** Always a decimal string: ZTF candids exceed 2^53. */
  candid: string;
  /** '' when the packet predates the schemavsn field (2016-2018 packets). */
  schemavsn: string;
  /** Longs are `number` when safe integers, decimal `string` otherwise. */
  candidate: Record<string, unknown>;
  prvCandidates: Array<Record<string, unknown>>;
  /** Cutout bytes as stored: gzipped FITS for ZTF (JPEG in the 2016 commissioning packets). */
  cutouts: ZtfCutouts;
  /** ZTF >= 4.0 forced-photometry history (fp_hists); absent when the packet has none. */
  fpHists?: Array<Record<string, unknown>>;
  /** Non-ZTF top-level columns added by brokers (Fink: cdsxmatch, rf/snn scores, cjd..., timestamp). */
  extra?: Record<string, unknown>;
}

/** Per-schema plan for turning decoded records into packets (computed once per writer schema). */
export interface ZtfShape {
  objectIdField: 'objectId' | 'alertId';
  hasTopCandid: boolean;
  extraFields: string[];
}

const STANDARD_FIELDS = new Set([
  'schemavsn',
  'publisher',
  'objectId',
  'alertId',
  'candid',
  'candidate',
  'prv_candidates',
  'fp_hists',
  'cutoutScience',
  'cutoutTemplate',
  'cutoutDifference',
]);

export function schemaFullName(schema: unknown): string {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return typeof schema === 'string' ? schema : 'union';
  const s = schema as { name?: string; namespace?: string; type?: unknown };
  if (!s.name) return String(s.type);
  return s.name.includes('.') || !s.namespace ? s.name : `${s.namespace}.${s.name}`;
}

/** Returns the shape for a ZTF alert schema, or an error reason for anything else. */
export function analyseSchema(schema: unknown): ZtfShape | { reason: string } {
  const top = recordOf(schema);
  const name = schemaFullName(schema);
  const notZtf = () => {
    let desc = name;
    // Spark's generic "topLevelRecord" says nothing; list a few fields to make the reason useful.
    if (top && name === 'topLevelRecord')
      desc += ` with fields ${top.fields
        .slice(0, 4)
        .map((f) => f.name)
        .join(', ')}, ...`;
    return { reason: `not a ZTF alert packet (schema ${desc})` };
  };
  if (!top) return notZtf();
  const names = new Set(top.fields.map((f) => f.name));
  const candField = top.fields.find((f) => f.name === 'candidate');
  const cand = candField && recordOf(candField.type);
  const candNames = new Set(cand?.fields.map((f) => f.name));
  const ztfCandidate = ['jd', 'fid', 'candid', 'ra', 'dec', 'magpsf'].every((k) => candNames.has(k));
  if (!ztfCandidate) return notZtf();
  let objectIdField: ZtfShape['objectIdField'];
  if (names.has('objectId')) objectIdField = 'objectId';
  // 2016 commissioning packets have no objectId, only a numeric alertId.
  else if (names.has('alertId')) objectIdField = 'alertId';
  else return { reason: `ZTF-like schema ${name} has no objectId field` };
  return {
    objectIdField,
    hasTopCandid: names.has('candid'),
    extraFields: top.fields.map((f) => f.name).filter((n) => !STANDARD_FIELDS.has(n)),
  };
}

function idString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** Map one decoded record to a packet; throws with a reason if mandatory parts are missing. */
export function toZtfPacket(rec: Record<string, unknown>, shape: ZtfShape): ZtfPacket {
  const candidate = rec.candidate as Record<string, unknown> | null;
  if (!candidate) throw new Error('ZTF packet without candidate');
  const objectId = idString(rec[shape.objectIdField]);
  if (!objectId) throw new Error('ZTF packet without objectId');
  const candid = idString((shape.hasTopCandid ? rec.candid : undefined) ?? candidate.candid);
  if (candid === undefined) throw new Error('ZTF packet without candid');

  const prv = rec.prv_candidates as Array<Record<string, unknown> | null> | null | undefined;
  // Spark writes array<record|null>; drop null entries rather than hand them downstream.
  const prvCandidates = prv
    ? prv.includes(null)
      ? (prv.filter((p) => p !== null) as Array<Record<string, unknown>>)
      : (prv as Array<Record<string, unknown>>)
    : [];

  const cutouts: ZtfCutouts = {};
  const sci = cutoutBytes(rec.cutoutScience);
  const tpl = cutoutBytes(rec.cutoutTemplate);
  const dif = cutoutBytes(rec.cutoutDifference);
  if (sci) cutouts.science = sci;
  if (tpl) cutouts.template = tpl;
  if (dif) cutouts.difference = dif;

  const packet: ZtfPacket = {
    survey: 'ztf',
    objectId,
    candid,
    schemavsn: typeof rec.schemavsn === 'string' ? rec.schemavsn : '',
    candidate,
    prvCandidates,
    cutouts,
  };
  const fp = rec.fp_hists as Array<Record<string, unknown> | null> | null | undefined;
  if (fp) packet.fpHists = fp.filter((p): p is Record<string, unknown> => p !== null);
  if (shape.extraFields.length > 0) {
    const extra: Record<string, unknown> = {};
    for (const k of shape.extraFields) extra[k] = rec[k];
    packet.extra = extra;
  }
  return packet;
}

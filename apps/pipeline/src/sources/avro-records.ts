// Small readers shared by the survey packet mappers (ztf-packet.ts, lsst-packet.ts).

type SchemaNode = string | SchemaNode[] | { type?: unknown; name?: string; namespace?: string; fields?: SchemaField[]; items?: unknown };
export interface SchemaField {
  name: string;
  type: SchemaNode;
}

/** The fields of a record schema, unwrapping nullable unions ([T, "null"] or ["null", T]); named references are not followed. */
export function recordOf(t: unknown): { fields: SchemaField[] } | undefined {
  if (Array.isArray(t)) {
    for (const b of t) {
      const r = recordOf(b);
      if (r) return r;
    }
    return undefined;
  }
  if (t && typeof t === 'object') {
    const o = t as { type?: unknown; fields?: SchemaField[] };
    if (o.type === 'record' && Array.isArray(o.fields)) return { fields: o.fields };
    if (o.type && typeof o.type === 'object') return recordOf(o.type);
  }
  return undefined;
}

/** A cutout's bytes, copied; undefined when absent or empty. */
export function cutoutBytes(v: unknown): Uint8Array | undefined {
  // Official/Spark ZTF shape: { fileName, stampData }; Rubin and some writers store plain bytes.
  const b = v instanceof Uint8Array ? v : (v as { stampData?: unknown } | null)?.stampData;
  // Copy: bytes are decoded as views into the block or file buffer (avro-schema.ts), which would keep it alive.
  return b instanceof Uint8Array && b.length > 0 ? Uint8Array.prototype.slice.call(b) : undefined;
}

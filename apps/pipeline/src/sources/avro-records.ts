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

/**
 * A cutout's bytes as decoded: a view into the file's or block's buffer (avro-schema.ts); undefined
 * when absent or empty. Not copied: the view keeps that buffer alive only as long as its packet, and
 * ingestion holds a packet only until its batch is stored (a Rubin packet's lazy history holds the
 * same buffer anyway). The copies were most of the memory outside V8's heap that a Rubin batch
 * allocated (three cutouts of about 9 KB a packet), and V8 collects garbage early as that grows.
 */
export function cutoutBytes(v: unknown): Uint8Array | undefined {
  // Official/Spark ZTF shape: { fileName, stampData }; Rubin and some writers store plain bytes.
  const b = v instanceof Uint8Array ? v : (v as { stampData?: unknown } | null)?.stampData;
  return b instanceof Uint8Array && b.length > 0 ? b : undefined;
}

// Writer-schema handling: parse each distinct schema once (cached by its JSON text), tolerate the
// invalid union defaults found in real ZTF files, decode longs exactly, and guard against corrupt
// array/map lengths.
import avro from 'avsc';

import { exactLongType } from './avro-long.ts';
import { LAZY_KEYS_ATTRIBUTE, lazyRecordArrayType } from './lazy-records.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * Remove every `default` attribute. Real ZTF writer schemas declare e.g. `["array", "null"]` with
 * `default: null`, which avsc rejects ("union defaults must match the first branch"). Defaults
 * only matter for schema resolution, and we always read with the writer schema, so dropping
 * them is safe. Union branch order is kept: it defines the binary encoding.
 */
export function stripDefaults(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(stripDefaults);
  if (schema !== null && typeof schema === 'object') {
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(schema)) if (k !== 'default') out[k] = stripDefaults(v);
    return out;
  }
  return schema;
}

interface Tap {
  buf: Buffer;
  pos: number;
  readLong(): number;
  skipLong(): void;
  readString(): string;
}
interface ReadableType {
  typeName: string;
  _read(tap: Tap): unknown;
}

/**
 * Block count of an array/map. Map entries and non-null items take >= 1 byte each, so a count
 * above the bytes left is corruption.
 */
function readGuardedCount(tap: Tap, zeroWidthItems = false): number {
  let n = tap.readLong();
  if (n < 0) {
    n = -n;
    tap.skipLong();
  }
  if (!zeroWidthItems && !(n <= tap.buf.length - tap.pos)) {
    // Without this check avsc would loop n times (possibly ~2^60) on garbage and hang the process.
    throw new Error(`corrupt data: array/map block of ${n} items with ${tap.buf.length - tap.pos} bytes left`);
  }
  return n;
}

class GuardedArrayType extends avro.types.ArrayType {
  _read(tap: Tap): unknown[] {
    const items = (this as unknown as { itemsType: ReadableType }).itemsType;
    const zeroWidth = items.typeName === 'null';
    const val: unknown[] = [];
    let n: number;
    while ((n = readGuardedCount(tap, zeroWidth))) while (n--) val.push(items._read(tap));
    return val;
  }
}

/**
 * `bytes` as views into the decoded block instead of copies: avsc zero-fills a new buffer for each value
 * and copies into it, which cost as much as the rest of decoding a Rubin packet's three cutouts. A
 * value holds the whole buffer alive: cutoutBytes keeps them only as long as their packet.
 */
class ViewBytesType extends avro.types.BytesType {
  _read(tap: Tap): Buffer | undefined {
    const length = tap.readLong();
    const start = tap.pos;
    if (!(length >= 0) || start + length > tap.buf.length) {
      tap.pos = tap.buf.length + 1; // an invalid tap, as avsc leaves it
      return undefined;
    }
    tap.pos = start + length;
    return tap.buf.subarray(start, start + length);
  }
}
const viewBytesType = new ViewBytesType();

class GuardedMapType extends avro.types.MapType {
  _read(tap: Tap): Record<string, unknown> {
    const values = (this as unknown as { valuesType: ReadableType }).valuesType;
    const val: Record<string, unknown> = {};
    let n: number;
    while ((n = readGuardedCount(tap)))
      while (n--) {
        const key = tap.readString();
        val[key] = values._read(tap);
      }
    return val;
  }
}

function typeHook(schema: unknown, opts: avro.ForSchemaOptions): avro.Type | undefined {
  // Both "long" and {"type": "long", "logicalType": ...} (Spark timestamps) must use the exact long:
  // avsc builds the object form with its own LongType, bypassing the registry.
  if (schema === 'long') return exactLongType;
  if (schema === 'bytes') return viewBytesType;
  if (schema && typeof schema === 'object' && !Array.isArray(schema)) {
    const t = (schema as { type?: unknown }).type;
    if (t === 'long') return exactLongType;
    if (t === 'bytes' && !('logicalType' in schema)) return viewBytesType;
    if (t === 'array' && LAZY_KEYS_ATTRIBUTE in schema)
      return lazyRecordArrayType(schema as unknown as avro.schema.ArrayType, opts, readGuardedCount);
    if (t === 'array') return new GuardedArrayType(schema as avro.schema.ArrayType, opts);
    if (t === 'map') return new GuardedMapType(schema as avro.schema.MapType, opts);
  }
  return undefined;
}

export function buildType(schemaJson: unknown): avro.Type {
  return avro.Type.forSchema(stripDefaults(schemaJson as Json) as avro.Schema, {
    registry: {},
    typeHook,
    // ZTF unions are all [T, null] / [null, T]: unwrapped they decode to T | null directly.
    wrapUnions: 'auto',
  });
}

/** A small cache keyed by the schema text; the value is whatever the caller derives from it. */
export class SchemaCache<T> {
  private readonly map = new Map<string, T>();
  constructor(private readonly max = 64) {}

  get(key: string, make: () => T): T {
    let v = this.map.get(key);
    if (v === undefined) {
      v = make();
      if (this.map.size >= this.max) {
        const oldest = this.map.keys().next().value;
        if (oldest !== undefined) this.map.delete(oldest);
      }
      this.map.set(key, v);
    }
    return v;
  }
}

// Arrays of records decoded lazily: each item's few key fields at once, the rest on first use.
//
// A Rubin packet repeats up to a year of its object's DiaSources and forced photometry (hundreds of
// records of about a hundred fields), and ingestion stores only the few it has not seen: decoding
// every one cost more than all of the rest of ingestion (ADR 0037). Avro cannot jump over a record
// without reading it, but a reader compiled for the key fields steps over the others without
// building them.
import avro from 'avsc';

import { readLongKey } from './avro-long.ts';

/** Schema attribute that marks an array for lazy decoding; its value lists the key fields read at once. */
export const LAZY_KEYS_ATTRIBUTE = 'antaresLazyKeys';
/**
 * Schema attribute of a lazy array mapping its items' id fields to a one-character prefix: the first
 * one the record has, when it is a plain `long`, is read as a key (readLongKey, after its prefix)
 * instead of a value, and given by `lazyIdKey(item)`. The prefix tells apart ids of different spaces.
 */
export const LAZY_ID_ATTRIBUTE = 'antaresLazyId';

// Where a lazy item's bytes are, and once decoded, the whole record. Symbol keys: not listed by
// for...in, Object.keys or JSON.stringify. They are set in the item's one object literal: a Rubin
// packet brings hundreds of items, which live until their batch is stored, and a second object per
// item (or a property added later, which gives it a second backing store) was a third of what the
// garbage collector copied for them.
const BUF = Symbol('bytes');
const START = Symbol('start');
const TYPE = Symbol('type');
const FULL = Symbol('full record');
const ID_KEY = Symbol('id key');

type Lazy = Record<string, unknown> & {
  [BUF]?: Buffer;
  [START]: number;
  [TYPE]: avro.Type;
  [FULL]?: Record<string, unknown>;
  [ID_KEY]?: string;
};

/** The key of a lazy item's id (LAZY_ID_ATTRIBUTE), prefix first; undefined when it was read as a value or the item is not lazy. */
export function lazyIdKey(item: Record<string, unknown>): string | undefined {
  return (item as Lazy)[ID_KEY];
}

/**
 * An item of a lazily decoded array as a whole record (decoded once, then kept); any other record is
 * returned as it is. Items hold only their key fields until this is called.
 */
export function fullRecord(item: Record<string, unknown>): Record<string, unknown> {
  const lazy = item as Lazy;
  const buf = lazy[BUF];
  if (buf === undefined) return item;
  return (lazy[FULL] ??= lazy[TYPE].decode(buf, lazy[START]).value as Record<string, unknown>);
}

interface Tap {
  buf: Buffer;
  pos: number;
  readLong(): number;
  skipLong(): void;
  readString(): string;
}
interface Readable {
  _read(tap: Tap): unknown;
}
type KeyReader = (tap: Tap) => Lazy;

/**
 * An array whose record items come back holding only the key fields (those of the schema attribute
 * that the record has); `fullRecord(item)` decodes the rest from the same bytes. Items the compiled
 * reader does not cover are decoded in full. (A closure, not fields: avsc freezes its types once built.)
 */
export function lazyRecordArrayType(
  schema: avro.schema.ArrayType,
  opts: avro.ForSchemaOptions,
  readCount: (tap: Tap) => number,
): avro.Type {
  const keyFields = (schema as unknown as Record<string, string[]>)[LAZY_KEYS_ATTRIBUTE];
  const idPrefixes = (schema as unknown as Record<string, Record<string, string> | undefined>)[LAZY_ID_ATTRIBUTE] ?? {};
  let keyReader: KeyReader | null | undefined;

  class LazyRecordArrayType extends avro.types.ArrayType {
    _read(tap: Tap): unknown[] {
      const items = (this as unknown as { itemsType: avro.Type & Readable }).itemsType;
      // Built on first use: a named item type may be resolved only after this array was made.
      if (keyReader === undefined) keyReader = buildKeyReader(items, keyFields, idPrefixes);
      const val: unknown[] = [];
      let n: number;
      while ((n = readCount(tap))) while (n--) val.push(keyReader === null ? items._read(tap) : keyReader(tap));
      return val;
    }
  }
  return new LazyRecordArrayType(schema, opts);
}

/** How a value of this schema is stepped over: JavaScript that advances `pos`, or undefined when it needs a real reader. */
function skipCode(schema: unknown): string | undefined {
  const name = typeof schema === 'string' ? schema : (schema as { type?: unknown } | null)?.type;
  const isObject = schema !== null && typeof schema === 'object';
  if (isObject && name === 'fixed') return `pos += ${Number((schema as { size: number }).size)};`;
  if (isObject && name === 'enum') return VARINT;
  if (name === 'null') return '';
  if (name === 'boolean') return 'pos += 1;';
  if (name === 'int' || name === 'long') return VARINT;
  if (name === 'float') return 'pos += 4;';
  if (name === 'double') return 'pos += 8;';
  if (name === 'string' || name === 'bytes') return 'tap.pos = pos; pos = sized(tap);';
  return undefined;
}
const VARINT = 'while (buf[pos++] & 0x80);';

/** A string or bytes value: its length, then as many bytes. Returns the position after it. */
function sized(tap: Tap): number {
  const length = tap.readLong();
  if (!(length >= 0)) throw new Error('invalid length');
  return tap.pos + length;
}

/**
 * A reader of a record's key fields that steps over the others without decoding them. It is compiled
 * once per schema into straight-line code (as avsc compiles its own readers): a nullable float is one
 * byte compared and a position moved. About three times faster than avsc's skip of a hundred nullable
 * fields. Null for records with nested records, arrays or maps: those are decoded in full, as any
 * other array is (avsc's own skip of a nested array has no guard against a corrupt item count).
 */
function buildKeyReader(items: avro.Type, keyFields: string[], idPrefixes: Record<string, string>): KeyReader | null {
  if (items.typeName !== 'record') return null;
  const schema = items.schema() as { fields: Array<{ name: string; type: unknown }> };
  const fieldTypes = (items as unknown as { fields: Array<{ name: string; type: Readable }> }).fields;
  const keyReaders: Readable[] = [];
  const keyNames: string[] = [];
  let body = '';
  let idRead = false;
  for (const [i, field] of schema.fields.entries()) {
    const type = field.type as { type?: unknown } | string;
    const idPrefix = Object.hasOwn(idPrefixes, field.name) ? idPrefixes[field.name].charCodeAt(0) : undefined;
    if (!idRead && idPrefix !== undefined && (type === 'long' || (typeof type === 'object' && type.type === 'long'))) {
      body += `tap.pos = pos; const id = readLongKey(tap, ${idPrefix}); pos = tap.pos;\n`;
      idRead = true;
      continue;
    }
    if (keyFields.includes(field.name) || idPrefix !== undefined) {
      body += `tap.pos = pos; const k${keyReaders.length} = K[${keyReaders.length}]._read(tap); pos = tap.pos;\n`;
      keyReaders.push(fieldTypes[i].type);
      keyNames.push(field.name);
      continue;
    }
    if (!Array.isArray(field.type)) {
      const code = skipCode(field.type);
      if (code === undefined) return null;
      body += `${code}\n`;
      continue;
    }
    // A union: its branch index is a zigzag varint, one byte (2 * index) for the first 64 branches.
    const branches = field.type.map(skipCode);
    if (branches.includes(undefined) || branches.length > 64) return null;
    body += 'switch (buf[pos++]) {\n';
    for (const [b, code] of branches.entries()) body += `  case ${2 * b}: ${code} break;\n`;
    body += "  default: throw new Error('invalid union index');\n}\n";
  }
  const result = [
    ...keyNames.map((name, k) => `${JSON.stringify(name)}: k${k}`),
    '[ID_KEY]: ' + (idRead ? 'id' : 'undefined'),
    '[BUF]: buf, [START]: start, [TYPE]: T, [FULL]: undefined',
  ].join(', ');
  const read = new Function(
    'K',
    'T',
    'sized',
    'readLongKey',
    'S',
    `const { BUF, START, TYPE, FULL, ID_KEY } = S;\nreturn function readKeys(tap) {\nconst buf = tap.buf;\nconst start = tap.pos;\nlet pos = start;\n${body}tap.pos = pos;\nreturn { ${result} };\n};`,
  );
  return read(keyReaders, items, sized, readLongKey, { BUF, START, TYPE, FULL, ID_KEY }) as KeyReader;
}

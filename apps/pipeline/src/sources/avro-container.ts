// Avro Object Container File parsing, done by hand (not avsc's stream decoder) so that a corrupt
// block becomes an error for that block only and decoding resumes at the next sync marker.
// Layout: "Obj\x01", metadata map<bytes> (avro.schema, avro.codec), 16-byte sync, then blocks of
// (long count, long byteSize, data, sync).
import { crc32 as zlibCrc32, inflateRawSync } from 'node:zlib';

import { AVRO_CONTAINER_MAGIC, isAvroContainer } from '../bytes.ts';
import { snappyUncompress } from './snappy.ts';

export interface ContainerHeader {
  schema: string;
  codec: string;
  meta: Map<string, Buffer>;
  sync: Buffer;
  /** Byte offset of the first block. */
  dataStart: number;
}

export type RawBlock =
  { ok: true; offset: number; count: number; data: Buffer } | { ok: false; offset: number; count: number | undefined; error: string };

/** Reads zigzag varint longs from a buffer; throws on truncation. Block/map counts are small ints. */
class Cursor {
  constructor(
    readonly buf: Buffer,
    public pos: number,
  ) {}

  long(): number {
    let z = 0;
    let mul = 1;
    let b: number;
    let n = 0;
    do {
      if (this.pos >= this.buf.length) throw new Error('unexpected end of data');
      if (++n > 8) throw new Error('varint too long for a count/size');
      b = this.buf[this.pos++];
      z += (b & 0x7f) * mul;
      mul *= 128;
    } while (b & 0x80);
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  bytes(): Buffer {
    const len = this.long();
    if (len < 0 || this.pos + len > this.buf.length) throw new Error('unexpected end of data');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
}

export function readContainerHeader(buf: Buffer): ContainerHeader {
  if (!isAvroContainer(buf)) throw new Error('not an Avro Object Container File (bad magic)');
  const cur = new Cursor(buf, AVRO_CONTAINER_MAGIC.length);
  const meta = new Map<string, Buffer>();
  try {
    for (;;) {
      let n = cur.long();
      if (n === 0) break;
      if (n < 0) {
        // Negative map block count: absolute value is the count, followed by the block's byte size.
        n = -n;
        cur.long();
      }
      for (let i = 0; i < n; i++) {
        const key = cur.bytes().toString('utf8');
        meta.set(key, cur.bytes());
      }
    }
  } catch (err) {
    throw new Error(`truncated or corrupt Avro header (${(err as Error).message})`, { cause: err });
  }
  if (cur.pos + 16 > buf.length) throw new Error('truncated Avro header (no sync marker)');
  const sync = buf.subarray(cur.pos, cur.pos + 16);
  const schema = meta.get('avro.schema');
  if (!schema) throw new Error('Avro header has no avro.schema');
  const codec = meta.get('avro.codec')?.toString('utf8') || 'null';
  return { schema: schema.toString('utf8'), codec, meta, sync, dataStart: cur.pos + 16 };
}

// zlib.crc32 exists from Node 20.15; keep a table fallback for older 20.x runtimes.
let crcTable: Uint32Array | undefined;
function crc32(data: Uint8Array): number {
  if (typeof zlibCrc32 === 'function') return zlibCrc32(data) >>> 0;
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = crcTable[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function decompressBlock(codec: string, data: Buffer): Buffer {
  switch (codec) {
    case 'null':
      return data;
    case 'deflate':
      return inflateRawSync(data);
    case 'snappy': {
      // Avro's snappy codec: raw snappy block followed by a big-endian CRC32 of the uncompressed bytes.
      if (data.length < 4) throw new Error('snappy block shorter than its CRC32 trailer');
      const out = snappyUncompress(data.subarray(0, data.length - 4));
      const expected = data.readUInt32BE(data.length - 4);
      const actual = crc32(out);
      if (actual !== expected) throw new Error(`snappy block CRC32 mismatch (${actual.toString(16)} != ${expected.toString(16)})`);
      return out;
    }
    default:
      throw new Error(`unsupported Avro codec "${codec}"`);
  }
}

/**
 * Iterate the blocks of a container (still compressed). A block whose framing is broken yields
 * { ok: false } and iteration resumes after the next occurrence of the sync marker, if any.
 */
export function* iterateBlocks(buf: Buffer, header: ContainerHeader): Generator<RawBlock> {
  let pos = header.dataStart;
  while (pos < buf.length) {
    const start = pos;
    let count: number | undefined;
    let error: string;
    try {
      const cur = new Cursor(buf, pos);
      count = cur.long();
      const size = cur.long();
      if (count < 0 || size < 0) throw new Error(`negative block count/size (${count}, ${size})`);
      const end = cur.pos + size;
      if (end + 16 > buf.length) {
        throw new Error(`truncated block: needs ${end + 16 - start} bytes, ${buf.length - start} left`);
      }
      if (!buf.subarray(end, end + 16).equals(header.sync)) throw new Error('sync marker mismatch after block');
      yield { ok: true, offset: start, count, data: buf.subarray(cur.pos, end) };
      pos = end + 16;
      continue;
    } catch (err) {
      error = (err as Error).message;
    }
    yield { ok: false, offset: start, count, error };
    // Resynchronise: the next block starts right after the next sync marker.
    const next = buf.indexOf(header.sync, start + 1);
    if (next < 0) return;
    pos = next + 16;
  }
}

// Avro `long` as exact 64-bit integers. avsc's default long type throws ("potential precision
// loss") above 2^53, and ZTF candids / Spark ids go beyond it. We read the zigzag varint straight
// from avsc's tap and normalise: safe integers become `number`; anything larger is decoded with
// BigInt and returned as a decimal `string`, so a 64-bit id never goes through a double.
// (A LongType subclass rather than LongType.__with: __with allocates a Buffer per long, which
// showed up in profiles of prv_candidates-heavy packets.)
import avro from 'avsc';

export type NormalizedLong = number | string;

interface Tap {
  buf: Buffer;
  pos: number;
  writeFixed(buf: Buffer, len?: number): void;
}

function normalize(v: bigint): NormalizedLong {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

/**
 * A varint of 8 to 10 bytes (Rubin's ids are all this long): read as its low 28 bits and the rest, two
 * exact doubles, with integer operations only (a double's % is a library call: it cost a tenth of
 * ingesting a running broker's Rubin packets). Below 2^53 the value is a number; above, its decimal
 * digits are worked out from the two parts (a BigInt per id cost a sixth of decoding a packet's history).
 */
function readSlow(tap: Tap, start: number): NormalizedLong {
  const buf = tap.buf;
  // Bytes 0 to 6 all have the continuation bit (that is why we are here).
  const lo = (buf[start] & 0x7f) | ((buf[start + 1] & 0x7f) << 7) | ((buf[start + 2] & 0x7f) << 14) | ((buf[start + 3] & 0x7f) << 21);
  let b = buf[start + 7]; // past the end: undefined -> reads as 0, avsc then sees an invalid tap
  const hiLow = (buf[start + 4] & 0x7f) | ((buf[start + 5] & 0x7f) << 7) | ((buf[start + 6] & 0x7f) << 14) | ((b & 0x7f) << 21);
  let hiTop = 0; // bits 28-35 of the high part: byte 8, and the one bit of byte 9 within 64
  let pos = start + 8;
  if (b & 0x80) {
    b = buf[pos++];
    hiTop = b & 0x7f;
    if (b & 0x80) {
      b = buf[pos++];
      if (b & 0x80) throw new Error('invalid long: varint longer than 10 bytes');
      hiTop |= (b & 1) << 7;
    }
  }
  tap.pos = pos;
  return fromZigzag(hiTop * LOW + hiLow, lo);
}

/** The long whose zigzag encoding is hi * 2^28 + lo (hi < 2^36, lo < 2^28). */
function fromZigzag(hi: number, lo: number): NormalizedLong {
  // Zigzag: z even is z / 2, z odd is -(z + 1) / 2; halve (hi, lo) as one 64-bit number.
  const negative = (lo & 1) === 1;
  if (negative && ++lo === LOW) {
    lo = 0;
    hi++;
  }
  const magnitudeLo = (lo >>> 1) | ((hi & 1) << 27);
  const magnitudeHi = (hi - (hi & 1)) / 2;
  if (magnitudeHi < 2 ** 25) {
    const v = magnitudeHi * LOW + magnitudeLo;
    return negative ? -v : v;
  }
  return (negative ? '-' : '') + decimal(magnitudeHi, magnitudeLo);
}

const LOW = 2 ** 28;
const TEN7 = 1e7;

/**
 * The decimal digits of hi * 2^28 + lo (hi < 2^36, lo < 2^28) with exact double arithmetic only, no
 * `%` on doubles; written as up to three groups of 7 digits, each a small integer.
 */
export function decimal(hi: number, lo: number): string {
  const a = Math.floor(hi / TEN7);
  const t = (hi - a * TEN7) * LOW + lo; // < 2.7e15: exact
  const q = Math.floor(t / TEN7);
  const lower = t - q * TEN7;
  const upper = a * LOW + q; // < 2^53: exact
  if (upper === 0) return String(lower);
  const top = Math.floor(upper / TEN7);
  const middle = upper - top * TEN7;
  return top > 0 ? `${top}${sevenDigits(middle)}${sevenDigits(lower)}` : `${middle}${sevenDigits(lower)}`;
}

/** n (0 <= n < 10^7) as exactly seven digits. */
function sevenDigits(n: number): string {
  return n >= 1e6 ? String(n) : String(n).padStart(7, '0');
}

/**
 * A long as a short key: its zigzag encoding's bits 0-27, 28-55 and 56-63 as five 14-bit (or 8-bit)
 * characters. Equal keys exactly when the longs are equal; made from the varint at the tap without
 * working out the decimal digits (a Rubin packet repeats hundreds of stored ids, which are only looked
 * up), and far cheaper to hash than an id's 19 digits (known-alerts.ts).
 */
export function readLongKey(tap: { buf: Buffer; pos: number }, prefix?: number): string {
  const buf = tap.buf;
  let pos = tap.pos;
  let lo = 0;
  let mid = 0;
  let hi = 0;
  let b: number;
  let shift = 0;
  do {
    // Past the end: undefined -> reads as 0 and ends the loop; the caller's tap is then invalid, as avsc's is.
    b = buf[pos++];
    const bits = b & 0x7f;
    if (shift < 28) lo |= bits << shift;
    else if (shift < 56) mid |= bits << (shift - 28);
    else if (shift === 56) hi = bits;
    // The tenth byte holds one bit within 64 (readSlow reads it so too).
    else if (shift === 63) hi |= (bits & 1) << 7;
    else throw new Error('invalid long: varint longer than 10 bytes');
    shift += 7;
  } while (b & 0x80);
  tap.pos = pos;
  // With a prefix (a character code), one string: prefixing the key afterwards made a second one.
  return prefix === undefined ? keyOfParts(lo, mid, hi) : String.fromCharCode(prefix, lo & 0x3fff, lo >>> 14, mid & 0x3fff, mid >>> 14, hi);
}

function keyOfParts(lo: number, mid: number, hi: number): string {
  return String.fromCharCode(lo & 0x3fff, lo >>> 14, mid & 0x3fff, mid >>> 14, hi);
}

/** The key (readLongKey's) of a long given as a number or decimal string; undefined for anything else. */
export function longKeyOf(value: unknown): string | undefined {
  if (!(typeof value === 'number' ? Number.isSafeInteger(value) : typeof value === 'string' && /^-?\d+$/.test(value))) return undefined;
  const n = BigInt(value as number | string);
  if (n < -(1n << 63n) || n >= 1n << 63n) return undefined;
  const z = BigInt.asUintN(64, (n << 1n) ^ (n >> 63n));
  return keyOfParts(Number(z & 0xfffffffn), Number((z >> 28n) & 0xfffffffn), Number(z >> 56n));
}

/** The long of a key (readLongKey's, from `offset` in `key`) in decimal digits. */
export function longKeyDecimal(key: string, offset = 0): string {
  const lo = key.charCodeAt(offset) | (key.charCodeAt(offset + 1) << 14);
  const mid = key.charCodeAt(offset + 2) | (key.charCodeAt(offset + 3) << 14);
  return String(fromZigzag(key.charCodeAt(offset + 4) * LOW + mid, lo));
}

function toBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  throw new Error(`invalid long: ${String(v)}`);
}

function isValidLong(v: unknown): boolean {
  try {
    const n = toBigInt(v);
    return n >= -(1n << 63n) && n < 1n << 63n;
  } catch {
    return false;
  }
}

class ExactLongType extends avro.types.LongType {
  _read(tap: Tap): NormalizedLong {
    const buf = tap.buf;
    const start = tap.pos;
    let pos = start;
    let z = 0;
    let mul = 1;
    let b: number;
    do {
      // 7 bytes carry 49 bits: still exact in a double. Longer varints take the BigInt path.
      if (pos - start === 7) return readSlow(tap, start);
      b = buf[pos++]; // past the end: undefined -> loop ends, avsc then sees an invalid tap
      z += (b & 0x7f) * mul;
      mul *= 128;
    } while (b & 0x80);
    tap.pos = pos;
    // Zigzag: the parity is the first byte's (a double's % would be a library call).
    return buf[start] & 1 ? -(z + 1) / 2 : z / 2;
  }

  _write(tap: Tap, val: unknown): void {
    const n = BigInt.asIntN(64, toBigInt(val));
    let z = BigInt.asUintN(64, (n << 1n) ^ (n >> 63n));
    const bytes: number[] = [];
    do {
      let b = Number(z & 0x7fn);
      z >>= 7n;
      if (z !== 0n) b |= 0x80;
      bytes.push(b);
    } while (z !== 0n);
    tap.writeFixed(Buffer.from(bytes), bytes.length);
  }

  _check(val: unknown, _flags: unknown, hook?: (val: unknown, type: unknown) => void): boolean {
    const ok = isValidLong(val);
    if (!ok && hook) hook(val, this);
    return ok;
  }

  _copy(val: unknown): unknown {
    return typeof val === 'bigint' ? normalize(val) : val;
  }

  compare(a: unknown, b: unknown): number {
    const x = toBigInt(a);
    const y = toBigInt(b);
    return x === y ? 0 : x < y ? -1 : 1;
  }
}

/** Used for every `long` (including logical-type longs) by buildType's typeHook. */
export const exactLongType: avro.Type = new ExactLongType();

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
 * exact doubles. Below 2^53 the value is a number; above, its decimal digits are worked out from the
 * two parts in doubles too (a BigInt per id cost a sixth of decoding a Rubin packet's history).
 */
function readSlow(tap: Tap, start: number): NormalizedLong {
  const buf = tap.buf;
  let pos = start;
  let lo = 0;
  let hi = 0;
  let b: number;
  for (let shift = 0; shift < 28; shift += 7) {
    b = buf[pos++];
    lo += (b & 0x7f) * 2 ** shift;
    if (!(b & 0x80)) break;
  }
  let mul = 1;
  while (buf[pos - 1] & 0x80) {
    if (pos - start >= 10) throw new Error('invalid long: varint longer than 10 bytes');
    b = buf[pos++];
    hi += (b & 0x7f) * mul;
    mul *= 128;
  }
  tap.pos = pos;
  hi %= 2 ** 36; // a 10th byte's bits beyond the 64th are dropped, as a 64-bit decoder does
  // Zigzag: z even is z / 2, z odd is -(z + 1) / 2; halve (hi, lo) as one 64-bit number.
  const negative = lo % 2 === 1;
  if (negative && ++lo === LOW) {
    lo = 0;
    hi++;
  }
  const magnitudeLo = (lo + (hi % 2) * LOW) / 2;
  const magnitudeHi = Math.floor(hi / 2);
  if (magnitudeHi < 2 ** 25) {
    const v = magnitudeHi * LOW + magnitudeLo;
    return negative ? -v : v;
  }
  return (negative ? '-' : '') + decimal(magnitudeHi, magnitudeLo);
}

const LOW = 2 ** 28;
const TEN7 = 1e7;

/** The decimal digits of hi * 2^28 + lo (hi < 2^36, lo < 2^28) with exact double arithmetic only. */
export function decimal(hi: number, lo: number): string {
  const a = Math.floor(hi / TEN7);
  const t = (hi % TEN7) * LOW + lo; // < 2.7e15: exact
  const upper = a * LOW + Math.floor(t / TEN7); // < 2^53: exact
  const lower = t % TEN7;
  return upper > 0 ? `${upper}${String(lower).padStart(7, '0')}` : String(lower);
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
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
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

// Snappy raw-block decompression (https://github.com/google/snappy/blob/main/format_description.txt).
// Written here because snappyjs was half of the decode time of snappy Avro files; this one is
// ~3x faster (byte loops for the many short elements, native set/copyWithin for long ones).

function fail(msg: string): never {
  throw new Error(`invalid snappy data: ${msg}`);
}

export function snappyUncompress(src: Uint8Array): Buffer {
  let pos = 0;
  // Preamble: uncompressed length as a little-endian base-128 varint (at most 32 bits).
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (pos >= src.length || shift > 28) fail('bad length preamble');
    const b = src[pos++];
    length += (b & 0x7f) * 2 ** shift;
    if (!(b & 0x80)) break;
  }
  const out = Buffer.allocUnsafe(length);
  let op = 0;
  while (pos < src.length) {
    const tag = src[pos++];
    const kind = tag & 3;
    if (kind === 0) {
      // Literal: length-1 in the upper 6 bits, or in 1-4 following bytes when those bits are 60-63.
      let len = tag >>> 2;
      if (len >= 60) {
        const nb = len - 59;
        if (pos + nb > src.length) fail('truncated literal length');
        len = 0;
        for (let i = 0; i < nb; i++) len += src[pos + i] * 2 ** (8 * i);
        pos += nb;
      }
      len += 1;
      if (pos + len > src.length || op + len > length) fail('literal overruns buffer');
      if (len < 64) {
        // Short literals dominate; a subarray view per literal costs more than the loop.
        for (let i = 0; i < len; i++) out[op + i] = src[pos + i];
      } else {
        out.set(src.subarray(pos, pos + len), op);
      }
      pos += len;
      op += len;
      continue;
    }
    let len: number;
    let offset: number;
    if (kind === 1) {
      if (pos >= src.length) fail('truncated copy');
      len = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | src[pos++];
    } else if (kind === 2) {
      if (pos + 2 > src.length) fail('truncated copy');
      len = (tag >>> 2) + 1;
      offset = src[pos] | (src[pos + 1] << 8);
      pos += 2;
    } else {
      if (pos + 4 > src.length) fail('truncated copy');
      len = (tag >>> 2) + 1;
      offset = (src[pos] | (src[pos + 1] << 8) | (src[pos + 2] << 16)) + src[pos + 3] * 0x1000000;
      pos += 4;
    }
    if (offset === 0 || offset > op || op + len > length) fail('copy out of range');
    if (offset >= len && len >= 32) {
      out.copyWithin(op, op - offset, op - offset + len);
      op += len;
    } else {
      // Short or overlapping copy (an overlap repeats a short pattern, so it must go byte by byte).
      for (const end = op + len; op < end; op++) out[op] = out[op - offset];
    }
  }
  if (op !== length) fail(`decompressed ${op} bytes, preamble says ${length}`);
  return out;
}

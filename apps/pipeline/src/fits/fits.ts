// Minimal FITS reader/writer for alert cutouts (the reader reads the primary image only).
// ZTF cutouts are gzipped single-HDU images (BITPIX -32, 63x63); Rubin cutouts are plain FITS whose
// image is followed by its variance (UNCERT) and PSF (PSFIMAGE) as image extensions.
// We deliberately support only what cutouts need, and throw clear errors on the rest.
import { gunzipSync } from 'node:zlib';

import { isGzip } from '../bytes.ts';

export type FitsHeader = Record<string, string | number | boolean>;

export interface FitsImage {
  width: number;
  height: number;
  /** Row-major, row 0 = first row in the file (FITS y=1, i.e. the bottom of the image). */
  data: Float32Array;
  header: FitsHeader;
}

const BLOCK = 2880;
const CARD = 80;

function parseValue(raw: string): string | number | boolean {
  const s = raw.trimStart();
  if (s.startsWith("'")) {
    // Quoted string; '' is an escaped quote. Trailing spaces are not significant.
    let out = '';
    let i = 1;
    while (i < s.length) {
      if (s[i] === "'") {
        if (s[i + 1] === "'") {
          out += "'";
          i += 2;
          continue;
        }
        break;
      }
      out += s[i];
      i++;
    }
    return out.trimEnd();
  }
  // Strip the comment for non-string values.
  const slash = s.indexOf('/');
  const v = (slash >= 0 ? s.slice(0, slash) : s).trim();
  if (v === 'T') return true;
  if (v === 'F') return false;
  if (v === '') return '';
  // FITS allows a D exponent (Fortran double).
  const num = Number(v.replace(/[dD]/, 'E'));
  return Number.isNaN(num) ? v : num;
}

export interface ParsedHeader {
  header: FitsHeader;
  dataOffset: number;
}

export function parseHeader(bytes: Uint8Array): ParsedHeader {
  const header: FitsHeader = {};
  const decoder = new TextDecoder('latin1');
  for (let off = 0; off + CARD <= bytes.length; off += CARD) {
    const card = decoder.decode(bytes.subarray(off, off + CARD));
    const key = card.slice(0, 8).trimEnd();
    if (key === 'END') {
      const end = off + CARD;
      return { header, dataOffset: Math.ceil(end / BLOCK) * BLOCK };
    }
    if (key === '') continue;
    if (key === 'COMMENT' || key === 'HISTORY') {
      // Commentary cards repeat; keep them joined so nothing is silently lost.
      const text = card.slice(8).trimEnd();
      const prev = header[key];
      header[key] = prev === undefined ? text : `${prev}\n${text}`;
      continue;
    }
    if (card.slice(8, 10) !== '= ') continue; // no value indicator: commentary-like card
    header[key] = parseValue(card.slice(10));
  }
  throw new Error('FITS: END card not found (truncated or not a FITS file)');
}

function intKey(header: FitsHeader, key: string): number {
  const v = header[key];
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new Error(`FITS: missing or invalid ${key}`);
  }
  return v;
}

/** An HDU of a FITS file as fitsHdus lists it: its EXTNAME (undefined for the primary), BITPIX and axes. */
export interface FitsHdu {
  name: string | undefined;
  bitpix: number;
  axes: number[];
  /** Bytes of the HDU in the file: its header and its data, each padded to whole blocks. */
  bytes: number;
}

/** The HDUs of a (not gzipped) FITS file, in order: what a cutout holds besides its image. */
export function fitsHdus(bytes: Uint8Array): FitsHdu[] {
  const hdus: FitsHdu[] = [];
  for (let at = 0; at < bytes.length;) {
    const { header, dataOffset } = parseHeader(bytes.subarray(at));
    const bitpix = intKey(header, 'BITPIX');
    const axes = Array.from({ length: intKey(header, 'NAXIS') }, (_, k) => intKey(header, `NAXIS${k + 1}`));
    const pcount = typeof header.PCOUNT === 'number' ? header.PCOUNT : 0;
    const gcount = typeof header.GCOUNT === 'number' ? header.GCOUNT : 1;
    const dataBytes = axes.length === 0 ? 0 : ((Math.abs(bitpix) / 8) * axes.reduce((a, b) => a * b, 1) + pcount) * gcount;
    const size = dataOffset + Math.ceil(dataBytes / BLOCK) * BLOCK;
    hdus.push({ name: typeof header.EXTNAME === 'string' ? header.EXTNAME : undefined, bitpix, axes, bytes: size });
    at += size;
  }
  return hdus;
}

/**
 * Read the primary HDU image of a FITS file (optionally gzipped).
 * Returns physical values (BZERO + BSCALE * raw) as float32; BLANK and non-finite values become NaN.
 */
export function readFits(input: Uint8Array): FitsImage {
  const bytes = isGzip(input) ? new Uint8Array(gunzipSync(input)) : input;
  const magic = new TextDecoder('latin1').decode(bytes.subarray(0, 9));
  if (magic !== 'SIMPLE  =') {
    // 2016 ZTF commissioning packets carry JPEG cutouts; say so instead of a generic failure.
    if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) throw new Error('FITS: input is a JPEG image, not FITS');
    if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47)
      throw new Error('FITS: input is a PNG image, not FITS');
    throw new Error('FITS: not a FITS file (missing SIMPLE keyword)');
  }
  const { header, dataOffset } = parseHeader(bytes);
  if (header.SIMPLE !== true) throw new Error('FITS: SIMPLE is not T (non-conforming file)');
  const bitpix = intKey(header, 'BITPIX');
  const naxis = intKey(header, 'NAXIS');
  if (naxis < 2) {
    throw new Error(`FITS: primary HDU has NAXIS=${naxis}; only 2-D primary images are supported`);
  }
  const width = intKey(header, 'NAXIS1');
  const height = intKey(header, 'NAXIS2');
  for (let k = 3; k <= naxis; k++) {
    // Degenerate extra axes (size 1) are fine; real cubes are not something a cutout should be.
    if (intKey(header, `NAXIS${k}`) !== 1) throw new Error(`FITS: NAXIS${k} > 1 (data cubes unsupported)`);
  }
  const bytesPer = Math.abs(bitpix) / 8;
  if (![8, 16, 32, -32, -64].includes(bitpix)) throw new Error(`FITS: unsupported BITPIX ${bitpix}`);
  const n = width * height;
  if (dataOffset + n * bytesPer > bytes.length) {
    throw new Error(`FITS: data truncated (need ${n * bytesPer} bytes after header, have ${bytes.length - dataOffset})`);
  }
  const bzero = typeof header.BZERO === 'number' ? header.BZERO : 0;
  const bscale = typeof header.BSCALE === 'number' ? header.BSCALE : 1;
  const blank = bitpix > 0 && typeof header.BLANK === 'number' ? header.BLANK : undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset + dataOffset, n * bytesPer);
  const data = new Float32Array(n);
  const scaled = bzero !== 0 || bscale !== 1;
  for (let i = 0; i < n; i++) {
    let raw: number;
    switch (bitpix) {
      case 8:
        raw = view.getUint8(i);
        break;
      case 16:
        raw = view.getInt16(i * 2);
        break;
      case 32:
        raw = view.getInt32(i * 4);
        break;
      case -32:
        raw = view.getFloat32(i * 4);
        break;
      default:
        raw = view.getFloat64(i * 8);
        break;
    }
    if (blank !== undefined && raw === blank) {
      data[i] = NaN;
    } else {
      data[i] = scaled ? bzero + bscale * raw : raw;
    }
  }
  return { width, height, data, header };
}

const RESERVED = new Set([
  'SIMPLE',
  'XTENSION',
  'BITPIX',
  'NAXIS',
  'NAXIS1',
  'NAXIS2',
  'EXTEND',
  'PCOUNT',
  'GCOUNT',
  'EXTNAME',
  'END',
  'BZERO',
  'BSCALE',
  'BLANK',
]);

function formatCard(key: string, value: string | number | boolean): string {
  if (!/^[A-Z0-9_-]{1,8}$/.test(key)) throw new Error(`FITS: invalid header keyword "${key}"`);
  let v: string;
  if (typeof value === 'boolean') {
    v = (value ? 'T' : 'F').padStart(20);
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`FITS: non-finite value for ${key}`);
    // JS prints 1e-7 / 1e+21; FITS wants an upper-case E exponent.
    v = String(value).toUpperCase().padStart(20);
  } else {
    // Fixed-format strings: quoted, padded to at least 8 chars, quotes doubled.
    const esc = value.replace(/'/g, "''");
    if (!/^[\x20-\x7e]*$/.test(value)) throw new Error(`FITS: non-ASCII string for ${key}`);
    v = `'${esc.padEnd(8)}'`;
  }
  const card = `${key.padEnd(8)}= ${v}`;
  if (card.length > CARD) throw new Error(`FITS: value for ${key} too long for one card`);
  return card.padEnd(CARD);
}

/** An image extension (XTENSION = 'IMAGE') after the primary image: float32 or float64 pixels. */
export interface FitsImageExtension {
  name: string;
  width: number;
  height: number;
  data: Float32Array | Float64Array;
  header?: FitsHeader;
}

/**
 * Write a FITS file with a BITPIX -32 (big-endian float32) primary image, then any image extensions
 * (as a Rubin cutout carries its variance and PSF after the image). Structural keywords are
 * generated; user keys that would clash with them are ignored.
 */
export function writeFits(
  image: Float32Array,
  width: number,
  height: number,
  header: FitsHeader = {},
  extensions: FitsImageExtension[] = [],
): Buffer {
  const primary = [formatCard('SIMPLE', true), ...imageCards(image, width, height)];
  if (extensions.length > 0) primary.push(formatCard('EXTEND', true));
  const hdus = [writeHdu(primary, header, image)];
  for (const ext of extensions) {
    const cards = [formatCard('XTENSION', 'IMAGE'), ...imageCards(ext.data, ext.width, ext.height)];
    cards.push(formatCard('PCOUNT', 0), formatCard('GCOUNT', 1), formatCard('EXTNAME', ext.name));
    hdus.push(writeHdu(cards, ext.header ?? {}, ext.data));
  }
  return hdus.length === 1 ? hdus[0] : Buffer.concat(hdus);
}

/** BITPIX and the axes of a 2-D image, after checking its size. */
function imageCards(image: Float32Array | Float64Array, width: number, height: number): string[] {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error(`FITS: invalid image size ${width}x${height}`);
  }
  if (image.length !== width * height) {
    throw new Error(`FITS: image has ${image.length} pixels, expected ${width * height}`);
  }
  const bitpix = image instanceof Float64Array ? -64 : -32;
  return [formatCard('BITPIX', bitpix), formatCard('NAXIS', 2), formatCard('NAXIS1', width), formatCard('NAXIS2', height)];
}

/** One HDU: its structural cards, the user's header, END, then the pixels, each padded to whole blocks. */
function writeHdu(structural: string[], header: FitsHeader, image: Float32Array | Float64Array): Buffer {
  const cards = [...structural];
  for (const [k, v] of Object.entries(header)) {
    const key = k.toUpperCase();
    if (RESERVED.has(key)) continue;
    cards.push(formatCard(key, v));
  }
  cards.push('END'.padEnd(CARD));
  const headerText = cards.join('');
  const headerLen = Math.ceil(headerText.length / BLOCK) * BLOCK;
  const bytesPer = image.BYTES_PER_ELEMENT;
  const dataLen = Math.ceil((image.length * bytesPer) / BLOCK) * BLOCK;
  // Header padding is ASCII spaces; data padding is zeros (FITS standard 3.3.2).
  const out = Buffer.alloc(headerLen + dataLen, 0);
  out.write(headerText.padEnd(headerLen), 0, 'latin1');
  if (bytesPer === 8) for (let i = 0; i < image.length; i++) out.writeDoubleBE(image[i], headerLen + i * 8);
  else for (let i = 0; i < image.length; i++) out.writeFloatBE(image[i], headerLen + i * 4);
  return out;
}

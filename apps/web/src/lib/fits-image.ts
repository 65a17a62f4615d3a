/**
 * Reads the primary image of a FITS file in the browser (the cutouts the server serves from
 * /v1/alerts/{id}/cutouts/{type}.fits, already unzipped): BITPIX 8, 16, 32, -32 or -64, with BZERO,
 * BSCALE and BLANK applied. Row 0 is the file's first row (FITS y = 1, the bottom of the image).
 * Cutouts are the only FITS files the web app reads, so anything else is refused with a reason.
 */
export interface FitsPixels {
  width: number;
  height: number;
  data: Float64Array;
  header: Record<string, string | number | boolean>;
}

const BLOCK = 2880;
const CARD = 80;

function cardValue(text: string): string | number | boolean {
  const value = text.trim();
  if (value.startsWith("'")) {
    const end = value.indexOf("'", 1);
    return value.slice(1, end === -1 ? undefined : end).trimEnd();
  }
  const bare = value.split('/')[0].trim();
  if (bare === 'T' || bare === 'F') return bare === 'T';
  const number = Number(bare.replace(/[dD]/, 'E'));
  return Number.isNaN(number) ? bare : number;
}

export function readFitsImage(buffer: ArrayBuffer): FitsPixels {
  const bytes = new Uint8Array(buffer);
  const text = (start: number, length: number) => String.fromCharCode(...bytes.subarray(start, start + length));
  if (text(0, 9) !== 'SIMPLE  =') throw new Error('not a FITS file');
  const header: FitsPixels['header'] = {};
  let offset = 0;
  for (; ; offset += CARD) {
    if (offset + CARD > bytes.length) throw new Error('FITS header has no END card');
    const card = text(offset, CARD);
    const key = card.slice(0, 8).trimEnd();
    if (key === 'END') break;
    if (card.slice(8, 10) === '= ') header[key] = cardValue(card.slice(10));
  }
  const dataStart = Math.ceil((offset + CARD) / BLOCK) * BLOCK;
  const bitpix = header.BITPIX;
  const width = header.NAXIS1;
  const height = header.NAXIS2;
  if (typeof bitpix !== 'number' || ![8, 16, 32, -32, -64].includes(bitpix)) throw new Error(`unsupported BITPIX ${String(bitpix)}`);
  if (typeof width !== 'number' || typeof height !== 'number' || Number(header.NAXIS) < 2)
    throw new Error('the primary HDU is not an image');
  const size = Math.abs(bitpix) / 8;
  const count = width * height;
  if (dataStart + count * size > bytes.length) throw new Error('FITS data truncated');
  const view = new DataView(buffer, dataStart, count * size);
  const bzero = typeof header.BZERO === 'number' ? header.BZERO : 0;
  const bscale = typeof header.BSCALE === 'number' ? header.BSCALE : 1;
  const blank = bitpix > 0 && typeof header.BLANK === 'number' ? header.BLANK : undefined;
  const data = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const raw =
      bitpix === 8
        ? view.getUint8(i)
        : bitpix === 16
          ? view.getInt16(i * 2)
          : bitpix === 32
            ? view.getInt32(i * 4)
            : bitpix === -32
              ? view.getFloat32(i * 4)
              : view.getFloat64(i * 8);
    data[i] = raw === blank ? NaN : bzero + bscale * raw;
  }
  return { width, height, data, header };
}

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { decodeAvroBuffer } from '../sources/alert-avro.ts';
import { fitsHdus, parseHeader, readFits, writeFits } from './fits.ts';

// apps/pipeline/src/fits -> /work/shared/data (shared/ sits beside the repo root).
const DATA = fileURLToPath(new URL('../../../../../shared/data', import.meta.url));

/** Build a FITS file by hand, to test integer BITPIX / BZERO / BLANK paths writeFits never emits. */
function handFits(cards: string[], data: Buffer): Buffer {
  const text = [...cards, 'END'].map((c) => c.padEnd(80)).join('');
  const hlen = Math.ceil(text.length / 2880) * 2880;
  const dlen = Math.ceil(data.length / 2880) * 2880;
  const out = Buffer.alloc(hlen + dlen);
  out.write(text.padEnd(hlen), 0, 'latin1');
  data.copy(out, hlen);
  return out;
}

describe('writeFits / readFits', () => {
  it('round-trips a float image with header keywords', () => {
    const w = 7;
    const h = 5;
    const img = new Float32Array(w * h).map((_, i) => (i - 10) * 1.25e-3);
    img[3] = NaN;
    img[4] = -Infinity;
    const bytes = writeFits(img, w, h, { OBJECT: "ZTF18a'x", EXPTIME: 30, MAGZP: 26.325, TINY: 1e-12, FLAG: 'T' });
    expect(bytes.length % 2880).toBe(0);
    expect(bytes.subarray(0, 30).toString('latin1')).toBe('SIMPLE  =                    T');
    const back = readFits(bytes);
    expect(back.width).toBe(w);
    expect(back.height).toBe(h);
    expect(back.header.BITPIX).toBe(-32);
    expect(back.header.OBJECT).toBe("ZTF18a'x");
    expect(back.header.EXPTIME).toBe(30);
    expect(back.header.MAGZP).toBeCloseTo(26.325, 10);
    expect(back.header.TINY).toBe(1e-12);
    expect(back.header.FLAG).toBe('T'); // a string stays a string
    expect(Number.isNaN(back.data[3])).toBe(true);
    for (let i = 0; i < img.length; i++) if (i !== 3) expect(back.data[i]).toBe(img[i]);
    // gzipped input is accepted too
    expect(readFits(gzipSync(bytes)).data[10]).toBe(img[10]);
  });

  it('writes image extensions after the primary image, float64 ones too, each listed by fitsHdus', () => {
    const img = new Float32Array(6).map((_, i) => i + 0.5);
    const variance = new Float32Array(6).fill(2.25);
    const psf = new Float64Array(9).map((_, i) => i / 36 + 1e-17);
    const bytes = writeFits(img, 3, 2, { BUNIT: 'nJy' }, [
      { name: 'UNCERT', width: 3, height: 2, data: variance, header: { UTYPE: 'VarianceUncertainty' } },
      { name: 'PSFIMAGE', width: 3, height: 3, data: psf },
    ]);
    expect(fitsHdus(bytes)).toEqual([
      { name: undefined, bitpix: -32, axes: [3, 2], bytes: 2 * 2880 },
      { name: 'UNCERT', bitpix: -32, axes: [3, 2], bytes: 2 * 2880 },
      { name: 'PSFIMAGE', bitpix: -64, axes: [3, 3], bytes: 2 * 2880 },
    ]);
    // The primary image reads as before; EXTEND says extensions follow.
    const primary = readFits(bytes);
    expect([...primary.data]).toEqual([...img]);
    expect(primary.header.EXTEND).toBe(true);
    const uncert = parseHeader(bytes.subarray(2 * 2880));
    expect(uncert.header).toMatchObject({ XTENSION: 'IMAGE', PCOUNT: 0, GCOUNT: 1, EXTNAME: 'UNCERT', UTYPE: 'VarianceUncertainty' });
    expect(bytes.readFloatBE(2 * 2880 + uncert.dataOffset + 4 * 5)).toBe(2.25);
    const psfAt = 4 * 2880 + parseHeader(bytes.subarray(4 * 2880)).dataOffset;
    for (let i = 0; i < psf.length; i++) expect(bytes.readDoubleBE(psfAt + 8 * i)).toBe(psf[i]);
  });

  it('rejects bad keywords and mismatched sizes', () => {
    expect(() => writeFits(new Float32Array(4), 3, 1)).toThrow(/expected 3/);
    expect(() => writeFits(new Float32Array(1), 1, 1, { 'TOO-LONG-KEY': 1 })).toThrow(/invalid header keyword/);
  });

  it('applies BZERO/BSCALE and BLANK for integer images', () => {
    const raw = Buffer.alloc(4 * 2);
    [0, 1, -32768, 100].forEach((v, i) => raw.writeInt16BE(v, i * 2));
    const f = handFits(
      [
        'SIMPLE  =                    T',
        'BITPIX  =                   16',
        'NAXIS   =                    2',
        'NAXIS1  =                    2',
        'NAXIS2  =                    2',
        'BZERO   =              32768.0',
        'BSCALE  =                  0.5',
        'BLANK   =               -32768',
      ],
      raw,
    );
    const img = readFits(f);
    expect(Array.from(img.data.slice(0, 2))).toEqual([32768, 32768.5]);
    expect(Number.isNaN(img.data[2])).toBe(true);
    expect(img.data[3]).toBe(32818);
  });

  it('reads BITPIX 8, 32 and -64', () => {
    const mk = (bitpix: number, data: Buffer) =>
      handFits(
        [
          'SIMPLE  =                    T',
          `BITPIX  = ${String(bitpix).padStart(20)}`,
          'NAXIS   =                    2',
          'NAXIS1  =                    2',
          'NAXIS2  =                    1',
        ],
        data,
      );
    expect(Array.from(readFits(mk(8, Buffer.from([0, 255]))).data)).toEqual([0, 255]);
    const b32 = Buffer.alloc(8);
    b32.writeInt32BE(-7, 0);
    b32.writeInt32BE(123456, 4);
    expect(Array.from(readFits(mk(32, b32)).data)).toEqual([-7, 123456]);
    const b64 = Buffer.alloc(16);
    b64.writeDoubleBE(0.5, 0);
    b64.writeDoubleBE(-2.25, 8);
    expect(Array.from(readFits(mk(-64, b64)).data)).toEqual([0.5, -2.25]);
  });

  it('throws clear errors on non-FITS and unsupported input', () => {
    expect(() => readFits(Buffer.from('hello world'))).toThrow(/not a FITS file/);
    expect(() => readFits(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0]))).toThrow(/JPEG/);
    const noImage = handFits(
      ['SIMPLE  =                    T', 'BITPIX  =                    8', 'NAXIS   =                    0'],
      Buffer.alloc(0),
    );
    expect(() => readFits(noImage)).toThrow(/NAXIS=0/);
    const truncated = writeFits(new Float32Array(4000), 100, 40).subarray(0, 2880 * 2);
    expect(() => readFits(truncated)).toThrow(/truncated/);
  });

  it.skipIf(!existsSync(DATA))('reads a real gzipped ZTF cutout (63x63, BITPIX -32)', () => {
    const file = `${DATA}/ztf-avro-alert/samples/1661382530015060001_v3.5_ZTF18aaxjdyr.avro`;
    const [rec] = [...decodeAvroBuffer(readFileSync(file), file)];
    if (!('packet' in rec)) throw new Error(rec.error);
    const img = readFits(rec.packet.cutouts.difference!);
    expect(img.width).toBe(63);
    expect(img.height).toBe(63);
    expect(img.header.BITPIX).toBe(-32);
    expect(img.data.some((v) => Number.isFinite(v) && v !== 0)).toBe(true);
  });
});

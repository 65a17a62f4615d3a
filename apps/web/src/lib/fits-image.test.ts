import { describe, expect, it } from 'vitest';

import { readFitsImage } from './fits-image';

/** A FITS file as bytes: header cards padded to 2880, then big-endian data padded to 2880. */
function fits(cards: string[], data: ArrayBuffer): ArrayBuffer {
  const header = [...cards, 'END'].map((card) => card.padEnd(80)).join('');
  const headerLength = Math.ceil(header.length / 2880) * 2880;
  const out = new Uint8Array(headerLength + Math.ceil(data.byteLength / 2880) * 2880);
  for (let i = 0; i < header.length; i++) out[i] = header.charCodeAt(i);
  out.set(new Uint8Array(data), headerLength);
  return out.buffer;
}

describe('readFitsImage', () => {
  it('reads float32 images row by row from the first row in the file', () => {
    const data = new DataView(new ArrayBuffer(6 * 4));
    [1.5, -2, 3, NaN, 5, 6].forEach((v, i) => data.setFloat32(i * 4, v));
    const image = readFitsImage(
      fits(
        [
          'SIMPLE  =                    T',
          'BITPIX  =                  -32',
          'NAXIS   =                    2',
          'NAXIS1  =                    3',
          'NAXIS2  =                    2',
          "OBJECT  = 'ZTF18abc'",
        ],
        data.buffer,
      ),
    );
    expect([image.width, image.height]).toEqual([3, 2]);
    expect(Array.from(image.data.slice(0, 3))).toEqual([1.5, -2, 3]);
    expect(image.data[3]).toBeNaN();
    expect(image.header.OBJECT).toBe('ZTF18abc');
  });

  it('applies BZERO, BSCALE and BLANK to integer images', () => {
    const data = new DataView(new ArrayBuffer(4 * 2));
    [0, 10, -32768, 7].forEach((v, i) => data.setInt16(i * 2, v));
    const image = readFitsImage(
      fits(
        [
          'SIMPLE  =                    T',
          'BITPIX  =                   16',
          'NAXIS   =                    2',
          'NAXIS1  =                    2',
          'NAXIS2  =                    2',
          'BZERO   =                32768',
          'BSCALE  =                  0.5',
          'BLANK   =               -32768',
        ],
        data.buffer,
      ),
    );
    expect(Array.from(image.data)).toEqual([32768, 32773, NaN, 32771.5]);
  });

  it('refuses what is not a FITS image', () => {
    expect(() => readFitsImage(new TextEncoder().encode('<html>').buffer)).toThrow('not a FITS file');
    expect(() =>
      readFitsImage(
        fits(['SIMPLE  =                    T', 'BITPIX  =                   64', 'NAXIS   =                    0'], new ArrayBuffer(0)),
      ),
    ).toThrow('unsupported BITPIX 64');
  });
});

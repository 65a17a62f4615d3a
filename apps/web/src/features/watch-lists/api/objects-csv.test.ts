import { Readable } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { checkRow, MAX_OBJECTS, parseObjectsCsv } from './objects-csv';

/** The file as the browser would stream it: in the given pieces (a piece may end mid-line). */
const parse = (...pieces: string[]) => parseObjectsCsv(Readable.from(pieces));

describe('checkRow', () => {
  it('types the numbers and keeps an optional trimmed comment', () => {
    expect(checkRow(['10.5', ' -3.25 ', '0.001'])).toEqual({ right_ascension: 10.5, declination: -3.25, radius: 0.001 });
    expect(checkRow(['0', '-90', '0.01', ' my star '])).toEqual({ right_ascension: 0, declination: -90, radius: 0.01, comment: 'my star' });
    expect(checkRow(['360', '90', '1e-3', ''])).toEqual({ right_ascension: 360, declination: 90, radius: 0.001 });
  });

  it('names the missing, non-numeric and out-of-range fields', () => {
    expect(checkRow(['10', '20'])).toMatch(/^radius missing/);
    expect(checkRow(['10'])).toMatch(/^declination, radius missing/);
    expect(checkRow(['10', '', '0.001'])).toBe('declination is required');
    expect(checkRow(['ra', 'dec', 'radius'])).toBe('right_ascension is not a number: "ra"');
    expect(checkRow(['0x10', '1', '0.001'])).toMatch(/^right_ascension is not a number/);
    expect(checkRow(['Infinity', '1', '0.001'])).toMatch(/^right_ascension is not a number/);
    expect(checkRow(['360.0001', '1', '0.001'])).toBe('right_ascension must be between 0.0 and 360.0 (found 360.0001)');
    expect(checkRow(['-0.5', '1', '0.001'])).toMatch(/^right_ascension must be between/);
    expect(checkRow(['1', '-90.5', '0.001'])).toMatch(/^declination must be between -90.0 and 90.0/);
    expect(checkRow(['1', '1', '0.02'])).toMatch(/^radius must be between 0.0 and 0.01/);
    expect(checkRow(['1', '1', '-0.001'])).toMatch(/^radius must be between/);
    expect(checkRow(['1', '1', '0.001', 'a', 'b'])).toMatch(/^5 fields, at most 4/);
    expect(checkRow(['1', '1', '0.001', 'c'.repeat(1001)])).toBe('comment has more than 1000 characters');
  });
});

describe('parseObjectsCsv', () => {
  it('reads every row, skipping empty lines, across pieces that split lines', async () => {
    const result = await parse('10.5,-3.2,0.001,first\n\n', '  \n20,4', '5,0.002\n"30","-1","0.0005","a, quoted comment"\n\n');
    expect(result).toEqual({
      ok: true,
      objects: [
        { right_ascension: 10.5, declination: -3.2, radius: 0.001, comment: 'first' },
        { right_ascension: 20, declination: 45, radius: 0.002 },
        { right_ascension: 30, declination: -1, radius: 0.0005, comment: 'a, quoted comment' },
      ],
    });
  });

  it('reads Windows line endings', async () => {
    await expect(parse('1,2,0.001,"a"\r\n\r\n', '3,4,0.002\r\n')).resolves.toEqual({
      ok: true,
      objects: [
        { right_ascension: 1, declination: 2, radius: 0.001, comment: 'a' },
        { right_ascension: 3, declination: 4, radius: 0.002 },
      ],
    });
  });

  it('reads 100,000 rows and reports progress', async () => {
    const rows = Array.from({ length: MAX_OBJECTS }, (_, i) => `${(i % 3600) / 10},${(i % 1800) / 10 - 90},0.001,row ${i}`);
    const progress: number[] = [];
    const result = await parseObjectsCsv(Readable.from([rows.join('\n')]), (n) => progress.push(n));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.objects).toHaveLength(MAX_OBJECTS);
    expect(result.objects[MAX_OBJECTS - 1]).toEqual({
      right_ascension: (99_999 % 3600) / 10,
      declination: (99_999 % 1800) / 10 - 90,
      radius: 0.001,
      comment: 'row 99999',
    });
    expect(progress.at(-1)).toBe(MAX_OBJECTS);
  });

  it('refuses more than 100,000 objects', async () => {
    const rows = Array.from({ length: MAX_OBJECTS + 1 }, () => '1,2,0.001');
    await expect(parse(rows.join('\n'))).resolves.toEqual({ ok: false, line: MAX_OBJECTS + 1, problem: 'more than 100,000 objects' });
  });

  it('stops at the first bad row and gives its line (empty lines counted)', async () => {
    await expect(parse('right_ascension,declination,radius\n1,2,0.001\n')).resolves.toEqual({
      ok: false,
      line: 1,
      problem: 'right_ascension is not a number: "right_ascension"',
    });
    await expect(parse('1,2,0.001\n\n3,4\n')).resolves.toMatchObject({
      ok: false,
      line: 3,
      problem: expect.stringMatching(/^radius missing/),
    });
    await expect(parse('1,2,0.001\n1,2,abc\n')).resolves.toMatchObject({ ok: false, line: 2, problem: 'radius is not a number: "abc"' });
    await expect(parse('1,2,0.001\n1,95,0.001\n')).resolves.toMatchObject({
      ok: false,
      line: 2,
      problem: expect.stringMatching(/^declination must be between/),
    });
    await expect(parse('1,2,0.001\n1,2,0.001,"open quote\n')).resolves.toMatchObject({
      ok: false,
      line: 2,
      problem: 'a quoted field is not closed properly',
    });
  });

  it('refuses a file without objects', async () => {
    await expect(parse('')).resolves.toEqual({ ok: false, line: null, problem: 'the file holds no objects' });
    await expect(parse('\n \n\r\n')).resolves.toEqual({ ok: false, line: null, problem: 'the file holds no objects' });
  });

  it('refuses binary garbage', async () => {
    let seed = 7;
    const bytes = Buffer.from(new Uint8Array(2 * 1024 * 1024).map(() => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256));
    const result = await parseObjectsCsv(Readable.from([bytes.toString('latin1')]));
    expect(result.ok).toBe(false);
  });
});

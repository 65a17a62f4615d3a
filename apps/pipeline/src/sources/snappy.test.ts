import snappyjs from 'snappyjs';
import { describe, expect, it } from 'vitest';

import { snappyUncompress } from './snappy.ts';

describe('snappyUncompress', () => {
  it('matches snappyjs on random, repetitive and mixed data', () => {
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
    const inputs = [
      Buffer.alloc(0),
      Buffer.from('a'),
      Buffer.alloc(100_000, 7), // long overlapping copies
      Buffer.from(Array.from({ length: 70_000 }, rnd)), // incompressible: long literals
      Buffer.from('ZTF18aaxjdyr candid 1661382530015060001 '.repeat(3000) + Array.from({ length: 5000 }, rnd).join(',')),
    ];
    for (const input of inputs) {
      const compressed = snappyjs.compress(Buffer.from(input));
      expect(snappyUncompress(compressed).equals(input)).toBe(true);
    }
  });

  it('rejects corrupt input instead of reading out of bounds', () => {
    const good = snappyjs.compress(Buffer.from('hello hello hello hello hello'));
    expect(() => snappyUncompress(good.subarray(0, good.length - 3))).toThrow(/invalid snappy data/);
    expect(() => snappyUncompress(Buffer.from([0x05, 0x01, 0x10]))).toThrow(/copy out of range/);
    expect(() => snappyUncompress(Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))).toThrow(/preamble/);
  });
});

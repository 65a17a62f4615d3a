import { describe, expect, it } from 'vitest';

import { formatFixed, formatPropertyValue } from './format';
import { fullValueText } from './full-precision';

describe('fullValueText', () => {
  it('gives every digit of a number that the 2-decimal text rounded, and nothing otherwise', () => {
    // eslint-disable-next-line no-loss-of-precision -- the literal a user would type; the text is what float64 keeps
    expect(fullValueText(18.123456789012345, formatPropertyValue(18.123456789012345))).toBe('18.123456789012344');
    expect(fullValueText(60123.456789, formatFixed(60123.456789))).toBe('60123.456789');
    expect(fullValueText(1e-7, formatPropertyValue(1e-7))).toBe('1e-7');
    expect(fullValueText(42, formatPropertyValue(42))).toBeUndefined();
    expect(fullValueText(18.5, formatFixed(18.5))).toBe('18.5');
    expect(fullValueText('t', 't')).toBeUndefined();
    expect(fullValueText(undefined, '')).toBeUndefined();
  });
});

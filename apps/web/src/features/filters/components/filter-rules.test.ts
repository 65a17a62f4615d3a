import { describe, expect, it } from 'vitest';

import { validateCode, validateComment, validateFilterClass, validateFilterDescription, validateFilterName } from './filter-rules';

describe('filter rules (spec section 5 messages)', () => {
  it('requires a filter name of at most 64 allowed characters starting with a letter', () => {
    expect(validateFilterName('')).toBe('Field is required.');
    expect(validateFilterName('   ')).toBe('Field is required.');
    expect(validateFilterName('x'.repeat(65))).toBe('Field may not have more than 64 characters.');
    expect(validateFilterName('x'.repeat(64))).toBeNull();
    expect(validateFilterName('9lives')).toBe('Field contains invalid characters.');
    expect(validateFilterName('_private')).toBe('Field contains invalid characters.');
    expect(validateFilterName('bright/faint')).toBe('Field contains invalid characters.');
    expect(validateFilterName('Bright things_v2.1-beta')).toBeNull();
  });

  it('requires a description of at most 2048 characters', () => {
    expect(validateFilterDescription('')).toBe('Field is required.');
    expect(validateFilterDescription('d'.repeat(2049))).toBe('Field may not have more than 2048 characters.');
    expect(validateFilterDescription('d'.repeat(2048))).toBeNull();
  });

  it('requires a version comment of at most 255 characters, and code', () => {
    expect(validateComment(' ')).toBe('Field is required.');
    expect(validateComment('c'.repeat(256))).toBe('Field may not have more than 255 characters.');
    expect(validateComment('c'.repeat(255))).toBeNull();
    expect(validateCode('\n  \n')).toBe('Field is required.');
    expect(validateCode('pass')).toBeNull();
  });

  it('takes a blank filter class (the last one defined) or a Python name of at most 255 characters', () => {
    expect(validateFilterClass('  ')).toBeNull();
    expect(validateFilterClass('HighSNR')).toBeNull();
    expect(validateFilterClass('_draft_2')).toBeNull();
    expect(validateFilterClass('2nd')).toBe('Field contains invalid characters.');
    expect(validateFilterClass('High SNR')).toBe('Field contains invalid characters.');
    expect(validateFilterClass('a'.repeat(256))).toBe('Field may not have more than 255 characters.');
  });
});

import { describe, expect, it } from 'vitest';

import { safeRedirect, validateEmail, validatePassword, validateRepeat, validateUsername } from './password-rules';
import { decodeJwtPayload, initialResetStep } from './reset-token';

const token = (payload: object) => `x.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;

describe('reset link token', () => {
  const now = Date.UTC(2026, 0, 1);
  it('chooses SUBMIT for an unexpired token and EXPIRED otherwise', () => {
    expect(initialResetStep(null, now)).toBe('REQUEST');
    expect(initialResetStep(token({ exp: now / 1000 + 60 }), now)).toBe('SUBMIT');
    expect(initialResetStep(token({ exp: now / 1000 - 1 }), now)).toBe('EXPIRED');
    expect(initialResetStep(token({ sub: '1' }), now)).toBe('EXPIRED');
    expect(initialResetStep('garbage', now)).toBe('EXPIRED');
    expect(initialResetStep('', now)).toBe('EXPIRED');
    expect(initialResetStep('a.!!!.c', now)).toBe('EXPIRED');
  });
  it('decodes base64url payloads without padding, including non-ASCII text', () => {
    expect(decodeJwtPayload(token({ name: 'Ångström?>' }))).toEqual({ name: 'Ångström?>' });
    expect(decodeJwtPayload(token([1, 2]))).toBeNull();
  });
});

describe('account rules (spec section 5 messages)', () => {
  it('validates the registration fields', () => {
    expect(validateUsername('')).toBe('Field is required.');
    expect(validateUsername('abc')).toBe('Field must have between 4 and 64 characters.');
    expect(validateUsername('abcd')).toBeNull();
    expect(validateEmail('a@b')).toBe('Field must be a valid email address.');
    expect(validatePassword('Short1')).toBe('Field must have between 8 and 256 characters.');
    expect(validatePassword('longenough')).toBe('Field must contain at least one number and one uppercase letter.');
    expect(validatePassword('Longenough1')).toBeNull();
    expect(validateRepeat('Longenough1', '')).toBe('Field is required.');
    expect(validateRepeat('Longenough1', 'Longenough2')).toBe("Field doesn't match password.");
    expect(validateRepeat('Longenough1', 'Longenough1')).toBeNull();
  });
  it('accepts only local paths as the login redirect', () => {
    expect(safeRedirect('/filters?x=1#y')).toBe('/filters?x=1#y');
    expect(safeRedirect(null)).toBe('/loci');
    expect(safeRedirect('https://evil.example')).toBe('/loci');
    expect(safeRedirect('//evil.example/path')).toBe('/loci');
    expect(safeRedirect('/\\evil.example')).toBe('/loci');
  });
});

import { describe, expect, it } from 'vitest';

import { formatCatalogValue, formatPropertyValue } from './format';

describe('formatCatalogValue', () => {
  it('keeps every digit of a number (catalog positions), unlike property values', () => {
    expect(formatCatalogValue(4.3603648186538635)).toBe('4.3603648186538635');
    expect(formatPropertyValue(4.3603648186538635)).toBe('4.36');
    expect(formatCatalogValue(0.5)).toBe('0.5');
    expect(formatCatalogValue(12)).toBe('12');
  });

  it('shows text as it is, objects as JSON and nothing for missing values', () => {
    expect(formatCatalogValue('E2E Star 01')).toBe('E2E Star 01');
    expect(formatCatalogValue({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(formatCatalogValue(null)).toBe('');
    expect(formatCatalogValue(undefined)).toBe('');
    expect(formatCatalogValue(false)).toBe('false');
  });
});

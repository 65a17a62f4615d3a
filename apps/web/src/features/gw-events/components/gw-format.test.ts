import { describe, expect, it } from 'vitest';

import { formatArea, formatFar, formatFarPerYear, graceDbUrl } from './gw-format';

describe('GW event formatting', () => {
  it('writes false alarm rates in Hz and per year', () => {
    expect(formatFar(5.176954877338635e-16)).toBe('5.18e-16 Hz');
    expect(formatFar(null)).toBe('');
    // 1 / (5.18e-16 Hz × 31,557,600 s) ≈ 61 million years.
    expect(formatFarPerYear(5.176954877338635e-16)).toBe('1 per 61M years');
    expect(formatFarPerYear(1e-6)).toBe('32 per year');
    expect(formatFarPerYear(0)).toBe('');
  });

  it('writes areas with one decimal when small and whole degrees when large', () => {
    expect(formatArea(7.75)).toBe('7.8 deg²');
    expect(formatArea(10182.63)).toBe('10,183 deg²');
    expect(formatArea(null)).toBe('');
  });

  it('links the GraceDB superevent page', () => {
    expect(graceDbUrl('S190425z')).toBe('https://gracedb.ligo.org/superevents/S190425z/view/');
  });
});

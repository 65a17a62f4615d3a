import { describe, expect, it } from 'vitest';

import { dateToMjd, formatMjdAsUtc, jdToMjd, MJD_EPOCH_JD, mjdToDate, mjdToJd, unixSecondsToMjd } from './time.ts';

describe('MJD conversions', () => {
  it('uses the standard MJD epoch JD 2400000.5', () => {
    expect(MJD_EPOCH_JD).toBe(2400000.5);
    // J2000.0 = JD 2451545.0 = 2000-01-01T12:00:00 (TT; the same instant label in UTC here).
    expect(jdToMjd(2451545.0)).toBe(51544.5);
    expect(mjdToJd(51544.5)).toBe(2451545.0);
  });

  it('anchors MJD 0, J2000 and the Unix epoch', () => {
    expect(mjdToDate(0).toISOString()).toBe('1858-11-17T00:00:00.000Z');
    expect(mjdToDate(51544.5).toISOString()).toBe('2000-01-01T12:00:00.000Z');
    expect(mjdToDate(40587).toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(dateToMjd(new Date('1858-11-17T00:00:00Z'))).toBe(0);
    expect(dateToMjd(new Date('2000-01-01T12:00:00Z'))).toBe(51544.5);
    expect(unixSecondsToMjd(0)).toBe(40587);
    expect(unixSecondsToMjd(946728000)).toBe(51544.5); // 2000-01-01T12:00:00Z
  });

  it('formats as YYYY-MM-DD HH:MM:SS in UTC', () => {
    expect(formatMjdAsUtc(0)).toBe('1858-11-17 00:00:00');
    expect(formatMjdAsUtc(51544.5)).toBe('2000-01-01 12:00:00');
    expect(formatMjdAsUtc(40587.75)).toBe('1970-01-01 18:00:00');
  });

  it('rounds to the nearest second, carrying into the next day', () => {
    expect(formatMjdAsUtc(51544.5 + 0.4 / 86400)).toBe('2000-01-01 12:00:00');
    expect(formatMjdAsUtc(51544.5 + 0.6 / 86400)).toBe('2000-01-01 12:00:01');
    expect(formatMjdAsUtc(51544 + 86399.7 / 86400)).toBe('2000-01-01 00:00:00'.replace('01 00', '02 00'));
  });

  it('matches an ANTARES ZTF alert (jd 2459263.6617361 shown as 2021-02-18 03:52:53.999)', () => {
    // ANTARES API: ztf_jd 2459263.6617361, ant_mjd 59263.16173609998, time "2021-02-18 03:52:53.999038".
    expect(jdToMjd(2459263.6617361)).toBeCloseTo(59263.16173609998, 9);
    expect(formatMjdAsUtc(59263.16173609998)).toBe('2021-02-18 03:52:54');
  });

  it('rejects MJDs that cannot be shown', () => {
    expect(() => formatMjdAsUtc(Number.NaN)).toThrow(RangeError);
    expect(() => formatMjdAsUtc(1e9)).toThrow(RangeError);
  });
});

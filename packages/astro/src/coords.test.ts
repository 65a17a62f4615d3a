import { describe, expect, it } from 'vitest';

import { CoordinateParseError, formatDecimal, formatSexagesimal, parseAngleWithUnit, parseCoordinates } from './coords.ts';

// M31 written several ways. Hand conversion:
//   RA  00h42m44.33s = (42 / 60 + 44.33 / 3600) h * 15 = 10.684708333 deg
//   RA  10d41m04.49s = 10 + 41 / 60 + 4.49 / 3600       = 10.684580556 deg
//   Dec +41d16m09.01s = 41 + 16 / 60 + 9.01 / 3600      = 41.269169444 deg
const M31_RA_FROM_HOURS = 10.684708333;
const M31_RA_FROM_DEGREES = 10.684580556;
const M31_DEC = 41.269169444;

function expectPosition(text: string, ra: number, dec: number): void {
  const parsed = parseCoordinates(text);
  expect(parsed.ra).toBeCloseTo(ra, 8);
  expect(parsed.dec).toBeCloseTo(dec, 8);
}

function expectParseError(text: string, message: string | RegExp): void {
  expect(() => parseCoordinates(text)).toThrow(CoordinateParseError);
  expect(() => parseCoordinates(text)).toThrow(message);
}

describe('parseCoordinates', () => {
  it('reads decimal degrees, separated by spaces or a comma', () => {
    expectPosition('10.68458 41.26917', 10.68458, 41.26917);
    expectPosition('  10.68458   +41.26917 ', 10.68458, 41.26917);
    expectPosition('10.68458, 41.26917', 10.68458, 41.26917);
    expectPosition('10.68458,-41.26917', 10.68458, -41.26917);
    expectPosition('10.68458d 41.26917d', 10.68458, 41.26917);
    expectPosition('10.68458° -41.26917°', 10.68458, -41.26917);
    expectPosition('0 -90', 0, -90);
    expectPosition('359.9999 90', 359.9999, 90);
  });

  it('reads degree notation with letters or symbols', () => {
    expectPosition('10d41m04.49s +41d16m09.01s', M31_RA_FROM_DEGREES, M31_DEC);
    expectPosition(`10°41'04.49" +41°16'09.01"`, M31_RA_FROM_DEGREES, M31_DEC);
    expectPosition('10°41′04.49″ +41°16′09.01″', M31_RA_FROM_DEGREES, M31_DEC);
    expectPosition('10d 41m 04.49s +41d 16m 09.01s', M31_RA_FROM_DEGREES, M31_DEC);
    expectPosition('10D41M04.49S, -41D16M09.01S', M31_RA_FROM_DEGREES, -M31_DEC);
    expectPosition('10d41m +41d16m', 10 + 41 / 60, 41 + 16 / 60);
  });

  it('reads RA in hours with h/m/s marks', () => {
    expectPosition('00h42m44.33s +41d16m09.01s', M31_RA_FROM_HOURS, M31_DEC);
  });

  it('reads sexagesimal hours/degrees with colons or spaces', () => {
    expectPosition('00:42:44.33 +41:16:09.01', M31_RA_FROM_HOURS, M31_DEC);
    expectPosition('00:42:44.33, 41:16:09.01', M31_RA_FROM_HOURS, M31_DEC);
    expectPosition('00 42 44.33 +41 16 09.01', M31_RA_FROM_HOURS, M31_DEC);
    expectPosition('23:59:59.99 -89:59:59.9', (23 + 59 / 60 + 59.99 / 3600) * 15, -(89 + 59 / 60 + 59.9 / 3600));
    expectPosition('12:30 -10:15', 187.5, -10.25);
  });

  it('keeps the sign of a declination whose degrees are zero', () => {
    expect(parseCoordinates('12:00:00 -00:30:00').dec).toBe(-0.5);
    expect(parseCoordinates('12:00:00 -00 30 00'.replace('12:00:00', '12 00 00')).dec).toBe(-0.5);
    expect(parseCoordinates('180 -0d30m').dec).toBe(-0.5);
    expect(parseCoordinates('180 -00:00:00').dec).toBe(-0);
  });

  it('explains what is wrong', () => {
    expectParseError('10.68458', 'Expected two coordinates (RA and Dec), got "10.68458"');
    expectParseError('1 2 3', 'Expected two coordinates (RA and Dec), got "1 2 3"');
    expectParseError('1, 2, 3', 'Expected two coordinates (RA and Dec)');
    expectParseError('', 'Expected two coordinates (RA and Dec), got ""');
    expectParseError('10 91', 'Declination must be between -90 and 90 degrees');
    expectParseError('10 -90.5', 'Declination must be between -90 and 90 degrees');
    expectParseError('00:00:00 +91:00:00', 'Declination must be between -90 and 90 degrees');
    expectParseError('00:61:00 +41:00:00', 'RA minutes must be below 60');
    expectParseError('00:42:60 +41:00:00', 'RA seconds must be below 60');
    expectParseError('24:00:00 +41:00:00', 'RA hours must be below 24');
    expectParseError('00:42:44 +41:60:00', 'Dec minutes must be below 60');
    expectParseError('00:42:44 +41:16:61', 'Dec seconds must be below 60');
    expectParseError('360 10', 'RA must be at least 0 and below 360 degrees');
    expectParseError('-10 10', 'RA must not be negative');
    expectParseError('abc def', 'RA "abc" is not a recognised format');
    expectParseError('10 4x', 'Dec "4x" is not a recognised format');
    expectParseError('10 41h', 'Dec cannot be given in hours');
    expectParseError('1:2:3:4 5', 'is not valid sexagesimal');
    expectParseError('10 4-1', 'has a sign in the wrong place');
  });
});

describe('formatSexagesimal', () => {
  it('formats M31 as published (00:42:44.33 +41:16:09.01)', () => {
    expect(formatSexagesimal(M31_RA_FROM_HOURS, M31_DEC)).toEqual({ ra: '00:42:44.33', dec: '+41:16:09.01' });
  });

  it('carries when seconds round up to 60', () => {
    // 01:02:59.997 h -> 01:03:00.00 ; 10d 59' 59.996" -> +11:00:00.00
    expect(formatSexagesimal((1 + 2 / 60 + 59.997 / 3600) * 15, 10 + 59 / 60 + 59.996 / 3600)).toEqual({
      ra: '01:03:00.00',
      dec: '+11:00:00.00',
    });
    // 23:59:59.999 h wraps to the start of the day rather than printing 24:00:00.00.
    expect(formatSexagesimal(359.99999999, -89.999999999).ra).toBe('00:00:00.00');
    expect(formatSexagesimal(359.99999999, -89.999999999).dec).toBe('-90:00:00.00');
  });

  it('formats negative declinations and does not print -00:00:00.00', () => {
    expect(formatSexagesimal(0, -0.5).dec).toBe('-00:30:00.00');
    expect(formatSexagesimal(0, -1e-9).dec).toBe('+00:00:00.00');
    expect(formatSexagesimal(360, 0)).toEqual({ ra: '00:00:00.00', dec: '+00:00:00.00' });
  });

  it('round-trips through parseCoordinates', () => {
    const { ra, dec } = formatSexagesimal(287.87029928, -16.22908364);
    const parsed = parseCoordinates(`${ra} ${dec}`);
    // 0.01 s of RA is 0.15 arcsec = 4e-5 deg; 0.01 arcsec of Dec is 3e-6 deg.
    expect(parsed.ra).toBeCloseTo(287.87029928, 4);
    expect(parsed.dec).toBeCloseTo(-16.22908364, 5);
  });
});

describe('formatDecimal', () => {
  it('prints 4 decimals', () => {
    expect(formatDecimal(10.68458)).toBe('10.6846');
    expect(formatDecimal(-41.26917)).toBe('-41.2692');
    expect(formatDecimal(0)).toBe('0.0000');
    expect(formatDecimal(-0.00001)).toBe('0.0000');
  });
});

describe('parseAngleWithUnit', () => {
  it('converts to degrees', () => {
    expect(parseAngleWithUnit('0.0002777 degree')).toBeCloseTo(0.0002777, 12);
    expect(parseAngleWithUnit('1 deg')).toBe(1);
    expect(parseAngleWithUnit('1.5 degrees')).toBe(1.5);
    expect(parseAngleWithUnit('1 arcsec')).toBeCloseTo(1 / 3600, 15);
    expect(parseAngleWithUnit('1arcsec')).toBeCloseTo(1 / 3600, 15);
    expect(parseAngleWithUnit('2 arcmin')).toBeCloseTo(2 / 60, 15);
    expect(parseAngleWithUnit('30"')).toBeCloseTo(30 / 3600, 15);
    expect(parseAngleWithUnit("5'")).toBeCloseTo(5 / 60, 15);
    expect(parseAngleWithUnit('2.5e-1 deg')).toBe(0.25);
  });

  it('rejects anything else with a clear message', () => {
    expect(() => parseAngleWithUnit('1')).toThrow('Expected a non-negative number followed by a unit');
    expect(() => parseAngleWithUnit('-1 arcsec')).toThrow('Expected a non-negative number followed by a unit');
    expect(() => parseAngleWithUnit('one arcsec')).toThrow(CoordinateParseError);
    expect(() => parseAngleWithUnit('3 parsec')).toThrow('Unknown angle unit "parsec"');
  });
});

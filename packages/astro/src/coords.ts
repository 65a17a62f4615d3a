/**
 * Parsing and formatting of sky positions for the cone search box.
 *
 * Accepted inputs (RA first, then Dec; separated by whitespace or a comma):
 * - decimal degrees:            "10.68458 41.26917", "10.68458, 41.26917",
 *                               "10.68458d 41.26917d", "10.68458° +41.26917°"
 * - degree notation:            "10d41m04.49s +41d16m09.01s",
 *                               "10°41'04.49\" +41°16'09.01\""
 * - hour notation for RA:       "00h42m44.33s +41d16m09.01s"
 * - sexagesimal with colons:    "00:42:44.33 +41:16:09.01" (RA in hours, Dec in degrees)
 * - sexagesimal with spaces:    "00 42 44.33 +41 16 09.01" (exactly six numbers)
 */
import { normalizeRa } from './sphere.ts';

export class CoordinateParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CoordinateParseError';
  }
}

type Axis = 'RA' | 'Dec';

const NUMBER = String.raw`\d+(?:\.\d*)?|\.\d+`;
const PLAIN_NUMBER = new RegExp(`^(?:${NUMBER})$`);
const DEGREE_SUFFIX = /(?:d|deg|°)$/i;
/** Component marks of degree/hour notation, by slot: 0 = h/d/°, 1 = m/'/′, 2 = s/"/″. */
const UNIT_SLOT: Readonly<Record<string, number>> = { h: 0, d: 0, '°': 0, m: 1, "'": 1, '′': 1, s: 2, '"': 2, '″': 2 };

interface UnitNotation {
  inHours: boolean;
  whole: number;
  minutes: number;
  seconds: number;
}

/**
 * Reads "10d41m04.49s", "10°41'04.49\"", "00h42m44.33s", "41d16m" ... A
 * component without a mark takes the next slot ("10d41m04.49" is fine), but
 * the first one must be marked so "10 41" is never read as degrees/minutes.
 */
function parseUnitNotation(body: string): UnitNotation | null {
  const component = new RegExp(`(${NUMBER})\\s*([hdms°'′"″]?)\\s*`, 'iy');
  const values = [0, 0, 0];
  let previousSlot = -1;
  let inHours = false;
  let position = 0;
  while (position < body.length) {
    component.lastIndex = position;
    const match = component.exec(body);
    if (!match) return null;
    const mark = match[2].toLowerCase();
    const slot = mark === '' ? previousSlot + 1 : UNIT_SLOT[mark];
    if (previousSlot < 0 && mark === '') return null;
    if (slot <= previousSlot || slot > 2) return null;
    if (slot === 0) inHours = mark === 'h';
    values[slot] = Number(match[1]);
    previousSlot = slot;
    position = component.lastIndex;
  }
  if (previousSlot < 0) return null;
  return { inHours, whole: values[0], minutes: values[1], seconds: values[2] };
}

export function parseCoordinates(text: string): { ra: number; dec: number } {
  const [raText, decText] = splitIntoRaAndDec(text);
  const ra = parseAxis(raText, 'RA');
  const dec = parseAxis(decText, 'Dec');
  if (!(dec >= -90 && dec <= 90)) {
    throw new CoordinateParseError(`Declination must be between -90 and 90 degrees, got ${dec}`);
  }
  if (!(ra >= 0 && ra < 360)) {
    throw new CoordinateParseError(`RA must be at least 0 and below 360 degrees, got ${ra}`);
  }
  return { ra, dec };
}

function expectedTwo(text: string): CoordinateParseError {
  return new CoordinateParseError(`Expected two coordinates (RA and Dec), got "${text}"`);
}

function splitIntoRaAndDec(text: string): [string, string] {
  const trimmed = text.trim();
  if (trimmed.includes(',')) {
    const parts = trimmed.split(',').map((part) => part.trim());
    if (parts.length !== 2 || parts.some((part) => part === '')) throw expectedTwo(text);
    return [parts[0], parts[1]];
  }
  const tokens = trimmed.split(/\s+/).filter((token) => token !== '');
  if (tokens.length === 2) return [tokens[0], tokens[1]];
  if (tokens.length === 6 && tokens.every((token, i) => isSexagesimalField(token, i === 3))) {
    return [tokens.slice(0, 3).join(':'), tokens.slice(3).join(':')];
  }
  // Unit notation written with spaces, e.g. "10d 41m 04.49s +41d 16m 09.01s":
  // Dec starts at the second token that carries a degree/hour mark.
  const unitStarts = tokens.flatMap((token, i) => (/^[+-]?[\d.]+\s*[hd°]/i.test(token) ? [i] : []));
  if (unitStarts.length === 2 && unitStarts[0] === 0) {
    return [tokens.slice(0, unitStarts[1]).join(''), tokens.slice(unitStarts[1]).join('')];
  }
  throw expectedTwo(text);
}

function isSexagesimalField(token: string, allowSign: boolean): boolean {
  const unsigned = allowSign ? token.replace(/^[+-]/, '') : token;
  return PLAIN_NUMBER.test(unsigned);
}

/** Splits off a leading sign; the sign is kept separately so "-00:30:00" stays negative. */
function takeSign(text: string, axis: Axis): { negative: boolean; body: string } {
  const match = /^([+-]?)\s*(.*)$/.exec(text) as RegExpExecArray;
  const negative = match[1] === '-';
  if (/[+-]/.test(match[2])) {
    throw new CoordinateParseError(`${axis} "${text}" has a sign in the wrong place; only a leading + or - is allowed`);
  }
  return { negative, body: match[2] };
}

function parseAxis(text: string, axis: Axis): number {
  const { negative, body } = takeSign(text.trim(), axis);
  if (negative && axis === 'RA') {
    throw new CoordinateParseError(`RA must not be negative, got "${text}"`);
  }
  const magnitude = parseUnsignedAxis(body, axis, text);
  return negative ? -magnitude : magnitude;
}

function parseUnsignedAxis(body: string, axis: Axis, original: string): number {
  if (PLAIN_NUMBER.test(body)) return Number(body);

  const withoutDegreeSuffix = body.replace(DEGREE_SUFFIX, '');
  if (withoutDegreeSuffix !== body && PLAIN_NUMBER.test(withoutDegreeSuffix.trim())) {
    return Number(withoutDegreeSuffix.trim());
  }

  if (body.includes(':')) {
    const fields = body.split(':');
    if (fields.length < 2 || fields.length > 3 || !fields.every((f) => PLAIN_NUMBER.test(f))) {
      throw new CoordinateParseError(
        `${axis} "${original}" is not valid sexagesimal; expected e.g. ${axis === 'RA' ? '00:42:44.33' : '+41:16:09.01'}`,
      );
    }
    const [whole, minutes, seconds] = fields.map(Number);
    // With colons, RA is in hours and Dec in degrees (the usual astronomical convention).
    return combineSexagesimal(whole, minutes, seconds ?? 0, axis === 'RA' ? 'hours' : 'degrees', axis);
  }

  const unitNotation = parseUnitNotation(body);
  if (unitNotation) {
    const { inHours, whole, minutes, seconds } = unitNotation;
    if (inHours && axis === 'Dec') {
      throw new CoordinateParseError(`Dec cannot be given in hours, got "${original}"`);
    }
    return combineSexagesimal(whole, minutes, seconds, inHours ? 'hours' : 'degrees', axis);
  }

  throw new CoordinateParseError(
    `${axis} "${original}" is not a recognised format; use decimal degrees (10.68458), ` +
      `degree notation (10d41m04.49s) or sexagesimal (00:42:44.33)`,
  );
}

function combineSexagesimal(whole: number, minutes: number, seconds: number, unit: 'hours' | 'degrees', axis: Axis): number {
  const wholeName = unit === 'hours' ? 'hours' : 'degrees';
  if (unit === 'hours' && whole >= 24) {
    throw new CoordinateParseError(`RA hours must be below 24, got ${whole}`);
  }
  if (minutes >= 60) throw new CoordinateParseError(`${axis} minutes must be below 60, got ${minutes}`);
  if (seconds >= 60) throw new CoordinateParseError(`${axis} seconds must be below 60, got ${seconds}`);
  if (seconds > 0 && !Number.isInteger(minutes)) {
    throw new CoordinateParseError(`${axis} minutes must be a whole number when seconds are given, got ${minutes}`);
  }
  if ((minutes > 0 || seconds > 0) && !Number.isInteger(whole)) {
    throw new CoordinateParseError(`${axis} ${wholeName} must be a whole number when minutes are given, got ${whole}`);
  }
  const value = whole + minutes / 60 + seconds / 3600;
  return unit === 'hours' ? value * 15 : value;
}

/**
 * RA as HH:MM:SS.ss and Dec as +DD:MM:SS.ss. Rounding is done once on the
 * total number of hundredths of a second, so seconds that round up to 60.00
 * carry into the minutes (and 23:59:59.996 wraps to 00:00:00.00) instead of
 * printing "60.00".
 */
export function formatSexagesimal(ra: number, dec: number): { ra: string; dec: string } {
  const hundredthsPerDay = 24 * 3600 * 100;
  const raHundredths = Math.round((normalizeRa(ra) / 15) * 3600 * 100) % hundredthsPerDay;
  const decHundredths = Math.round(Math.abs(dec) * 3600 * 100);
  // No "-00:00:00.00": a value that rounds to zero is shown as positive.
  const decSign = dec < 0 && decHundredths > 0 ? '-' : '+';
  return { ra: formatHundredths(raHundredths), dec: decSign + formatHundredths(decHundredths) };
}

function formatHundredths(totalHundredths: number): string {
  const hundredths = totalHundredths % 100;
  const totalSeconds = (totalHundredths - hundredths) / 100;
  const seconds = totalSeconds % 60;
  const minutes = Math.floor(totalSeconds / 60) % 60;
  const whole = Math.floor(totalSeconds / 3600);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(whole)}:${two(minutes)}:${two(seconds)}.${two(hundredths)}`;
}

/** Fixed 4 decimals (~0.4 arcsec in degrees); never prints "-0.0000". */
export function formatDecimal(value: number): string {
  const text = value.toFixed(4);
  return /^-0\.0+$/.test(text) ? text.slice(1) : text;
}

const UNIT_TO_DEGREES: ReadonlyArray<[RegExp, number]> = [
  [/^(?:deg|degs|degree|degrees|d|°)$/i, 1],
  [/^(?:arcmin|arcmins|arcminute|arcminutes|amin|'|′)$/i, 1 / 60],
  [/^(?:arcsec|arcsecs|arcsecond|arcseconds|asec|"|″)$/i, 1 / 3600],
];

/** Distance strings such as "0.0002777 degree", "1 arcsec", "2 arcmin", "5\"" -> degrees. */
export function parseAngleWithUnit(text: string): number {
  const match = new RegExp(`^\\s*((?:${NUMBER})(?:e[+-]?\\d+)?)\\s*(\\S+)\\s*$`, 'i').exec(text);
  if (!match) {
    throw new CoordinateParseError(`Expected a non-negative number followed by a unit (degree, arcmin or arcsec), got "${text}"`);
  }
  const [, amount, unit] = match;
  const factor = UNIT_TO_DEGREES.find(([pattern]) => pattern.test(unit))?.[1];
  if (factor === undefined) {
    throw new CoordinateParseError(`Unknown angle unit "${unit}" in "${text}"; use degree, arcmin or arcsec`);
  }
  return Number(amount) * factor;
}

/**
 * Ranges of the values the database stores, shared by every check of client input (search and list
 * filters in packages/db, path parameters and bodies in the server): a value outside them is the
 * client's error (400), where PostgreSQL would fail with a 500.
 */

/** Whole-number column types and their ranges (bigint's is within 2^53: no bigint column holds more). */
export const INTEGER_RANGES = {
  integer: { min: -2147483648, max: 2147483647 },
  bigint: { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
} as const;

/** The years a stored time may have: every date a client means, and each one PostgreSQL and the pg driver both take. */
export const TIME_YEARS = { min: 1, max: 9999 } as const;

/** A time given as text (ISO 8601) or epoch milliseconds, when it is one the database can store; else undefined. */
export function storableTime(value: unknown): Date | undefined {
  const date = typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
  const year = date?.getUTCFullYear() ?? Number.NaN;
  return date && year >= TIME_YEARS.min && year <= TIME_YEARS.max ? date : undefined;
}

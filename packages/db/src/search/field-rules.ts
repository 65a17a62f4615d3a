import { INTEGER_RANGES, storableTime } from '@antares/contract';

import { SearchQueryError } from './search-error.ts';

/**
 * The rules every client-named field and client-given value passes before it reaches SQL: names are
 * looked up only among a table's own entries (never `__proto__`, `constructor`, `toString`, ... inherited
 * from Object.prototype), and values must fit the column they are compared with, so PostgreSQL never
 * fails on a value out of range or of the wrong type (a 400 naming the field instead of a 500).
 */

/** The entry named `key` of an allow-list, or undefined: only the table's own entries count. */
export function allowed<T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The SQL type of a column a client may filter or search on. */
export type ColumnType = 'integer' | 'bigint' | 'float8' | 'text' | 'boolean' | 'timestamptz';

/** A value compared with a column of `type`, as its SQL parameter; refused when it cannot be one. */
export function columnValue(value: unknown, type: ColumnType, field: string): string | number | boolean | Date {
  switch (type) {
    case 'integer':
    case 'bigint': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      const { min, max } = INTEGER_RANGES[type];
      if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
        throw new SearchQueryError(`The value ${describe(value)} for "${field}" must be a whole number from ${min} to ${max}`);
      }
      return number;
    }
    case 'float8': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number)) {
        throw new SearchQueryError(`The value ${describe(value)} for "${field}" must be a finite number`);
      }
      return number;
    }
    case 'text':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      throw new SearchQueryError(`The value ${describe(value)} for "${field}" must be a string`);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw new SearchQueryError(`The value ${describe(value)} for "${field}" must be true or false`);
    case 'timestamptz': {
      const date = storableTime(value);
      if (!date) {
        throw new SearchQueryError(
          `The value ${describe(value)} for "${field}" must be a date and time (ISO 8601, e.g. 2024-05-01T12:00:00Z)`,
        );
      }
      return date;
    }
  }
}

/**
 * A range bound on a whole-number column: a fractional bound becomes the whole number it admits (gte 2.5 is
 * gte 3), as Elasticsearch does; a bound outside the column's range is refused, as Elasticsearch does.
 */
export function integerBound(bound: number, operator: 'gt' | 'gte' | 'lt' | 'lte', type: 'integer' | 'bigint', field: string): number {
  const { min, max } = INTEGER_RANGES[type];
  if (bound < min || bound > max) {
    throw new SearchQueryError(`range bound ${operator} ${bound} on "${field}" is out of range: use a number from ${min} to ${max}`);
  }
  return operator === 'gt' || operator === 'lte' ? Math.floor(bound) : Math.ceil(bound);
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

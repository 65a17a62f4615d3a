import { parsePage } from '@antares/contract';
import { isInteger, isSafeNumber, parse as parseLosslessJson } from 'lossless-json';

import { badRequest } from '../errors.ts';
import { malformedTextInJson } from '../input-guard.ts';

export type QueryParams = Record<string, string | string[] | undefined>;

/** A query parameter given once; a repeated one is ambiguous and refused. */
export function single(query: QueryParams, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw badRequest(`Parameter ${name} was given ${value.length} times; give it once`);
  return value;
}

/** A whole-number parameter within bounds; absent or empty gives the fallback. */
export function integerParam(query: QueryParams, name: string, fallback: number, min: number, max: number): number {
  const text = single(query, name);
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw badRequest(`${name} must be a whole number from ${min} to ${max}`);
  return n;
}

export function pageOf(query: QueryParams, defaultLimit?: number): { limit: number; offset: number } {
  const page = parsePage(single(query, 'page[limit]'), single(query, 'page[offset]'), defaultLimit);
  if (!page.ok) throw badRequest(page.message);
  return page;
}

/** `fields[type]=a,b`: the attributes a client asked for, or undefined for all of them. */
export function sparseFields(value: string | undefined): Set<string> | undefined {
  return value === undefined
    ? undefined
    : new Set(
        value
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean),
      );
}

/**
 * Integers beyond 2^53 (ZTF candids, Rubin ids) arrive as bare JSON numbers from clients; JSON.parse would
 * round them. They are kept as their decimal text, which is how they are stored.
 */
function parseNumber(text: string): number | string {
  return isSafeNumber(text) || !isInteger(text) ? Number(text) : text;
}

export function parseJsonParam(query: QueryParams, name: string): unknown {
  return parseJsonText(name, single(query, name));
}

/** The JSON text of parameter `name` (big integers kept as text); absent or blank is undefined. */
export function parseJsonText(name: string, text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = parseLosslessJson(text, null, parseNumber);
  } catch (error) {
    throw badRequest(`Parameter ${name} is not valid JSON: ${(error as Error).message}`);
  }
  const found = malformedTextInJson(value);
  if (found) throw badRequest(`Parameter ${name} ${found.pointer === '' ? '' : `at ${found.pointer} `}${found.fault}`);
  return value;
}

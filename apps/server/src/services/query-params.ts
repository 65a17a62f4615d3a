import { isInteger, isSafeNumber, parse as parseLosslessJson } from 'lossless-json';

import { badRequest } from '../errors.ts';
import { malformedTextInJson } from '../input-guard.ts';

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

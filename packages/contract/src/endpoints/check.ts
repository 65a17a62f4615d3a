import { Value } from 'typebox/value';

import type { Endpoint } from './define.ts';

/**
 * What is wrong with an answer against its endpoint's response schema (empty when it conforms): the tests
 * hold the server's documents to the contract the web app and the OpenAPI document are typed from.
 */
export function responseProblems(endpoint: Endpoint, body: unknown): string[] {
  const { schema, mediaType } = endpoint.response;
  // A file (PDF, FITS, PNG) is documented by its media type; there is no JSON to check.
  if (!schema || (mediaType !== undefined && !mediaType.includes('json'))) return [];
  return [...Value.Errors(schema, body)].slice(0, 5).map((error) => `${error.instancePath || '/'} ${error.message}`);
}

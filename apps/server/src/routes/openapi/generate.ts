/**
 * OpenAPI operations generated from the contract's endpoints (ADR 0020): parameters from their path and
 * query schemas, the request body, the answer's schema and the error reasons, with the access level's
 * security through op(). The schemas are the very objects Fastify validates with.
 */
import type { BodySpec, Endpoint } from '@antares/contract/endpoints';

import { fail, type Json, jsonApiBody, type Method, op, type Paths, plainBody } from './shared.ts';

/** Our error-wording keywords (define.ts) say how the server answers, not what the value is: not shown. */
const OWN_KEYWORDS = new Set(['x-error', 'x-not-found']);

/** A plain copy of a TypeBox schema without our own keywords. */
function documented(schema: unknown): Json {
  return JSON.parse(JSON.stringify(schema, (key, value: unknown) => (OWN_KEYWORDS.has(key) ? undefined : value))) as Json;
}

function parameters(schema: unknown, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const object = documented(schema) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    const required = where === 'path' || (object.required ?? []).includes(name);
    return { name, in: where, ...(required ? { required: true } : {}), ...(description ? { description } : {}), schema: rest };
  });
}

function requestBody(body: BodySpec): Json {
  const attributes = documented(body.schema);
  if (body.kind === 'plain') return plainBody(attributes, body.description);
  if (body.kind === 'file') {
    const content = Object.fromEntries((body.mediaTypes ?? []).map((type) => [type, { schema: attributes }]));
    return { required: true, ...(body.description ? { description: body.description } : {}), content };
  }
  const relationships = body.relationships ? documented(body.relationships) : undefined;
  const { properties = {}, required = [] } = attributes as { properties?: Json; required?: string[] };
  return jsonApiBody(body.type ?? '', properties, { required, relationships, description: body.description });
}

/** Any operation may answer this while its database is out of reach or its statement ran too long (ADR 0059). */
const DATABASE_UNAVAILABLE =
  'The database cannot be reached right now, or the query took too long (narrow it); try again after Retry-After';

/** The error answers, with the headers some of them carry (`Retry-After`). */
function errorsOf(endpoint: Endpoint): Json {
  const errors = fail({ 503: DATABASE_UNAVAILABLE, ...endpoint.errors });
  const retryAfter = { 'Retry-After': 'Seconds to wait before trying again' };
  for (const [status, headers] of Object.entries({ 503: retryAfter, ...endpoint.errorHeaders })) {
    errors[status] = {
      ...(errors[status] as Json),
      headers: Object.fromEntries(
        Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
      ),
    };
  }
  return errors;
}

export function operationOf(endpoint: Endpoint): Json {
  const method = endpoint.method.toLowerCase() as Method;
  const { response } = endpoint;
  const content = response.schema
    ? { content: { [response.mediaType ?? 'application/json']: { schema: documented(response.schema) } } }
    : {};
  const headers = response.headers
    ? {
        headers: Object.fromEntries(
          Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
        ),
      }
    : {};
  return op(method, endpoint.access, {
    tags: endpoint.tags,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    operationId: endpoint.operationId,
    parameters: [...parameters(endpoint.params, 'path'), ...parameters(endpoint.query, 'query')],
    ...(endpoint.body ? { requestBody: requestBody(endpoint.body) } : {}),
    ...(endpoint.security ? { security: endpoint.security } : {}),
    responses: { [response.status]: { description: response.description, ...content, ...headers }, ...errorsOf(endpoint) },
  });
}

/** The paths of these endpoints (`/v1/tags/:name` as `/v1/tags/{name}`). */
export function contractPaths(endpoints: Endpoint[]): Paths {
  const paths: Paths = {};
  for (const endpoint of endpoints) {
    const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operationOf(endpoint) };
  }
  return paths;
}

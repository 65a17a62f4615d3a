import fc from 'fast-check';

import type { Caller } from './fuzz-server.ts';
import {
  deepSearch,
  headerText,
  hostileJson,
  hostileNumber,
  hostileText,
  listFilter,
  numberText,
  percentEncode,
  PROTOTYPE_NAMES,
  rawUrlFragment,
  searchDocument,
  sortText,
} from './hostile-inputs.ts';

/**
 * Random requests for every route of the server's route table: the route's path parameters, query
 * parameters and request body are read from its operation in the OpenAPI document (when it has one) and
 * filled with real ids or hostile values, so a new route is fuzzed as soon as it is registered.
 */

export interface FuzzRequest {
  route: string;
  caller: Caller;
  method: string;
  /** Path and query, in URL form; `@self` in it stands for the signed-in caller's own user id. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** false: a signed-in caller leaves out the CSRF header. */
  csrf: boolean;
}

type Json = Record<string, unknown>;
type OpenApiDocument = { paths: Record<string, Record<string, Json>>; components?: { schemas?: Record<string, Json> } };

/** `@self`: replaced by the caller's user id when sent. */
export const SELF = '@self';

const GENERIC_QUERY = [
  'sort',
  'filter',
  'include',
  'page[limit]',
  'page[offset]',
  'fields[locus]',
  'elasticsearch_query[locus_listing]',
  'type',
  'after',
  'wait',
  ...PROTOTYPE_NAMES,
];
const HEADER_NAMES = [
  'accept',
  'authorization',
  'x-csrf-token',
  'cookie',
  'last-event-id',
  'x-forwarded-proto',
  'x-forwarded-for',
  'host',
  'accept-encoding',
  'if-none-match',
  'range',
];
const JSON_TYPES = ['application/json', 'application/vnd.api+json', 'application/json; charset=utf-8'];
const OTHER_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/avro',
  'application/octet-stream',
  'application/gzip',
  'application/fits',
  'application/json; charset=latin1',
  'x/y',
];
// Strings a route accepts (names, e-mails, passwords, filter code), so some bodies get past validation.
const BENIGN_TEXTS = ['Fuzz', 'fuzz-name', 'fuzz@example.org', 'Galaxy2026', 'x = 1', 'a comment', 'info', 'fuzz_tag', '#fuzz'];
const BROKEN_BODIES = [
  '{',
  '{"a":',
  '[1,',
  'null',
  '""',
  '"\\u0000"',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"a":1e999}',
  '['.repeat(5000),
  `{"data":${'['.repeat(2000)}`,
  '\u0000',
  '\ufeff{}',
  '{"data":{"attributes":{"name":"\\ud800"}}}',
];

/** One arbitrary per route of `routes` ("METHOD /url"), and one for paths no route has. */
export function routeRequests(routes: string[], document: OpenApiDocument, ids: Map<string, string[]>): fc.Arbitrary<FuzzRequest> {
  const perRoute = routes.map((route) => requestFor(route, document, ids));
  const unknownPath = fc
    .record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'),
      segments: fc.array(fc.oneof(hostileText.map(percentEncode), rawUrlFragment), { minLength: 1, maxLength: 3 }),
      caller: callerArb,
    })
    .map(({ method, segments, caller }): FuzzRequest =>
      readable({ route: 'unknown', caller, method, path: `/v1/${segments.join('/')}`, headers: {}, csrf: true }),
    );
  return fc.oneof(...perRoute, unknownPath);
}

const callerArb = fc.constantFrom<Caller>('anonymous', 'user', 'admin');

function requestFor(route: string, document: OpenApiDocument, ids: Map<string, string[]>): fc.Arbitrary<FuzzRequest> {
  const [method, url] = route.split(' ');
  const operation = document.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()] as Json | undefined;
  const parameters = (operation?.parameters ?? []) as Array<{ name: string; in: string; description?: string }>;
  const queryNames = [...new Set([...parameters.filter((p) => p.in === 'query').map((p) => p.name), ...GENERIC_QUERY])];
  const sortFields =
    parameters
      .find((p) => p.name === 'sort')
      ?.description?.match(/One of ([^.]+)\./)?.[1]
      .split(/,\s*/) ?? [];
  const bodySchema = bodySchemaOf(operation);
  const segments = url
    .split('/')
    .slice(1)
    .map((segment) => {
      if (segment === '*')
        return fc.oneof(
          pathValue(ids, '*'),
          fc.constantFrom('index.html', 'swagger-initializer.js', '../../../package.json', '%2e%2e/%2e%2e/etc/passwd'),
        );
      if (segment.startsWith(':')) return pathValue(ids, segment.slice(1));
      return fc.constant(segment);
    });
  const query = fc.array(
    fc.constantFrom(...queryNames).chain((name) => queryValue(name, sortFields, ids).map((value) => [name, value] as const)),
    { maxLength: 3 },
  );
  // Mostly a body where the route reads one; now and then one where it does not.
  const payload = bodyArb(bodySchema, document, ids);
  const body =
    method === 'GET' || method === 'DELETE'
      ? fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: payload })
      : fc.option(payload, { freq: 10, nil: undefined });
  const hostile = fc.record({
    caller: callerArb,
    csrf: fc.nat(9).map((n) => n > 0),
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constant(method) },
      { weight: 1, arbitrary: fc.constantFrom(method === 'GET' ? 'HEAD' : 'GET', 'PUT', 'OPTIONS') },
    ),
    segments: fc.tuple(...segments),
    query,
    rawQuery: fc.option(
      fc.tuple(rawUrlFragment, rawUrlFragment).map(([a, b]) => `${a}=${b}`),
      { freq: 10 },
    ),
    headers: fc.oneof(
      { weight: 3, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...HEADER_NAMES), headerText, { minKeys: 1, maxKeys: 2 }) },
    ),
    body,
  });
  // Near-valid requests (real ids, no stray parameters, a body of the documented shape with the odd hostile
  // leaf) get past the first checks into the code behind them.
  const realSegments = url
    .split('/')
    .slice(1)
    .map((segment) => {
      const real = segment.startsWith(':') ? [...(ids.get(segment.slice(1)) ?? []), ...(segment === ':userId' ? [SELF] : [])] : [];
      if (real.length > 0) return fc.constantFrom(...real).map((id) => (id === SELF ? id : percentEncode(id)));
      return segments[url.split('/').slice(1).indexOf(segment)];
    });
  const documentedBody =
    bodySchema && method !== 'GET' && method !== 'DELETE'
      ? fromSchema(bodySchema, document, ids, 0).map((value): Payload => ({
          body: JSON.stringify(value) ?? 'null',
          contentType: 'application/json',
        }))
      : fc.constant(undefined);
  const nearValid = fc.record({
    caller: callerArb,
    csrf: fc.constant(true),
    method: fc.constant(method),
    segments: fc.tuple(...realSegments),
    query: fc.constant([] as Array<readonly [string, string]>),
    rawQuery: fc.constant(null),
    headers: fc.constant({}),
    body: documentedBody,
  });
  return fc
    .oneof({ weight: 2, arbitrary: hostile }, { weight: 1, arbitrary: nearValid })
    .map(({ caller, csrf, method: sentMethod, segments: parts, query: pairs, rawQuery, headers, body: payload }): FuzzRequest => {
      const queryText = [...pairs.map(([name, value]) => `${percentEncode(name)}=${value}`), ...(rawQuery ? [rawQuery] : [])].join('&');
      const request: FuzzRequest = {
        route,
        caller,
        method: sentMethod,
        path: `/${parts.join('/')}${queryText ? `?${queryText}` : ''}`,
        headers: { ...headers },
        csrf,
      };
      if (payload && sentMethod !== 'HEAD') {
        request.body = payload.body;
        if (payload.contentType !== undefined) request.headers['content-type'] = payload.contentType;
      }
      return readable(request);
    });
}

/** A failing request as fast-check reports it: long values cut short, so the report stays readable. */
function readable(request: FuzzRequest): FuzzRequest {
  const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, n)}...(${text.length} characters)` : text);
  const summary = () => {
    const headers = Object.entries(request.headers)
      .map(([name, value]) => `${name}: ${JSON.stringify(cut(value, 80))}`)
      .join(', ');
    const body =
      request.body === undefined
        ? ''
        : typeof request.body === 'string'
          ? JSON.stringify(cut(request.body, 400))
          : `${request.body.length} bytes`;
    return `${request.caller} ${request.method} ${cut(request.path, 500)} {${headers}}${body ? ` body ${body}` : ''}${request.csrf ? '' : ' (no CSRF header)'}`;
  };
  Object.defineProperty(request, fc.toStringMethod, { value: summary, enumerable: false });
  return request;
}

/** A path segment: a real id, the caller's own id, or hostile text (percent-encoded or broken). */
function pathValue(ids: Map<string, string[]>, name: string): fc.Arbitrary<string> {
  const real = [...(ids.get(name) ?? []), ...(name === 'userId' ? [SELF] : [])];
  const options: Array<fc.WeightedArbitrary<string>> = [
    { weight: 3, arbitrary: hostileText.map(percentEncode) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('', ...real.map(percentEncode)), rawUrlFragment).map(([a, b]) => a + b) },
    { weight: 1, arbitrary: fc.constantFrom(...(ids.get('*') ?? ['x'])).map(percentEncode) },
  ];
  if (real.length > 0) options.push({ weight: 4, arbitrary: fc.constantFrom(...real).map((id) => (id === SELF ? id : percentEncode(id))) });
  return fc.oneof(...options);
}

/** A query parameter's value in URL form, shaped by what the parameter means. */
function queryValue(name: string, sortFields: string[], ids: Map<string, string[]>): fc.Arbitrary<string> {
  const text = (arb: fc.Arbitrary<string>) =>
    fc.oneof({ weight: 4, arbitrary: arb.map(percentEncode) }, { weight: 1, arbitrary: rawUrlFragment });
  if (name === 'sort') return text(fc.oneof(sortText(sortFields), hostileText));
  if (name === 'filter')
    return text(
      fc.oneof(
        listFilter.map((f) => JSON.stringify(f)),
        hostileText,
      ),
    );
  if (name.startsWith('elasticsearch_query'))
    return text(fc.oneof({ weight: 4, arbitrary: searchDocument.map((d) => JSON.stringify(d)) }, { weight: 1, arbitrary: hostileText }));
  // Long-polling: only values that never make a request wait.
  if (name === 'wait') return text(fc.constantFrom('0', '-1', 'x', '1e308', '0.5', '', '\u0000', '__proto__'));
  if (name.startsWith('page[') || name === 'after') return text(fc.oneof(numberText(), hostileText));
  return text(fc.oneof(hostileText, numberText(), fc.constantFrom('token', 'cookie', 'owner', 'locus', ...(ids.get('*') ?? []))));
}

interface Payload {
  body: string | Uint8Array;
  contentType?: string;
}

function bodyArb(schema: Json | undefined, document: OpenApiDocument, ids: Map<string, string[]>): fc.Arbitrary<Payload> {
  const keys = schema ? propertyNames(schema, document) : [];
  const json = fc.oneof(
    { weight: schema ? 4 : 0, arbitrary: schema ? fromSchema(schema, document, ids, 0) : fc.constant(null) },
    { weight: 2, arbitrary: hostileJson(keys) },
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ body: json.map((v) => JSON.stringify(v) ?? 'null'), contentType: fc.constantFrom(...JSON_TYPES) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ body: fc.constantFrom(...BROKEN_BODIES), contentType: fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES) }),
    },
    {
      weight: 1,
      arbitrary: fc.record(
        {
          body: fc.uint8Array({ maxLength: 64 }),
          contentType: fc.option(fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES), { nil: undefined }),
        },
        { requiredKeys: ['body'] },
      ),
    },
  );
}

/** A value shaped by a JSON schema (OpenAPI 3.1), its leaves hostile now and then, and sometimes of the wrong type. */
function fromSchema(schema: Json, document: OpenApiDocument, ids: Map<string, string[]>, depth: number): fc.Arbitrary<unknown> {
  const resolved = resolve(schema, document);
  const wrong = hostileJson([], 1);
  const typed = ((): fc.Arbitrary<unknown> => {
    const alternatives = (resolved.anyOf ?? resolved.oneOf) as Json[] | undefined;
    if (alternatives) return fc.oneof(...alternatives.map((s) => fromSchema(s, document, ids, depth + 1)));
    if ('const' in resolved) return fc.constant(resolved.const);
    if (Array.isArray(resolved.enum)) return fc.constantFrom(...resolved.enum);
    if (depth > 5) return wrong;
    const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
    switch (type) {
      case 'object': {
        const properties = (resolved.properties ?? {}) as Record<string, Json>;
        // A search document in a body (backtests) is sometimes nested deeper than any URL could carry (past the
        // limit, so that no backtest is queued by it).
        const member = (k: string, s: Json) =>
          k === 'elasticsearch_query'
            ? fc.oneof({ weight: 4, arbitrary: fromSchema(s, document, ids, depth + 1) }, { weight: 1, arbitrary: deepSearch })
            : fromSchema(s, document, ids, depth + 1);
        const record = Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, member(k, s)]));
        return fc.record(record, { requiredKeys: (resolved.required as string[] | undefined)?.filter((k) => k in properties) ?? [] });
      }
      case 'array':
        return fc.array(fromSchema((resolved.items ?? {}) as Json, document, ids, depth + 1), { maxLength: 3 });
      case 'string':
        return fc.oneof(
          { weight: 1, arbitrary: hostileText },
          { weight: 3, arbitrary: fc.constantFrom(...BENIGN_TEXTS, ...(ids.get('*') ?? [])) },
        );
      case 'integer':
      case 'number': {
        const min = typeof resolved.minimum === 'number' ? resolved.minimum : -1e6;
        const max = typeof resolved.maximum === 'number' ? resolved.maximum : 1e6;
        const inRange =
          type === 'integer' ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true });
        return fc.oneof({ weight: 3, arbitrary: inRange }, { weight: 1, arbitrary: hostileNumber });
      }
      case 'boolean':
        return fc.boolean();
      default:
        return hostileJson([], 2);
    }
  })();
  return fc.oneof({ weight: 12, arbitrary: typed }, { weight: 1, arbitrary: wrong });
}

function bodySchemaOf(operation: Json | undefined): Json | undefined {
  const content = (operation?.requestBody as { content?: Record<string, { schema?: Json }> } | undefined)?.content;
  return content?.['application/json']?.schema ?? content?.['application/vnd.api+json']?.schema;
}

function resolve(schema: Json, document: OpenApiDocument): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  return document.components?.schemas?.[ref.split('/').pop()!] ?? {};
}

/** Every property name a schema mentions (its keys are the likeliest to reach code). */
function propertyNames(schema: Json, document: OpenApiDocument, depth = 0): string[] {
  const resolved = resolve(schema, document);
  if (depth > 6) return [];
  const own = Object.keys((resolved.properties ?? {}) as Json);
  const nested = [
    ...Object.values((resolved.properties ?? {}) as Record<string, Json>),
    ...((resolved.anyOf ?? resolved.oneOf ?? []) as Json[]),
    ...(resolved.items ? [resolved.items as Json] : []),
  ].flatMap((s) => propertyNames(s, document, depth + 1));
  return [...new Set([...own, ...nested])];
}

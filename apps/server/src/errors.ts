import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

import { isConnectionLost, isStatementTimeout, SearchQueryError } from '@antares/db';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** An error the API answers with its own status; everything the client got wrong is one of these. */
export class ApiError extends Error {
  /** `pointer`: the JSON pointer of the body member at fault (JSON:API `source.pointer`). */
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly pointer?: string,
  ) {
    super(detail);
  }
}

/** 429 with the seconds to wait, which the error handler sends as Retry-After. */
export class TooManyRequests extends ApiError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'Too Many Requests', detail);
  }
}

/** 503 with the seconds after which to try again (Retry-After). */
export class ServiceUnavailable extends ApiError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, 'Service Unavailable', detail);
  }
}

/**
 * A database failure that is no fault of the request, as a 503 (ADR 0059): a lost or refused connection
 * (the next request opens a new one once the database is back), or a statement that ran past the
 * request statement timeout (ANTARES_STATEMENT_TIMEOUT_MS), which may finish when the server is less busy
 * and otherwise needs a narrower query. Undefined for every other error.
 */
export function databaseUnavailable(error: unknown): ServiceUnavailable | undefined {
  if (isStatementTimeout(error))
    return new ServiceUnavailable(
      'The query took too long and was stopped: narrow it (a smaller region or time range, fewer criteria, a smaller page) or try again later',
      DATABASE_RETRY_AFTER_SECONDS,
    );
  if (isConnectionLost(error))
    return new ServiceUnavailable('The database cannot be reached right now; try again in a few seconds', DATABASE_RETRY_AFTER_SECONDS);
  return undefined;
}

const DATABASE_RETRY_AFTER_SECONDS = 5;

// The errors code raises, one factory per kind (a status number in a service says less than a name).
export const badRequest = (detail: string, pointer?: string) => new ApiError(400, 'Bad Request', detail, pointer);
export const unauthorized = (detail: string) => new ApiError(401, 'Unauthorized', detail);
export const forbidden = (detail: string) => new ApiError(403, 'Forbidden', detail);
export const notFound = (detail: string) => new ApiError(404, 'Not Found', detail);
export const conflict = (detail: string) => new ApiError(409, 'Conflict', detail);
export const payloadTooLarge = (detail: string) => new ApiError(413, 'Payload Too Large', detail);
/** `title`: what could not be processed, e.g. "Invalid filter code". */
export const unprocessable = (title: string, detail: string) => new ApiError(422, title, detail);
/** With `retryAfterSeconds`, the answer's Retry-After says when to try again. */
export const tooManyRequests = (detail: string, retryAfterSeconds?: number) =>
  retryAfterSeconds === undefined ? new ApiError(429, 'Too Many Requests', detail) : new TooManyRequests(detail, retryAfterSeconds);
/** Something this server lacks or has switched off (not a passing failure: that is ServiceUnavailable). */
export const unavailable = (detail: string) => new ApiError(503, 'Service Unavailable', detail);

export interface JsonApiError {
  status: string;
  /** Stable for a kind of error, so that clients can branch on it (titles and details are for people). */
  code: string;
  title: string;
  detail: string;
  source?: { pointer: string };
}

const ERROR_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  411: 'length_required',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
  422: 'unprocessable',
  429: 'too_many_requests',
  431: 'headers_too_large',
  500: 'internal',
  503: 'unavailable',
};

/** The error's `code`: one per status, so every error the server answers has one. */
export const errorCode = (status: number): string => ERROR_CODES[status] ?? (status >= 500 ? 'internal' : 'bad_request');

export function errorDocument(status: number, title: string, detail: string, pointer?: string): { errors: JsonApiError[] } {
  return { errors: [{ status: String(status), code: errorCode(status), title, detail, ...(pointer ? { source: { pointer } } : {}) }] };
}

/**
 * One place turns every failure into a JSON:API error document with the right status. With `spaIndex`
 * (the web app is served), a GET for a page that is not an API path answers the app's index.html, so
 * the app's own routes work on reload (history mode).
 */
export function registerErrorHandling(app: FastifyInstance, options: { spaIndex?: boolean } = {}): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (!(error instanceof ApiError)) {
      const unavailable = databaseUnavailable(error);
      if (unavailable) request.log.warn({ err: error }, 'database unavailable');
      error = unavailable ?? error;
    }
    if (error instanceof ApiError) {
      if (error instanceof TooManyRequests || error instanceof ServiceUnavailable)
        reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.status).send(errorDocument(error.status, error.title, error.detail, error.pointer));
    }
    const validation = validationError(error, request);
    if (validation) return reply.status(validation.status).send(errorDocument(validation.status, validation.title, validation.detail));
    if (error instanceof SearchQueryError) {
      return reply.status(400).send(errorDocument(400, 'Invalid search query', error.message));
    }
    const status = (error as FastifyError).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON body, unsupported media type, body too large, ...
      return reply.status(status).send(errorDocument(status, httpTitle(status), error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorDocument(500, 'Internal Server Error', 'The server failed to handle this request.'));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isApi = path === '/v1' || path.startsWith('/v1/');
    if (options.spaIndex && request.method === 'GET' && !isApi && request.headers.accept?.includes('application/json') !== true) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send(errorDocument(404, 'Not Found', `No resource at ${request.method} ${path}`));
  });
}

type SchemaNode = Record<string, unknown>;
interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * A request that fails its endpoint's schema (routes/endpoint.ts) as a JSON:API error naming the parameter:
 * the failing schema's own wording when it has one (`x-error`; `x-not-found` makes it a 404, for ids that
 * name nothing), a parameter given twice as such, else the name and what the schema wants.
 */
function validationError(error: Error, request: FastifyRequest): { status: number; title: string; detail: string } | undefined {
  const failures = (error as FastifyError).validation as AjvError[] | undefined;
  const context = (error as FastifyError).validationContext;
  if (!failures?.length || !context) return undefined;
  const failure = failures[0];
  const schema = (request.routeOptions.schema as Record<string, SchemaNode> | undefined)?.[context];
  const path = failure.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const name = failure.keyword === 'required' ? String(failure.params.missingProperty) : path.join('.');
  const value = path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], requestPart(request, context));
  // The schema node that failed: the keyword's parent (for `required`, the object's property itself).
  const steps = failure.schemaPath.replace(/^#\//, '').split('/').map(unescapeSchemaPath).slice(0, -1);
  if (failure.keyword === 'required') steps.push('properties', name);
  const node = steps.reduce<SchemaNode | undefined>((at, key) => at?.[key] as SchemaNode | undefined, schema);
  const property =
    (context === 'querystring' || context === 'params') && path.length === 1
      ? (schema?.properties as Record<string, SchemaNode>)?.[path[0]]
      : node;
  const wording = (key: string) => (property?.[key] ?? node?.[key]) as string | undefined;
  if (Array.isArray(value) && context === 'querystring' && path.length === 1) {
    return { status: 400, title: 'Bad Request', detail: `Parameter ${name} was given ${value.length} times; give it once` };
  }
  // The value as sent (validation may have coerced it: "1e21" read as a number prints otherwise).
  const sent = context === 'querystring' && path.length === 1 ? new URL(request.url, 'http://x').searchParams.get(path[0]) : null;
  // Read the value only for a wording that shows it: a query object (null prototype, a `valueOf` key) cannot become a string.
  const shown = () => {
    if (sent !== null) return sent;
    try {
      return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
    } catch {
      return '?';
    }
  };
  const fill = (template: string) => (template.includes('{value}') ? template.replaceAll('{value}', shown()) : template);
  const notFound = wording('x-not-found');
  if (notFound && context === 'params') return { status: 404, title: 'Not Found', detail: fill(notFound) };
  const own = wording('x-error');
  const where = context === 'querystring' ? 'Parameter' : context === 'params' ? 'Path parameter' : 'Field';
  return { status: 400, title: 'Bad Request', detail: own ? fill(own) : `${where} ${name} ${failure.message ?? 'is not valid'}` };
}

function requestPart(request: FastifyRequest, context: string): unknown {
  if (context === 'querystring') return request.query;
  if (context === 'params') return request.params;
  if (context === 'body') return request.body;
  return request.headers;
}

/** Ajv writes schema paths as URI fragments: percent-encoded JSON pointers. */
const unescapeSchemaPath = (part: string) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * Fastify's router refuses some URLs before any route or hook runs: a path that is not valid percent-encoded
 * UTF-8 (`/v1/loci/%ff`), a path parameter over maxParamLength. Given as Fastify's `frameworkErrors`, this
 * answers them as JSON:API errors like every other refusal.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const detail =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The URL is not valid: its path has a malformed percent-encoding (each %XX must spell valid UTF-8)'
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'The URL is too long: a path segment is longer than 1000 characters'
        : error.message;
  void reply.status(status).send(errorDocument(status, httpTitle(status), detail));
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers over maxHeaderSize, a
 * malformed request line or header, a request that took too long to arrive). Given as Fastify's
 * `clientErrorHandler`, this still answers them with a JSON:API error, then closes the connection.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large (at most 16 KB in all, URL included)']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, `The request is not valid HTTP (${error.code ?? 'malformed'})`];
  if (socket.writable) {
    const body = JSON.stringify(errorDocument(status, httpTitle(status), detail));
    // An answer to HEAD has no body (the parser's raw packet starts with the request line when it has one).
    const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
    );
  }
  socket.destroy(error);
}

function httpTitle(status: number): string {
  return STATUS_CODES[status] ?? 'Client Error';
}

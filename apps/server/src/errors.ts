import type { FastifyError, FastifyInstance } from 'fastify';
import { SearchQueryError } from '@antares/db';

/** An error the API answers with its own status; everything the client got wrong is one of these. */
export class ApiError extends Error {
  /** `pointer`: the JSON pointer of the body member at fault (JSON:API `source.pointer`). */
  constructor(readonly status: number, readonly title: string, readonly detail: string, readonly pointer?: string) {
    super(detail);
  }
}

export const badRequest = (detail: string, pointer?: string) => new ApiError(400, 'Bad Request', detail, pointer);
export const notFound = (detail: string) => new ApiError(404, 'Not Found', detail);

export interface JsonApiError {
  status: string;
  title: string;
  detail: string;
  source?: { pointer: string };
}

export function errorDocument(status: number, title: string, detail: string, pointer?: string): { errors: JsonApiError[] } {
  return { errors: [{ status: String(status), title, detail, ...(pointer ? { source: { pointer } } : {}) }] };
}

/**
 * One place turns every failure into a JSON:API error document with the right status. With `spaIndex`
 * (the web app is served), a GET for a page that is not an API path answers the app's index.html, so
 * the app's own routes work on reload (history mode).
 */
export function registerErrorHandling(app: FastifyInstance, options: { spaIndex?: boolean } = {}): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).send(errorDocument(error.status, error.title, error.detail, error.pointer));
    }
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

function httpTitle(status: number): string {
  const titles: Record<number, string> = {
    400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
    406: 'Not Acceptable', 409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 429: 'Too Many Requests',
  };
  return titles[status] ?? 'Client Error';
}

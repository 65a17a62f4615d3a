/**
 * One description per endpoint (ADR 0020): its method and path, who may call it, its path, query and body
 * schemas, its answer and its errors. The server registers the route and validates requests from it, the
 * OpenAPI document is generated from it, the permission matrix reads its access, and the web app types
 * its calls with it. Schemas are TypeBox, i.e. plain JSON Schema objects with static TypeScript types.
 */
import type { Static, TObject, TSchema } from 'typebox';

/**
 * Who may call an endpoint:
 * - public: anyone, no token read;
 * - optional: anyone, but a login (if sent) shows more (private filters of the caller); a bad token is a 401;
 * - login: any logged-in account (the service may narrow it to the owner, said in the description);
 * - admin: administrators only.
 */
export type Access = 'public' | 'optional' | 'login' | 'admin';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A request body: a JSON:API document or its attributes as plain JSON (`resource`), plain JSON (`plain`), or
 * a file read as a stream (`file`, one of `mediaTypes`).
 */
export interface BodySpec<S extends TSchema = TSchema> {
  kind: 'resource' | 'plain' | 'file';
  /** What the server accepts (for `resource`: the attributes, wrapped as a document or not). */
  schema: S;
  /** `resource` only: the JSON:API type, and the relationships a document may carry. */
  type?: string;
  relationships?: Record<string, TSchema>;
  /** `file` only: the content types accepted. */
  mediaTypes?: string[];
  description?: string;
}

export interface ResponseSpec<S extends TSchema = TSchema> {
  status: number;
  description: string;
  /** The body's schema; none for a 204 or a body the document describes only in words. */
  schema?: S;
  /** `json` (the default): JSON:API or plain JSON under application/json. */
  mediaType?: string;
  /** Response headers worth documenting, with what they hold (`Location`). */
  headers?: Record<string, string>;
}

export interface Endpoint<
  P extends TObject = TObject,
  Q extends TObject = TObject,
  B extends TSchema = TSchema,
  R extends TSchema = TSchema,
  A extends Access = Access,
> {
  method: HttpMethod;
  /** As Fastify writes it: `/v1/tags/:name`. */
  path: string;
  operationId: string;
  access: A;
  /**
   * The call carries its own credentials (a password, a refresh or reset token) and the service checks them:
   * no session is read before the handler. `access` then only documents who succeeds (the session calls).
   */
  credentials?: boolean;
  /** OpenAPI security requirements instead of those of `access` (the session calls take other tokens). */
  security?: Array<Record<string, string[]>>;
  /** The operation named in "Must be authenticated to call {operation}" (the operationId unless set). */
  operation?: string;
  tags: string[];
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  body?: BodySpec<B>;
  /** The largest body in bytes, when more than the server's default (1 MiB). */
  bodyLimit?: number;
  response: ResponseSpec<R>;
  /** Error statuses with the reasons this endpoint gives them (the access check's own 401/403 are added). */
  errors?: Record<number, string>;
  /** Headers of an error answer worth documenting (`Retry-After` of a 429). */
  errorHeaders?: Record<number, Record<string, string>>;
}

/** Keeps the literal types of an endpoint (its access, schemas) for the server and the web app. */
export function endpoint<P extends TObject, Q extends TObject, B extends TSchema, R extends TSchema, A extends Access>(
  spec: Endpoint<P, Q, B, R, A>,
): Endpoint<P, Q, B, R, A> {
  return spec;
}

/** The path parameters of an endpoint, as the server reads them after validation. */
export type ParamsOf<E> = E extends { params?: infer P extends TSchema } ? Static<P> : Record<string, never>;
/** The query of an endpoint, after validation (numbers coerced, defaults filled in). */
export type QueryOf<E> = E extends { query?: infer Q extends TSchema } ? Static<Q> : Record<string, never>;
/** What a client sends as the body (for a resource: the attributes). */
export type BodyOf<E> = E extends { body?: BodySpec<infer B> } ? Static<B> : undefined;
/** The answer's body. */
export type ResponseOf<E> = E extends { response: ResponseSpec<infer R> } ? Static<R> : unknown;

/**
 * Schema keywords of ours, read by the server's validation error handler (JSON Schema ignores them):
 * `x-error` is the whole message for a value that fails (`{value}` is replaced by the value sent), and
 * `x-not-found` makes a path parameter that fails a 404 with that message (a malformed id names nothing).
 */
export const ERROR_KEYWORDS = ['x-error', 'x-not-found'] as const;

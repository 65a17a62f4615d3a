import { getConfig } from './config';

/** One JSON:API error object as the server sends it. */
export interface ApiErrorObject {
  status?: string;
  title?: string;
  detail?: string;
  [key: string]: unknown;
}

export interface JsonApiResource<A = Record<string, unknown>> {
  id: string;
  type: string;
  attributes: A;
  relationships?: Record<string, { data?: unknown; links?: { related?: string } }>;
  links?: Record<string, string>;
  meta?: Record<string, unknown>;
}

export interface JsonApiDocument<D> {
  data: D;
  links?: { self?: string; next?: string };
  meta?: { count?: number; [key: string]: unknown };
  included?: JsonApiResource[];
}

/** An HTTP failure; `errors` holds the JSON:API error objects (or one built from a text body). */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: ApiErrorObject[];

  constructor(status: number, errors: ApiErrorObject[]) {
    const first = errors[0] ?? {};
    super(first.detail || first.title || `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
  }
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** The first error object of any failure, for the screens that print it as JSON. */
export function firstError(error: unknown): ApiErrorObject {
  if (error instanceof ApiError) return error.errors[0] ?? { status: String(error.status) };
  if (error instanceof Error) return { title: error.name, detail: error.message };
  return { detail: String(error) };
}

export type QueryParams = Record<string, string | number | boolean | undefined | null | object>;

/** Builds an absolute API URL; object values (filters, ES queries) are serialised as JSON. */
export function apiUrl(path: string, params: QueryParams = {}): string {
  const base = getConfig().apiURL;
  const url = new URL(path.startsWith('http') ? path : `${base}${path.startsWith('/') ? '' : '/'}${path}`);
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    url.searchParams.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return url.toString();
}

/** A readable cookie (the CSRF values the server sets next to the HttpOnly session cookies). */
export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

export const CSRF_ACCESS_COOKIE = 'csrf_access_token';
export const CSRF_REFRESH_COOKIE = 'csrf_refresh_token';

async function errorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { errors?: ApiErrorObject[] };
    if (Array.isArray(body.errors) && body.errors.length > 0) return new ApiError(response.status, body.errors);
  } catch {
    // not JSON: fall through to the text form the spec describes ('statusText: body')
  }
  const detail = text ? `${response.statusText}: ${text}` : response.statusText || `HTTP ${response.status}`;
  return new ApiError(response.status, [{ status: String(response.status), title: response.statusText, detail }]);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  params?: QueryParams;
  body?: unknown;
  accept?: string;
  signal?: AbortSignal;
  /** A bearer token (password reset links): sent instead of the session cookies. */
  bearer?: string;
  /** Which anti-forgery value goes into X-CSRF-TOKEN on unsafe methods (default: the access one). */
  csrf?: 'access' | 'refresh';
  /** Do not refresh the session and retry when the access token has expired (the auth calls themselves). */
  noRefresh?: boolean;
}

const SESSION_CALLS = new Set(['/auth/login', '/auth/login-fresh', '/auth/refresh', '/auth/logout', '/auth/forgot']);

/** An expired access token: a 401 whose detail mentions 'expire' (the session can be refreshed). */
export function isExpiredSession(error: unknown): boolean {
  return (
    error instanceof ApiError && error.status === 401 && error.errors.some((e) => /expire/i.test(`${e.detail ?? ''} ${e.title ?? ''}`))
  );
}

/**
 * Whether a failed call may be cured by refreshing the session: the server said the access token
 * expired, or (the same thing seen from the browser) a 401 came back while the access cookie is gone
 * but the refresh cookie is still there — a browser drops a cookie whose max-age has passed, so the
 * expired token is never sent and the server cannot say 'expired'.
 */
export function canRefresh(error: unknown): boolean {
  if (isExpiredSession(error)) return true;
  return error instanceof ApiError && error.status === 401 && !readCookie(CSRF_ACCESS_COOKIE) && Boolean(readCookie(CSRF_REFRESH_COOKIE));
}

let sessionEndedHandler: () => void = () => undefined;

/** Called when a refresh is refused (401): the session module logs the user out locally. */
export function onSessionEnded(handler: () => void): void {
  sessionEndedHandler = handler;
}

let refreshing: Promise<boolean> | null = null;

/**
 * POST /auth/refresh?type=cookie with the refresh anti-forgery header: a new access cookie. Concurrent
 * callers share one refresh. A 401 ends the session; other failures (network) just report false.
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      await send('/auth/refresh', { method: 'POST', params: { type: 'cookie' }, csrf: 'refresh' });
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) sessionEndedHandler();
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: options.accept ?? 'application/vnd.api+json, application/json' };
  // Auth endpoints take plain JSON; resources take JSON:API documents.
  if (options.body !== undefined) headers['Content-Type'] = path.startsWith('/auth/') ? 'application/json' : 'application/vnd.api+json';
  if (options.bearer) headers.Authorization = `Bearer ${options.bearer}`;
  else if (method !== 'GET') {
    // Read at send time: a refresh or a fresh login replaces the value.
    const csrf = readCookie(options.csrf === 'refresh' ? CSRF_REFRESH_COOKIE : CSRF_ACCESS_COOKIE);
    if (csrf) headers['X-CSRF-TOKEN'] = csrf;
  }
  let response: Response;
  try {
    response = await fetch(apiUrl(path, options.params), {
      method,
      headers,
      credentials: options.bearer ? 'omit' : 'include',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, [{ status: '0', title: 'Network error', detail: 'The server could not be reached.' }]);
  }
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}

/**
 * Sends a request with credentials and the anti-forgery header; throws ApiError on failure. When the
 * access token has expired (see canRefresh), the session is refreshed once and the request retried; a
 * refused refresh logs the user out and the original error is thrown.
 */
export async function apiFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  try {
    return await send(path, options);
  } catch (error) {
    if (options.bearer || options.noRefresh || SESSION_CALLS.has(path) || !canRefresh(error)) throw error;
    if (!(await refreshSession())) throw error;
    return send(path, options);
  }
}

export async function apiGet<T>(path: string, params?: QueryParams, signal?: AbortSignal): Promise<T> {
  const response = await apiFetch(path, { params, signal });
  return (await response.json()) as T;
}

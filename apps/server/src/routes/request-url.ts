import type { FastifyRequest } from 'fastify';

import { badRequest } from '../errors.ts';

/**
 * The site's public base URL: configured, or else as the client reached us. A forwarded protocol other
 * than http or https is ignored; a Host header that is no host is the client's error (400), never a 500.
 */
export function baseUrl(request: FastifyRequest, configured?: string): string {
  if (configured) return configured;
  const forwardedProto = request.headers['x-forwarded-proto'];
  const forwarded = typeof forwardedProto === 'string' ? forwardedProto.split(',')[0].trim().toLowerCase() : undefined;
  const protocol = forwarded === 'http' || forwarded === 'https' ? forwarded : request.protocol;
  let origin: string | undefined;
  try {
    const url = new URL(`${protocol}://${request.host}`);
    const hostOnly = url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
    if (hostOnly) origin = url.origin;
  } catch {
    // not a host: refused below
  }
  if (!origin)
    throw badRequest(`The Host header ${JSON.stringify(request.host.slice(0, 100))} is not a host name (with an optional :port)`);
  return origin;
}

/** The same URL with page[offset] (and any other paging state) set: `links.next`, which clients follow verbatim. */
export function withOffset(base: string, request: FastifyRequest, offset: number, extra: Record<string, string> = {}): string {
  const url = new URL(request.url, base);
  url.searchParams.set('page[offset]', String(offset));
  for (const [name, value] of Object.entries(extra)) url.searchParams.set(name, value);
  return `${base}${url.pathname}?${url.searchParams.toString()}`;
}

export function selfUrl(base: string, request: FastifyRequest): string {
  return `${base}${request.url}`;
}

/** `links.self`, `links.next` (on every page but the last) and the count of an offset-paged list. */
export function pageLinks(base: string, request: FastifyRequest, page: { offset: number; limit: number; count: number }) {
  const next = page.offset + page.limit < page.count ? withOffset(base, request, page.offset + page.limit) : undefined;
  return { self: selfUrl(base, request), next, count: page.count };
}

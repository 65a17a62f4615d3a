import type { FastifyRequest } from 'fastify';

/** The site's public base URL: configured, or else as the client reached us. */
export function baseUrl(request: FastifyRequest, configured?: string): string {
  if (configured) return configured;
  const forwardedProto = request.headers['x-forwarded-proto'];
  const protocol = typeof forwardedProto === 'string' ? forwardedProto.split(',')[0] : request.protocol;
  return `${protocol}://${request.host}`;
}

/** The same URL with page[offset] set: `links.next`, which clients follow verbatim. */
export function withOffset(base: string, request: FastifyRequest, offset: number): string {
  const url = new URL(request.url, base);
  url.searchParams.set('page[offset]', String(offset));
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

import type { ListDocument, ResourceObject } from '@antares/contract';

/** A page of a list: `links.next` on every page but the last, `meta.count` always. */
export function listDocument(
  data: ResourceObject[],
  page: { self: string; next?: string; count: number; meta?: Record<string, unknown> },
): ListDocument {
  return {
    data,
    links: page.next ? { self: page.self, next: page.next } : { self: page.self },
    meta: { count: page.count, ...page.meta },
  };
}

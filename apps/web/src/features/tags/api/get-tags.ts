import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

export interface Tag {
  id: string;
  description?: string;
  filter_version_id?: string | number;
}

export async function getTags(page: number, perPage: number, sort: string, signal?: AbortSignal) {
  const document = await apiGet<JsonApiDocument<JsonApiResource<Omit<Tag, 'id'>>[]>>(
    '/tags',
    { 'page[limit]': perPage, 'page[offset]': (page - 1) * perPage, sort },
    signal,
  );
  const tags = (document.data ?? []).map((item) => ({ ...item.attributes, id: item.id }));
  return { tags, count: document.meta?.count ?? tags.length };
}

export function useTags(page: number, perPage: number, sort: string) {
  return useQuery({
    queryKey: ['tags', page, perPage, sort],
    queryFn: ({ signal }) => getTags(page, perPage, sort, signal),
    placeholderData: keepPreviousData,
  });
}

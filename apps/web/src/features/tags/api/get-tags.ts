import type { listTags, ResponseOf } from '@antares/contract/endpoints';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';

type TagList = ResponseOf<typeof listTags>;
export type Tag = TagList['data'][number]['attributes'] & { id: string };

export async function getTags(page: number, perPage: number, sort: string, signal?: AbortSignal) {
  const document = await apiGet<TagList>('/tags', { 'page[limit]': perPage, 'page[offset]': (page - 1) * perPage, sort }, signal);
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

import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';
import { USER_DATA_KEY } from '@/lib/session';

export interface FavoriteLocus {
  id: string;
  ra: number;
  dec: number;
  properties: {
    ztf_object_id?: string;
    num_alerts?: number;
    newest_alert_observation_time?: number;
    oldest_alert_observation_time?: number;
    [key: string]: unknown;
  };
  tags: string[];
  thumbnails: { thumbnail_type: 'science' | 'template' | 'difference'; src: string }[];
}

type Attributes = Omit<FavoriteLocus, 'id' | 'thumbnails'>;
interface ThumbnailRef {
  data?: { attributes?: { thumbnail_type: 'science' | 'template' | 'difference'; src: string } };
}

/**
 * One page of the favorite loci: GET /loci restricted to that page's favorited ids (a terms filter on
 * locus_id), with a page limit; reads data. Paging the ids here rather than on the server keeps the
 * request small however many favorites there are; the count is the number of favorites.
 */
export async function getFavoriteLoci(ids: string[], page: number, perPage: number, signal?: AbortSignal) {
  const pageIds = ids.slice((page - 1) * perPage, page * perPage);
  if (pageIds.length === 0) return { loci: [] as FavoriteLocus[], count: ids.length };
  const document = await apiGet<JsonApiDocument<JsonApiResource<Attributes>[]>>(
    '/loci',
    {
      'page[limit]': pageIds.length,
      'page[offset]': 0,
      'elasticsearch_query[locus_listing]': { query: { bool: { filter: [{ terms: { locus_id: pageIds } }] } } },
    },
    signal,
  );
  const loci: FavoriteLocus[] = (document.data ?? []).map((item) => {
    const refs = (item.meta?.newest_thumbnails ?? []) as ThumbnailRef[];
    return {
      ...item.attributes,
      properties: item.attributes.properties ?? {},
      tags: item.attributes.tags ?? [],
      id: item.id,
      thumbnails: refs.flatMap((ref) => (ref.data?.attributes ? [ref.data.attributes] : [])),
    };
  });
  const order = new Map(pageIds.map((id, index) => [id, index]));
  loci.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { loci, count: ids.length };
}

export function useFavoriteLoci(userId: string, ids: string[], page: number, perPage: number) {
  return useQuery({
    queryKey: [USER_DATA_KEY, userId, 'favorite-loci', ids, page, perPage],
    queryFn: ({ signal }) => getFavoriteLoci(ids, page, perPage, signal),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
  });
}

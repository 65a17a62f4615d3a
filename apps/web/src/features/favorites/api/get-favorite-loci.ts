import type { ResponseOf, searchLoci } from '@antares/contract/endpoints';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';
import { USER_DATA_KEY } from '@/lib/session';

type ListingDocument = ResponseOf<typeof searchLoci>;
type Attributes = ListingDocument['data'][number]['attributes'];
type Thumbnail = NonNullable<ListingDocument['data'][number]['meta']>['newest_thumbnails'][number]['data']['attributes'];

/** A favorite as its card shows it (the listing is asked for every attribute, so ra and dec are there). */
export type FavoriteLocus = Omit<Attributes, 'properties' | 'tags'> &
  Required<Pick<Attributes, 'ra' | 'dec'>> & {
    id: string;
    properties: NonNullable<Attributes['properties']>;
    tags: string[];
    thumbnails: Pick<Thumbnail, 'thumbnail_type' | 'src'>[];
  };

/**
 * One page of the favorite loci: GET /loci restricted to that page's favorited ids (a terms filter on
 * locus_id), with a page limit; reads data. Paging the ids here rather than on the server keeps the
 * request small however many favorites there are; the count is the number of favorites.
 */
export async function getFavoriteLoci(ids: string[], page: number, perPage: number, signal?: AbortSignal) {
  const pageIds = ids.slice((page - 1) * perPage, page * perPage);
  if (pageIds.length === 0) return { loci: [] as FavoriteLocus[], count: ids.length };
  const document = await apiGet<ListingDocument>(
    '/loci',
    {
      'page[limit]': pageIds.length,
      'page[offset]': 0,
      'elasticsearch_query[locus_listing]': { query: { bool: { filter: [{ terms: { locus_id: pageIds } }] } } },
    },
    signal,
  );
  const loci: FavoriteLocus[] = (document.data ?? []).map((item) => {
    const refs = item.meta?.newest_thumbnails ?? [];
    return {
      ...item.attributes,
      ra: item.attributes.ra ?? Number.NaN,
      dec: item.attributes.dec ?? Number.NaN,
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

import type { ResponseOf, searchLoci } from '@antares/contract/endpoints';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';
import { elasticsearchQuery, type LocusListQuery, sortParam } from '@/lib/locus-query';

type ListingDocument = ResponseOf<typeof searchLoci>;
type ListingItem = ListingDocument['data'][number];
export type LocusListingAttributes = ListingItem['attributes'];
export type LocusProperties = NonNullable<LocusListingAttributes['properties']>;
/** One of a listing's `meta.newest_thumbnails`. */
export type ThumbnailRef = NonNullable<ListingItem['meta']>['newest_thumbnails'][number];

/** A listed locus: the attributes a full listing has (the list asks for all of them). */
export type LocusListing = Omit<LocusListingAttributes, 'properties' | 'tags' | 'catalogs'> & {
  properties: LocusProperties;
  tags: string[];
  catalogs: string[];
  id: string;
  newestThumbnails: ThumbnailRef[];
};

export interface LociPage {
  loci: LocusListing[];
  count: number;
}

export async function getLoci(query: LocusListQuery, signal?: AbortSignal): Promise<LociPage> {
  const document = await apiGet<ListingDocument>(
    '/loci',
    {
      'page[limit]': query.perPage,
      'page[offset]': (query.currentPage - 1) * query.perPage,
      sort: sortParam(query),
      'elasticsearch_query[locus_listing]': elasticsearchQuery(query.filters),
    },
    signal,
  );
  const loci = (document.data ?? []).map((item) => ({
    ...item.attributes,
    properties: item.attributes.properties ?? {},
    tags: item.attributes.tags ?? [],
    catalogs: item.attributes.catalogs ?? [],
    id: item.id,
    newestThumbnails: item.meta?.newest_thumbnails ?? [],
  }));
  return { loci, count: document.meta?.count ?? loci.length };
}

export function useLoci(query: LocusListQuery) {
  return useQuery({
    queryKey: ['loci', query],
    queryFn: ({ signal }) => getLoci(query, signal),
    placeholderData: keepPreviousData,
  });
}

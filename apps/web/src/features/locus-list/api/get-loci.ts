import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';
import { elasticsearchQuery, type LocusListQuery, sortParam } from '@/lib/locus-query';

export interface LocusProperties {
  ztf_object_id?: string;
  num_alerts?: number;
  num_mag_values?: number;
  newest_alert_magnitude?: number;
  brightest_alert_magnitude?: number;
  newest_alert_observation_time?: number;
  oldest_alert_observation_time?: number;
  [key: string]: unknown;
}

export interface ThumbnailRef {
  data: { type: string; id: string; attributes: { thumbnail_type: 'science' | 'template' | 'difference'; src: string; filename?: string } };
}

export interface LocusListingAttributes {
  ra: number;
  dec: number;
  htm16?: number;
  properties: LocusProperties;
  tags: string[];
  catalogs: string[];
  grav_wave_events?: string[];
}

export interface LocusListing extends LocusListingAttributes {
  id: string;
  newestThumbnails: ThumbnailRef[];
}

export interface LociPage {
  loci: LocusListing[];
  count: number;
}

type ListingDocument = JsonApiDocument<JsonApiResource<LocusListingAttributes>[]> & {
  meta?: { count?: number; newest_thumbnails?: Record<string, ThumbnailRef[]> };
};

function thumbnailsOf(item: JsonApiResource<LocusListingAttributes>, document: ListingDocument): ThumbnailRef[] {
  // The wire format puts newest_thumbnails in each item's meta; accept a document-level map too.
  const own = item.meta?.newest_thumbnails;
  if (Array.isArray(own)) return own as ThumbnailRef[];
  const shared = document.meta?.newest_thumbnails;
  return shared && Array.isArray(shared[item.id]) ? shared[item.id] : [];
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
    newestThumbnails: thumbnailsOf(item, document),
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

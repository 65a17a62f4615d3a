import { useQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

export interface NearbyLocus {
  id: string;
  ra: number;
  dec: number;
}

/** Loci within 1.5 arcsec (the RA/Dec chart's extent), excluding the locus itself. */
export async function getNearbyLoci(locusId: string, ra: number, dec: number, signal?: AbortSignal): Promise<NearbyLocus[]> {
  const query = { query: { bool: { filter: { sky_distance: { distance: `${1.5 / 3600} degree`, htm16: { center: `${ra} ${dec}` } } } } } };
  const document = await apiGet<JsonApiDocument<JsonApiResource<{ ra: number; dec: number }>[]>>(
    '/loci',
    { 'elasticsearch_query[locus_listing]': query, 'page[limit]': 100, 'fields[locus_listing]': 'ra,dec' },
    signal,
  );
  return (document.data ?? [])
    .filter((item) => item.id !== locusId)
    .map((item) => ({ id: item.id, ra: item.attributes.ra, dec: item.attributes.dec }));
}

export function useNearbyLoci(locusId: string, ra: number, dec: number) {
  return useQuery({
    queryKey: ['nearby-loci', locusId],
    queryFn: ({ signal }) => getNearbyLoci(locusId, ra, dec, signal),
    staleTime: 60_000,
  });
}

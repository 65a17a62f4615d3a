import { useQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

import { getGwEventLoci } from './gw-events';

/** One HEALPix pixel of a sky map: its centre, probability density (per deg²) and credible level (0..1). */
export interface SkyMapPixel {
  ra: number;
  dec: number;
  probability_density: number;
  level: number;
}

export interface SkyMap {
  /** HEALPix order of the pixels (NESTED); 6 gives 49,152 pixels. */
  order: number;
  pixels: SkyMapPixel[];
  area50: number | null;
  area90: number | null;
}

type SkyMapAttributes = Partial<SkyMap>;

export async function getSkyMap(gracedbId: string, signal?: AbortSignal): Promise<SkyMap> {
  const document = await apiGet<JsonApiDocument<JsonApiResource<SkyMapAttributes>>>(
    `/grav_wave_events/${encodeURIComponent(gracedbId)}/skymap`,
    undefined,
    signal,
  );
  const a = document.data.attributes ?? {};
  return {
    order: typeof a.order === 'number' ? a.order : 6,
    pixels: Array.isArray(a.pixels) ? a.pixels : [],
    area50: typeof a.area50 === 'number' ? a.area50 : null,
    area90: typeof a.area90 === 'number' ? a.area90 : null,
  };
}

/** The sky map never changes for a notice: fetched once per event (it is large). */
export function useSkyMap(gracedbId: string) {
  return useQuery({ queryKey: ['gw-skymap', gracedbId], queryFn: ({ signal }) => getSkyMap(gracedbId, signal), staleTime: Infinity });
}

/** How many loci the map draws at most (one page of the API's largest size); the table pages through all. */
export const MAP_LOCI_LIMIT = 1000;

export function useMapLoci(gracedbId: string) {
  return useQuery({
    queryKey: ['gw-event-map-loci', gracedbId],
    queryFn: ({ signal }) => getGwEventLoci(gracedbId, 1, MAP_LOCI_LIMIT, signal),
    staleTime: 60_000,
  });
}

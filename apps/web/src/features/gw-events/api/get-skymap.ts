import type { getGravWaveSkyMap, ResponseOf } from '@antares/contract/endpoints';
import { useQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';

import { getGwEventLoci } from './gw-events';

type SkyMapDocument = ResponseOf<typeof getGravWaveSkyMap>;
/** HEALPix order-6 pixels (NESTED, 49,152) with their density and credible level (0..1), and the 50%/90% areas. */
export type SkyMap = SkyMapDocument['data']['attributes'];
/** One HEALPix pixel of a sky map: its centre, probability density and credible level (0..1). */
export type SkyMapPixel = SkyMap['pixels'][number];

export async function getSkyMap(gracedbId: string, signal?: AbortSignal): Promise<SkyMap> {
  const document = await apiGet<SkyMapDocument>(`/grav_wave_events/${encodeURIComponent(gracedbId)}/skymap`, undefined, signal);
  const a: Partial<SkyMap> = document.data.attributes ?? {};
  return {
    order: typeof a.order === 'number' ? a.order : 6,
    pixels: Array.isArray(a.pixels) ? a.pixels : [],
    area50: typeof a.area50 === 'number' ? a.area50 : Number.NaN,
    area90: typeof a.area90 === 'number' ? a.area90 : Number.NaN,
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

import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { apiGet, type JsonApiDocument, type JsonApiResource } from '../../../lib/api-client';

export interface LocusAttributes {
  ra: number;
  dec: number;
  htm16?: number;
  properties: Record<string, unknown> & {
    ztf_object_id?: string;
    num_alerts?: number;
    num_mag_values?: number;
    newest_alert_observation_time?: number;
    oldest_alert_observation_time?: number;
  };
  tags: string[];
  catalogs: string[];
  grav_wave_events?: string[];
  lightcurve?: string;
}

export interface Locus extends LocusAttributes {
  id: string;
  galactic?: { l: number; b: number };
}

type LocusDocument = JsonApiDocument<JsonApiResource<LocusAttributes>> & {
  meta?: { coordinates?: { galactic?: { l: number; b: number } } };
};

export async function getLocus(locusId: string, signal?: AbortSignal): Promise<Locus> {
  const document = await apiGet<LocusDocument>(`/loci/${encodeURIComponent(locusId)}`, undefined, signal);
  const { data } = document;
  const galactic = document.meta?.coordinates?.galactic ?? (data.meta as LocusDocument['meta'])?.coordinates?.galactic;
  return {
    ...data.attributes,
    properties: data.attributes.properties ?? {},
    tags: data.attributes.tags ?? [],
    catalogs: data.attributes.catalogs ?? [],
    id: data.id,
    galactic,
  };
}

export const locusQuery = (locusId: string) =>
  queryOptions({ queryKey: ['locus', locusId], queryFn: ({ signal }) => getLocus(locusId, signal), staleTime: 60_000 });

export function useLocus(locusId: string) {
  return useSuspenseQuery(locusQuery(locusId));
}

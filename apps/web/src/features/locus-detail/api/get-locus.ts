import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';

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

/** Rubin diaObjectIds of the locus (properties.survey.lsst.dia_object_id): decimal strings above 2^53, kept as text. */
export function diaObjectIds(properties: Record<string, unknown>): string[] {
  const survey = properties.survey as { lsst?: { dia_object_id?: unknown } } | undefined;
  const ids = survey?.lsst?.dia_object_id;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string' && /^\d+$/.test(id)) : [];
}

/** The header's survey object id: the ZTF id, else the Rubin diaObjectId, else the locus id. */
export function surveyObjectId(locus: Pick<Locus, 'id' | 'properties'>): string {
  return locus.properties.ztf_object_id ?? diaObjectIds(locus.properties)[0] ?? locus.id;
}

export const locusQuery = (locusId: string) =>
  queryOptions({ queryKey: ['locus', locusId], queryFn: ({ signal }) => getLocus(locusId, signal), staleTime: 60_000 });

export function useLocus(locusId: string) {
  return useSuspenseQuery(locusQuery(locusId));
}

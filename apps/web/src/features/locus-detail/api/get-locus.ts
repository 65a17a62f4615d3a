import type { getLocus as getLocusEndpoint, ResponseOf } from '@antares/contract/endpoints';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';

type LocusDocument = ResponseOf<typeof getLocusEndpoint>;
export type LocusAttributes = LocusDocument['data']['attributes'];

export interface Locus extends LocusAttributes {
  id: string;
  galactic?: { l: number; b: number };
}

export async function getLocus(locusId: string, signal?: AbortSignal): Promise<Locus> {
  const document = await apiGet<LocusDocument>(`/loci/${encodeURIComponent(locusId)}`, undefined, signal);
  const { data } = document;
  const galactic = document.meta?.coordinates?.galactic ?? data.meta?.coordinates?.galactic;
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

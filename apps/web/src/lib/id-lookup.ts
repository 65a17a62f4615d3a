import { ApiError, apiGet, type JsonApiDocument, type JsonApiResource } from './api-client';
import type { SearchFilter } from './locus-query';

/**
 * The ID lookup of the top-bar search box and of /loci/lookup/{text}. The spec's lookup is a
 * wildcard query_string over properties.ztf_object_id and locus_id; Rubin ids need more:
 * - a bare 17-19 digit number is a Rubin diaObjectId: a term on properties.survey.lsst.dia_object_id.
 *   These ids exceed 2^53, so the text is sent as the string it is, never as a JS number.
 * - an alert id (`lsst:<diaSourceId>`, `lsst_forced:<id>`, and ZTF's `ztf_candidate:<candid>`,
 *   `ztf_upper_limit:<objectId>-<pid>`) names no locus field; the alert is fetched and the lookup
 *   becomes its locus. A query_string cannot carry it anyway: 'lsst:1' would read as field 'lsst'.
 */
export type LookupKind = 'dia_object_id' | 'alert_id' | 'text';

const DIA_OBJECT_ID = /^\d{17,19}$/;
const ALERT_ID = /^(lsst|lsst_forced|ztf_candidate|ztf_upper_limit):[A-Za-z0-9_-]+$/;

export const DIA_OBJECT_ID_FIELD = 'properties.survey.lsst.dia_object_id';

export function lookupKind(text: string): LookupKind {
  if (DIA_OBJECT_ID.test(text)) return 'dia_object_id';
  if (ALERT_ID.test(text)) return 'alert_id';
  return 'text';
}

/** The spec's lookup: the text wrapped in wildcards over the ZTF object id and the locus id. */
export function idLookupFilter(text: string): SearchFilter {
  return {
    type: 'query_string',
    field: { fields: ['properties.ztf_object_id', 'locus_id'], query: `*${text}*` },
    text: `ID Lookup: ${text}`,
  };
}

export function diaObjectIdFilter(text: string): SearchFilter {
  return { type: 'term', field: DIA_OBJECT_ID_FIELD, value: text, text: `ID Lookup: ${text}` };
}

/** The locus holding an alert; an empty list (matches nothing) when no such alert exists. */
export function alertLocusFilter(alertId: string, locusId: string | null): SearchFilter {
  return { type: 'terms', field: 'locus_id', value: locusId ? [locusId] : [], text: `ID Lookup: ${alertId}` };
}

type AlertDocument = JsonApiDocument<JsonApiResource & { relationships?: { locus?: { data?: { id?: string } } } }>;

/** GET /alerts/{id} -> its locus id (relationships.locus), or null for an unknown alert. */
export async function locusOfAlert(alertId: string, signal?: AbortSignal): Promise<string | null> {
  try {
    const document = await apiGet<AlertDocument>(`/alerts/${encodeURIComponent(alertId)}`, undefined, signal);
    return document.data.relationships?.locus?.data?.id ?? null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The filter a lookup of `text` applies (trimmed by the caller). */
export async function lookupFilter(text: string, signal?: AbortSignal): Promise<SearchFilter> {
  switch (lookupKind(text)) {
    case 'dia_object_id':
      return diaObjectIdFilter(text);
    case 'alert_id':
      return alertLocusFilter(text, await locusOfAlert(text, signal));
    case 'text':
      return idLookupFilter(text);
  }
}

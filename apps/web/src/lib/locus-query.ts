/**
 * The locus list query: the state the list mirrors into its `query` URL parameter
 * (`{"currentPage","filters","sortBy","sortDesc","perPage"}`) and its translation into the
 * Elasticsearch-subset body the API accepts. Shared by the shell (ID lookup), the tag and watch-list
 * pages (View Loci links) and the locus list itself. The ID lookup's filters are in id-lookup.ts.
 */
export type SearchFilterType = 'range' | 'term' | 'terms' | 'wildcard' | 'sky_distance' | 'query_string';

export interface SearchFilter {
  type: SearchFilterType;
  /** A property path, or for clause-shaped filters (sky_distance, query_string) the clause body. */
  field: string | Record<string, unknown>;
  value?: unknown;
  /** UI state needed to show the filter in its control again (e.g. the chosen time range). */
  options?: Record<string, unknown>;
  text: string;
}

export const PAGE_SIZES = [5, 10, 25] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

export interface LocusListQuery {
  currentPage: number;
  filters: SearchFilter[];
  sortBy: string;
  sortDesc: boolean;
  perPage: PageSize;
}

export const DEFAULT_SORT = 'properties.newest_alert_observation_time';

/**
 * The fields the list sorts on (its sortable columns), with their column names. A `query` parameter
 * naming another field is a link the table cannot show: its sort is ignored like malformed JSON.
 */
export const LOCUS_SORT_FIELDS: Readonly<Record<string, string>> = {
  'properties.ztf_object_id': 'ZTF ID',
  ra: 'RA',
  dec: 'Dec',
  'properties.newest_alert_magnitude': 'Latest Mag',
  'properties.brightest_alert_magnitude': 'Brightest Mag',
  'properties.num_mag_values': '# Alerts',
  'properties.newest_alert_observation_time': 'Latest Alert',
  'properties.oldest_alert_observation_time': 'First Alert',
};

export function isLocusSortField(field: string): boolean {
  return Object.hasOwn(LOCUS_SORT_FIELDS, field);
}

export function defaultLocusListQuery(filters: SearchFilter[] = []): LocusListQuery {
  return { currentPage: 1, filters, sortBy: DEFAULT_SORT, sortDesc: true, perPage: 25 };
}

const FILTER_TYPES: readonly string[] = ['range', 'term', 'terms', 'wildcard', 'sky_distance', 'query_string'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFilter(value: unknown): value is SearchFilter {
  if (!isRecord(value)) return false;
  const { type, field, text, options } = value;
  if (typeof type !== 'string' || !FILTER_TYPES.includes(type)) return false;
  if (typeof text !== 'string') return false;
  if (options !== undefined && !isRecord(options)) return false;
  if (type === 'sky_distance' || type === 'query_string') return isRecord(field) || (typeof field === 'string' && 'value' in value);
  return typeof field === 'string' && field.length > 0 && 'value' in value;
}

/**
 * Reads the `query` URL parameter. Anything malformed (bad JSON, wrong types, unknown page size)
 * is ignored as a whole and the default query is used, as the spec requires. A sort field the list
 * does not offer is ignored alone: the filters and page size of the link still apply, from page 1
 * sorted the default way (newest alert first).
 */
export function parseLocusListQuery(raw: string | null): LocusListQuery {
  const fallback = defaultLocusListQuery();
  if (!raw) return fallback;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fallback;
  }
  if (!isRecord(parsed)) return fallback;
  const { currentPage = 1, filters = [], sortBy = DEFAULT_SORT, sortDesc = true, perPage = 25 } = parsed;
  if (typeof currentPage !== 'number' || !Number.isInteger(currentPage) || currentPage < 1) return fallback;
  if (!Array.isArray(filters) || !filters.every(isFilter)) return fallback;
  if (typeof sortBy !== 'string' || typeof sortDesc !== 'boolean') return fallback;
  if (!PAGE_SIZES.includes(perPage as PageSize)) return fallback;
  // As a sort change does, the ignored sort starts again from page 1.
  if (sortBy !== '' && !isLocusSortField(sortBy))
    return { currentPage: 1, filters, sortBy: DEFAULT_SORT, sortDesc: true, perPage: perPage as PageSize };
  return { currentPage, filters, sortBy: sortBy || DEFAULT_SORT, sortDesc, perPage: perPage as PageSize };
}

export function serializeLocusListQuery(query: LocusListQuery): string {
  return JSON.stringify(query);
}

/** The link to the locus list showing the given filters from page 1. */
export function lociPath(filters: SearchFilter[]): string {
  return `/loci?query=${encodeURIComponent(serializeLocusListQuery(defaultLocusListQuery(filters)))}`;
}

export function tagFilter(tag: string): SearchFilter {
  return { type: 'terms', field: 'tags', value: [tag], text: `Tags: ${tag}` };
}

/** The loci a watch list matched (the View Loci link of the watch lists). */
export function watchListFilter(watchListId: string, name: string): SearchFilter {
  return { type: 'term', field: 'watch_list_ids', value: watchListId, text: `Watch List: ${name}` };
}

/** One filter as an Elasticsearch clause: `{type: {field: value}}`, or `{type: field}` for clause bodies. */
export function filterClause(filter: SearchFilter): Record<string, unknown> {
  if (typeof filter.field === 'string' && filter.value !== undefined) {
    return { [filter.type]: { [filter.field]: filter.value } };
  }
  return { [filter.type]: filter.field };
}

/** The `elasticsearch_query[locus_listing]` body for a filter list, or undefined for "everything". */
export function elasticsearchQuery(filters: SearchFilter[]): { query: Record<string, unknown> } | undefined {
  if (filters.length === 0) return undefined;
  return { query: { bool: { filter: filters.map(filterClause) } } };
}

/** The `sort` parameter: '-' prefix for descending. */
export function sortParam(query: Pick<LocusListQuery, 'sortBy' | 'sortDesc'>): string {
  const field = query.sortBy || DEFAULT_SORT;
  return query.sortDesc ? `-${field}` : field;
}

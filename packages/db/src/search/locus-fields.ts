import { allowed } from './field-rules.ts';
import { SearchQueryError } from './search-error.ts';

/** A search or sort field of the locus document, mapped onto the locus table. */
export type LocusField =
  | { name: string; kind: 'text' | 'array'; column: string }
  /** `type`: the column's SQL type, which every compared value must fit. */
  | { name: string; kind: 'number'; column: string; type: 'integer' | 'bigint' | 'float8' }
  | { name: string; kind: 'property'; path: string[] };

export { SearchQueryError } from './search-error.ts';

const TOP_LEVEL_FIELDS: Record<string, LocusField> = {
  locus_id: { name: 'locus_id', kind: 'text', column: 'locus_id' },
  id: { name: 'id', kind: 'text', column: 'locus_id' },
  ra: { name: 'ra', kind: 'number', column: 'ra', type: 'float8' },
  dec: { name: 'dec', kind: 'number', column: 'dec', type: 'float8' },
  htm16: { name: 'htm16', kind: 'number', column: 'htm16', type: 'bigint' },
  tags: { name: 'tags', kind: 'array', column: 'tags' },
  catalogs: { name: 'catalogs', kind: 'array', column: 'catalogs' },
  grav_wave_events: { name: 'grav_wave_events', kind: 'array', column: 'grav_wave_events' },
  watch_list_ids: { name: 'watch_list_ids', kind: 'array', column: 'watch_list_ids' },
  watch_object_ids: { name: 'watch_object_ids', kind: 'array', column: 'watch_object_ids' },
};

// Properties that have their own indexed column (migration 0001); the rest are read from the jsonb.
const PROPERTY_COLUMNS: Record<string, LocusField> = {
  // Searched over all ZTF ids of the locus; sorted on the first one (see parseLocusSort).
  ztf_object_id: { name: 'properties.ztf_object_id', kind: 'array', column: 'ztf_object_ids' },
  // Rubin DiaObject ids, decimal strings (migration 0010).
  'survey.lsst.dia_object_id': { name: 'properties.survey.lsst.dia_object_id', kind: 'array', column: 'lsst_dia_object_ids' },
  num_mag_values: { name: 'properties.num_mag_values', kind: 'number', column: 'num_mag_values', type: 'integer' },
  newest_alert_observation_time: {
    name: 'properties.newest_alert_observation_time',
    kind: 'number',
    column: 'newest_alert_observation_time',
    type: 'float8',
  },
  oldest_alert_observation_time: {
    name: 'properties.oldest_alert_observation_time',
    kind: 'number',
    column: 'oldest_alert_observation_time',
    type: 'float8',
  },
};

const PATH_SEGMENT = /^[A-Za-z0-9_-]+$/;

export function fieldOf(name: string): LocusField {
  const top = allowed(TOP_LEVEL_FIELDS, name);
  if (top) return top;
  if (name.startsWith('properties.')) {
    const path = name.slice('properties.'.length).split('.');
    if (path.some((segment) => !PATH_SEGMENT.test(segment))) {
      throw new SearchQueryError(`Invalid property path "${name}"`);
    }
    return allowed(PROPERTY_COLUMNS, path.join('.')) ?? { name, kind: 'property', path };
  }
  throw new SearchQueryError(`Unknown field "${name}"`);
}

export interface LocusSort {
  field: LocusField;
  descending: boolean;
}

/** `-properties.newest_alert_observation_time` -> descending sort on that field. */
export function parseLocusSort(text: string): LocusSort {
  const descending = text.startsWith('-');
  const name = descending ? text.slice(1) : text;
  let field: LocusField;
  try {
    field = fieldOf(name);
  } catch {
    throw new SearchQueryError(`Unknown sort field "${name}"`);
  }
  if (name === 'properties.ztf_object_id') {
    return { field: { name, kind: 'text', column: 'ztf_object_id' }, descending };
  }
  if (field.kind === 'array') throw new SearchQueryError(`Cannot sort on list field "${name}"`);
  return { field, descending };
}

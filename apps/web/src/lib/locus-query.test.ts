import { describe, expect, it } from 'vitest';

import { idLookupFilter } from './id-lookup';
import {
  defaultLocusListQuery,
  elasticsearchQuery,
  lociPath,
  LOCUS_SORT_FIELDS,
  parseLocusListQuery,
  serializeLocusListQuery,
  sortParam,
  tagFilter,
} from './locus-query';

describe('locus list query', () => {
  it('round-trips through the URL parameter', () => {
    const query = {
      ...defaultLocusListQuery([tagFilter('high_snr')]),
      currentPage: 3,
      perPage: 10 as const,
      sortBy: 'ra',
      sortDesc: false,
    };
    expect(parseLocusListQuery(serializeLocusListQuery(query))).toEqual(query);
  });

  it('ignores malformed values as a whole', () => {
    const fallback = defaultLocusListQuery();
    for (const raw of [
      null,
      '',
      '{',
      '[]',
      '"x"',
      '{"currentPage":0}',
      '{"perPage":7}',
      '{"filters":[{"type":"script","field":"x","value":1,"text":"t"}]}',
      '{"filters":[{"type":"range","field":"x","text":"t"}]}',
      '{"sortDesc":"yes"}',
    ]) {
      expect(parseLocusListQuery(raw), String(raw)).toEqual(fallback);
    }
  });

  it('ignores a sort field the list does not offer, keeping the rest of the query', () => {
    const filters = [tagFilter('high_snr')];
    for (const sortBy of ['no_such_field', 'properties.no_such_property', '__proto__', 'constructor', 'tags']) {
      const raw = JSON.stringify({ currentPage: 3, filters, sortBy, sortDesc: false, perPage: 10 });
      expect(parseLocusListQuery(raw), sortBy).toEqual({
        currentPage: 1,
        filters,
        sortBy: 'properties.newest_alert_observation_time',
        sortDesc: true,
        perPage: 10,
      });
    }
    for (const sortBy of Object.keys(LOCUS_SORT_FIELDS)) {
      expect(parseLocusListQuery(JSON.stringify({ ...defaultLocusListQuery(), currentPage: 2, sortBy, sortDesc: false }))).toMatchObject({
        currentPage: 2,
        sortBy,
        sortDesc: false,
      });
    }
  });

  it('builds the ID lookup as a wildcard query_string over the ZTF id and the locus id', () => {
    const filter = idLookupFilter('ZTF21abc');
    expect(filter.text).toBe('ID Lookup: ZTF21abc');
    expect(elasticsearchQuery([filter])).toEqual({
      query: { bool: { filter: [{ query_string: { fields: ['properties.ztf_object_id', 'locus_id'], query: '*ZTF21abc*' } }] } },
    });
    expect(decodeURIComponent(lociPath([filter]))).toContain('"filters":[{"type":"query_string"');
  });

  it('translates field filters and sky_distance bodies, and the sort', () => {
    expect(
      elasticsearchQuery([
        { type: 'range', field: 'properties.num_mag_values', value: { gte: 2, lte: 9 }, text: '' },
        { type: 'sky_distance', field: { distance: '0.001 degree', htm16: { center: '10 20' } }, text: '' },
        tagFilter('nuclear_transient'),
      ]),
    ).toEqual({
      query: {
        bool: {
          filter: [
            { range: { 'properties.num_mag_values': { gte: 2, lte: 9 } } },
            { sky_distance: { distance: '0.001 degree', htm16: { center: '10 20' } } },
            { terms: { tags: ['nuclear_transient'] } },
          ],
        },
      },
    });
    expect(elasticsearchQuery([])).toBeUndefined();
    expect(sortParam({ sortBy: 'ra', sortDesc: true })).toBe('-ra');
    expect(sortParam({ sortBy: '', sortDesc: false })).toBe('properties.newest_alert_observation_time');
  });
});

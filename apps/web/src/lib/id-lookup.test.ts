import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('./config', () => ({ getConfig: () => ({ apiURL: 'http://app.test/v1' }) }));

const { DIA_OBJECT_ID_FIELD, lookupFilter, lookupKind } = await import('./id-lookup');
const { elasticsearchQuery } = await import('./locus-query');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/vnd.api+json' } });

describe('ID lookup', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tells Rubin diaObjectIds and alert ids from other text', () => {
    expect(lookupKind('169298432598474793')).toBe('dia_object_id');
    expect(lookupKind('12345678901234567')).toBe('dia_object_id');
    expect(lookupKind('1234567890123456')).toBe('text');
    expect(lookupKind('12345678901234567890')).toBe('text');
    expect(lookupKind('lsst:169298432598474793')).toBe('alert_id');
    expect(lookupKind('lsst_forced:169298432598474793')).toBe('alert_id');
    expect(lookupKind('ztf_candidate:2552120390115015005')).toBe('alert_id');
    expect(lookupKind('ztf_upper_limit:ZTF21abcdefg-1234567')).toBe('alert_id');
    expect(lookupKind('ZTF21abcdefg')).toBe('text');
    expect(lookupKind('ANT2026abc')).toBe('text');
  });

  it('keeps the wildcard query_string lookup for ZTF and locus ids', async () => {
    const filter = await lookupFilter('ZTF21abc');
    expect(filter).toEqual({
      type: 'query_string',
      field: { fields: ['properties.ztf_object_id', 'locus_id'], query: '*ZTF21abc*' },
      text: 'ID Lookup: ZTF21abc',
    });
  });

  it('looks a diaObjectId up as a string term, digit for digit (above 2^53)', async () => {
    const id = '169298432598474793';
    const filter = await lookupFilter(id);
    expect(filter.text).toBe(`ID Lookup: ${id}`);
    const body = JSON.stringify(elasticsearchQuery([filter]));
    expect(body).toBe(`{"query":{"bool":{"filter":[{"term":{"${DIA_OBJECT_ID_FIELD}":"${id}"}}]}}}`);
    // A number would have been rounded: 169298432598474800.
    expect(String(Number(id))).not.toBe(id);
  });

  it('finds the locus of an alert id through GET /alerts/{id}', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url.endsWith('/alerts/lsst%3A169298432598474793')
        ? json(200, {
            data: {
              type: 'alert',
              id: 'lsst:169298432598474793',
              attributes: {},
              relationships: { locus: { data: { type: 'locus', id: 'ANT2026abcdefghijkl' } } },
            },
          })
        : json(404, { errors: [{ status: '404', title: 'Not Found', detail: 'No alert' }] }),
    );
    vi.stubGlobal('fetch', fetchMock);
    expect(await lookupFilter('lsst:169298432598474793')).toEqual({
      type: 'terms',
      field: 'locus_id',
      value: ['ANT2026abcdefghijkl'],
      text: 'ID Lookup: lsst:169298432598474793',
    });
    // An unknown alert matches nothing (an empty id list) rather than failing.
    expect(await lookupFilter('lsst_forced:1')).toEqual({ type: 'terms', field: 'locus_id', value: [], text: 'ID Lookup: lsst_forced:1' });
  });

  it('lets other failures of the alert request surface', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(500, { errors: [{ status: '500', title: 'Internal Server Error', detail: 'boom' }] })),
    );
    await expect(lookupFilter('lsst:1')).rejects.toThrow('boom');
  });
});

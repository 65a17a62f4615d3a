import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// Real ZTF packets ingested through the whole pipeline, then read back over HTTP as clients do.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ingest: ['ztf-avro-alert/samples', 'fink-broker/ztf_v3.3_20200101'] });
});
afterAll(async () => server?.close());

const listing = (query: unknown) => `elasticsearch_query%5Blocus_listing%5D=${encodeURIComponent(JSON.stringify(query))}`;

describe('GET /v1/loci', () => {
  it('lists loci newest first with count, paging links and thumbnails', async () => {
    const { status, body } = await server.getJson('/v1/loci?page%5Blimit%5D=5');
    expect(status).toBe(200);
    expect(body.data).toHaveLength(5);
    expect(body.meta.count).toBeGreaterThan(5);
    const times = body.data.map((d: any) => d.attributes.properties.newest_alert_observation_time);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(body.links.next).toContain('page%5Boffset%5D=5');
    const item = body.data[0];
    expect(item.type).toBe('locus_listing');
    expect(item.id).toMatch(/^ANT20\d\d[a-z0-9]{12}$/);
    expect(item.attributes.htm16).toBeGreaterThanOrEqual(2 ** 35);
    expect(item.relationships.alerts.links.related).toBe(`${server.url}/v1/loci/${item.id}/alerts`);
    expect(item.meta.newest_thumbnails.map((t: any) => t.data.attributes.thumbnail_type)).toEqual(['science', 'template', 'difference']);
    const png = await fetch(item.meta.newest_thumbnails[0].data.attributes.src);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await png.arrayBuffer()).slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  });

  it('follows links.next verbatim to the last page, which has none', async () => {
    let url: string | undefined = `${server.url}/v1/loci?page%5Blimit%5D=20`;
    const seen = new Set<string>();
    let count = 0;
    while (url) {
      const response = await fetch(url);
      const body: any = await response.json();
      count = body.meta.count;
      for (const d of body.data) seen.add(d.id);
      url = body.links.next;
    }
    expect(seen.size).toBe(count);
  });

  it('finds a locus by ZTF object id with the exact body antares-client sends', async () => {
    const query = { query: { bool: { filter: { term: { 'properties.ztf_object_id': 'ZTF18aaxjdyr' } } } } };
    const { body } = await server.getJson(`/v1/loci?${listing(query)}`);
    expect(body.meta.count).toBe(1);
    expect(body.data[0].attributes.properties.ztf_object_id).toBe('ZTF18aaxjdyr');
  });

  it('sorts on dotted property paths both ways', async () => {
    const up = await server.getJson('/v1/loci?sort=properties.num_mag_values&page%5Blimit%5D=100');
    const values = up.body.data.map((d: any) => d.attributes.properties.num_mag_values);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    const down = await server.getJson('/v1/loci?sort=-properties.brightest_alert_magnitude&page%5Blimit%5D=100');
    const mags = down.body.data.map((d: any) => d.attributes.properties.brightest_alert_magnitude);
    expect(mags).toEqual([...mags].sort((a, b) => b - a));
  });

  it('answers bad input with 400 JSON:API errors naming the problem', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/v1/loci?page%5Blimit%5D=0', /page\[limit\]/],
      ['/v1/loci?page%5Blimit%5D=1001', /page\[limit\]/],
      ['/v1/loci?page%5Boffset%5D=abc', /page\[offset\]/],
      ['/v1/loci?sort=nonsense', /Unknown sort field "nonsense"/],
      ['/v1/loci?elasticsearch_query%5Blocus_listing%5D=%7Bnot%20json', /not valid JSON/],
      [`/v1/loci?${listing({ aggs: {} })}`, /Unsupported top-level key "aggs"/],
      [`/v1/loci?${listing({ query: { geo_shape: {} } })}`, /Unsupported query clause "geo_shape"/],
      [`/v1/loci?${listing({ query: { range: { 'properties.num_mag_values': { gte: 'x' } } } })}`, /must be a number/],
      [`/v1/loci?${listing({ query: { sky_distance: { distance: 'far', htm16: { center: '1 2' } } } })}`, /distance/],
      [`/v1/loci?${listing({ query: { sky_distance: { distance: '1 degree', htm16: { center: '10 95' } } } })}`, /center/],
      [`/v1/loci?${listing([1, 2])}`, /JSON object/],
    ];
    for (const [path, message] of cases) {
      const { status, body } = await server.getJson(path);
      expect(status, path).toBe(400);
      expect(body.errors[0].status).toBe('400');
      expect(body.errors[0].detail, path).toMatch(message);
    }
  });

  it('supports terms, exists, wildcard, query_string, must_not, should and random order', async () => {
    const all = await server.getJson('/v1/loci?page%5Blimit%5D=3');
    const ids = all.body.data.map((d: any) => d.id);
    const terms = await server.getJson(`/v1/loci?${listing({ query: { terms: { locus_id: ids } } })}`);
    expect(terms.body.data.map((d: any) => d.id).sort()).toEqual([...ids].sort());
    const notThem = await server.getJson(`/v1/loci?${listing({ query: { bool: { must_not: { terms: { locus_id: ids } } } } })}`);
    expect(notThem.body.meta.count).toBe(all.body.meta.count - 3);
    const exists = await server.getJson(`/v1/loci?${listing({ query: { exists: { field: 'properties.survey.ztf.id' } } })}`);
    expect(exists.body.meta.count).toBe(all.body.meta.count);
    const lookup = await server.getJson(
      `/v1/loci?${listing({ query: { query_string: { query: '*aaxjdy*', fields: ['properties.ztf_object_id', 'locus_id'] } } })}`,
    );
    expect(lookup.body.data.map((d: any) => d.attributes.properties.ztf_object_id)).toEqual(['ZTF18aaxjdyr']);
    const wildcard = await server.getJson(`/v1/loci?${listing({ query: { wildcard: { 'properties.ztf_object_id': 'ZTF18aaxjd*' } } })}`);
    expect(wildcard.body.meta.count).toBe(1);
    const should = await server.getJson(
      `/v1/loci?${listing({ query: { bool: { should: ids.slice(0, 2).map((id: string) => ({ term: { locus_id: id } })) } } })}`,
    );
    expect(should.body.meta.count).toBe(2);
    const random = await server.getJson(`/v1/loci?${listing({ query: { function_score: { random_score: {} } } })}&page%5Blimit%5D=2`);
    expect(random.body.data).toHaveLength(2);
  });

  it('pages through a random order without repeating a locus, seeded or not', async () => {
    const count = (await server.getJson('/v1/loci?page%5Blimit%5D=1')).body.meta.count;
    for (const randomScore of [{}, { seed: 42 }]) {
      const seen: string[] = [];
      let next: string | undefined = `/v1/loci?${listing({ query: { function_score: { random_score: randomScore } } })}&page%5Blimit%5D=2`;
      while (next) {
        const page: any = await server.getJson(next.replace(/^https?:\/\/[^/]+/, ''));
        seen.push(...page.body.data.map((d: any) => d.id));
        next = page.body.links.next;
      }
      expect(seen.length).toBe(count);
      expect(new Set(seen).size).toBe(count);
    }
    const seeded = (seed: number) =>
      server
        .getJson(`/v1/loci?${listing({ query: { function_score: { random_score: { seed } } } })}`)
        .then((r) => r.body.data.map((d: any) => d.id));
    expect(await seeded(7)).toEqual(await seeded(7));
    const badSeed = await server.getJson(`/v1/loci?${listing({ query: { function_score: { random_score: {} } } })}&page%5Bseed%5D=x%27`);
    expect(badSeed.status).toBe(400);
  });

  it('answers the API root and unknown routes with 404 errors', async () => {
    for (const path of ['/v1/', '/v1/nothing-here']) {
      const { status, body } = await server.getJson(path);
      expect(status).toBe(404);
      expect(body.errors[0].status).toBe('404');
    }
  });
});

describe('GET /v1/loci/{id} and its alerts', () => {
  it('returns the locus with its lightcurve CSV and galactic coordinates', async () => {
    const first = (await server.getJson('/v1/loci?page%5Blimit%5D=1')).body.data[0];
    const { status, body } = await server.getJson(`/v1/loci/${first.id}`);
    expect(status).toBe(200);
    expect(body.data.type).toBe('locus');
    const lines = body.data.attributes.lightcurve.trim().split('\n');
    expect(lines[0]).toBe(
      'time,alert_id,ant_mjd,ant_survey,ant_ra,ant_dec,ant_passband,ant_mag,ant_magerr,ant_maglim,ant_mag_corrected,ant_magerr_corrected,ant_magulim_corrected,ant_magllim_corrected',
    );
    expect(lines.length - 1).toBe(body.data.attributes.properties.num_alerts);
    expect(body.meta.coordinates.galactic.l).toBeGreaterThanOrEqual(0);
    expect(Math.abs(body.meta.coordinates.galactic.b)).toBeLessThanOrEqual(90);

    const alerts = await server.getJson(`/v1/loci/${first.id}/alerts`);
    expect(alerts.body.data).toHaveLength(body.data.attributes.properties.num_alerts);
    const detection = alerts.body.data.find((a: any) => a.id.startsWith('ztf_candidate:'));
    const one = await server.getJson(`/v1/alerts/${encodeURIComponent(detection.id)}`);
    expect(one.body.data.attributes.properties).toEqual(detection.attributes.properties);
    expect(one.body.data.attributes.survey).toBe('ztf');
  });

  it('answers unknown ids with 404', async () => {
    for (const path of [
      '/v1/loci/ANT2020nothere',
      '/v1/loci/ANT2020nothere/alerts',
      '/v1/alerts/ztf_candidate:1',
      '/v1/alerts/x/thumbnails',
      '/v1/thumbnails/none.png',
    ]) {
      const { status, body } = await server.getJson(path);
      expect(status, path).toBe(404);
      expect(body.errors[0].detail).toBeTruthy();
    }
  });
});

describe('POST /v1/loci/{id}/finder-charts', () => {
  it('returns a PDF finder chart naming the locus', async () => {
    const first = (await server.getJson('/v1/loci?page%5Blimit%5D=1')).body.data[0];
    const response = await fetch(`${server.url}/v1/loci/${first.id}/finder-charts`, {
      method: 'POST',
      headers: { accept: 'application/pdf' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain(`antares-locus-${first.id}.pdf`);
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-8).toString()).toContain('%%EOF');
    expect(pdf.toString('latin1')).toContain(`ANTARES finder chart: ${first.id}`);
    // The science cutout is embedded as an image.
    expect(pdf.toString('latin1')).toMatch(/\/Subtype \/Image/);
  });

  it('answers 404 for an unknown locus', async () => {
    const response = await fetch(`${server.url}/v1/loci/ANT2020nothere/finder-charts`, { method: 'POST' });
    expect(response.status).toBe(404);
  });
});

describe('GET /v1/loci/statistics', () => {
  it('gives the measurement range of the loci matching a search', async () => {
    const { body } = await server.getJson('/v1/loci/statistics');
    const stats = body.data.attributes;
    expect(stats.min_num_measurements).toBeGreaterThanOrEqual(1);
    expect(stats.max_num_measurements).toBeGreaterThanOrEqual(stats.min_num_measurements);
    const query = { query: { bool: { filter: { term: { 'properties.ztf_object_id': 'ZTF18aaxjdyr' } } } } };
    const one = await server.getJson(
      `/v1/loci/statistics?elasticsearch_query%5Blocus_listing_statistic%5D=${encodeURIComponent(JSON.stringify(query))}`,
    );
    expect(one.body.data.attributes.min_num_measurements).toBe(one.body.data.attributes.max_num_measurements);
    expect(one.body.data.attributes.tags).toEqual({});
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestServer, type TestServer } from '../../testing/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('property catalogues', () => {
  it('lists every alert property with type, origin and description, sorted by id descending by default', async () => {
    const { status, body } = await server.getJson('/v1/alert_properties?page%5Blimit%5D=1000');
    expect(status).toBe(200);
    const ids = body.data.map((d: any) => d.id);
    expect(ids).toEqual([...ids].sort((a, b) => b.localeCompare(a)));
    expect(body.meta.count).toBe(body.data.length);
    for (const name of ['ant_mjd', 'ant_mag', 'ant_passband', 'ztf_magpsf', 'ztf_rb', 'ztf_candid']) expect(ids).toContain(name);
    for (const d of body.data) {
      expect(d.type).toBe('alert_property');
      expect(['int', 'float', 'str', 'bool']).toContain(d.attributes.type);
      expect(d.attributes.description.length).toBeGreaterThan(5);
      expect(d.attributes.origin).toMatch(/antares|ztf|lsst/);
    }
  });

  it('pages and sorts the locus properties', async () => {
    const first = await server.getJson('/v1/loci_properties?page%5Blimit%5D=5&sort=id');
    expect(first.body.data).toHaveLength(5);
    expect(first.body.links.next).toContain('page%5Boffset%5D=5');
    const ids = first.body.data.map((d: any) => d.id);
    expect(ids).toEqual([...ids].sort());
    const all = await server.getJson('/v1/loci_properties?page%5Blimit%5D=1000');
    const names = all.body.data.map((d: any) => d.id);
    for (const name of ['num_mag_values', 'newest_alert_observation_time', 'feature_amplitude_magn_g', 'feature_stetson_k_magn_r']) {
      expect(names).toContain(name);
    }
    const one = await server.getJson('/v1/loci_properties/num_mag_values');
    expect(one.body.data.attributes.type).toBe('int');
  });

  it('answers bad paging, unknown sort fields and unknown names with JSON:API errors', async () => {
    expect((await server.getJson('/v1/alert_properties?sort=bogus')).status).toBe(400);
    expect((await server.getJson('/v1/alert_properties?page%5Blimit%5D=-1')).status).toBe(400);
    const missing = await server.getJson('/v1/alert_properties/not_a_property');
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].detail).toContain('not_a_property');
  });
});

describe('site', () => {
  it('serves /config.json for the web app', async () => {
    const { body } = await server.getJson('/config.json');
    expect(body.apiURL).toBe(`${server.url}/v1/`);
    expect(body.frontendURL).toBe(`${server.url}/`);
    for (const key of ['supportEmail', 'issueTrackerURL', 'chatInvitationURL']) expect(typeof body[key]).toBe('string');
  });

  it('serves the OpenAPI document and a docs page from local files', async () => {
    const { body } = await server.getJson('/v1/openapi.json');
    expect(body.openapi).toMatch(/^3\./);
    expect(Object.keys(body.paths)).toContain('/v1/loci');
    const page = await fetch(`${server.url}/v1/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestServer, type TestServer } from '../testing/test-server.ts';

// Requests checked against the contract's schemas by Fastify (routes/endpoint.ts), answered as JSON:API
// errors naming the parameter (errors.ts), over HTTP against a real server.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const detail = async (path: string, init?: RequestInit) => {
  const response = await fetch(`${server.url}${path}`, init);
  const body = (await response.json()) as { errors?: Array<{ status: string; detail: string }> };
  return { status: response.status, detail: body.errors?.[0]?.detail, errorStatus: body.errors?.[0]?.status };
};

describe('requests checked against the contract', () => {
  it('refuses a bad page with the message that names the parameter and the value', async () => {
    expect(await detail('/v1/tags?page%5Blimit%5D=abc')).toEqual({
      status: 400,
      errorStatus: '400',
      detail: 'page[limit] must be a whole number from 1 to 1000, got "abc"',
    });
    expect((await detail('/v1/filter_runner?page%5Blimit%5D=1001')).detail).toBe(
      'page[limit] must be a whole number from 1 to 1000, got "1001"',
    );
    expect((await detail('/v1/tags?page%5Boffset%5D=-1')).detail).toBe('page[offset] must be a whole number of 0 or more, got "-1"');
    expect((await detail('/v1/filter_runner?page%5Boffset%5D=1009955070136293128928')).detail).toBe(
      'page[offset] must be a whole number of 0 or more, got "1009955070136293128928"',
    );
    expect((await server.getJson('/v1/tags?page%5Blimit%5D=2&page%5Boffset%5D=0')).status).toBe(200);
  });

  it('refuses numbers that read as infinite (Infinity, 1e400) with the parameter wording, not a 500', async () => {
    expect(await detail('/v1/filters?page%5Boffset%5D=Infinity')).toEqual({
      status: 400,
      errorStatus: '400',
      detail: 'page[offset] must be a whole number of 0 or more, got "Infinity"',
    });
    expect((await detail('/v1/tags?page%5Blimit%5D=-Infinity')).detail).toBe(
      'page[limit] must be a whole number from 1 to 1000, got "-Infinity"',
    );
    expect((await detail('/v1/filter_runner?page%5Boffset%5D=1e400')).detail).toBe(
      'page[offset] must be a whole number of 0 or more, got "1e400"',
    );
  });

  it('refuses a parameter given twice', async () => {
    expect(await detail('/v1/tags?sort=id&sort=-id')).toMatchObject({
      status: 400,
      detail: 'Parameter sort was given 2 times; give it once',
    });
  });

  it("holds values to the contract's ranges and allow-lists", async () => {
    expect(await detail('/v1/catalog_samples?n=0')).toMatchObject({ status: 400, detail: 'n must be a whole number from 1 to 100' });
    expect(await detail('/v1/catalog_samples?n=2.5')).toMatchObject({ status: 400, detail: 'n must be a whole number from 1 to 100' });
    expect((await server.getJson('/v1/catalog_samples?n=100')).status).toBe(200);
    expect(await detail('/v1/catalog_search/360/0')).toMatchObject({ status: 400, detail: 'ra must be a number of degrees from 0 to 360' });
    expect(await detail('/v1/catalog_search/10/north')).toMatchObject({
      status: 400,
      detail: 'dec must be a number of degrees from -90 to 90',
    });
    expect((await server.getJson('/v1/catalog_search/359.5/-90')).status).toBe(200);
    expect(await detail('/v1/loci/ANT2020abc/catalog-matches?sort=ra')).toMatchObject({
      status: 400,
      detail: 'sort must be meta.separation or -meta.separation',
    });
  });

  it('checks who may call an endpoint before its input: anonymous callers of an admin endpoint hear 401', async () => {
    const answer = await detail('/v1/filter_runner/x?page%5Blimit%5D=abc', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{"enabled": "maybe"}',
    });
    expect(answer).toMatchObject({ status: 401, detail: 'Must be authenticated to call update_filter_runner' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestServer, type TestServer } from '../../testing/test-server.ts';

// The OpenAPI document against the server itself: an operation for every route the server registers
// (and none it lacks), a cheap structural check of OpenAPI 3.1, the access marking against what an
// anonymous caller really gets, and the docs page served from our own files.

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Swagger UI's own files (and the document again as JSON and YAML): not part of the API. */
const isDocsUi = (route: string) => /^[A-Z]+ \/v1\/docs(\/|$)/.test(route);

let server: TestServer;
let doc: Json;

beforeAll(async () => {
  server = await startTestServer();
  const response = await server.getJson('/v1/openapi.json');
  expect(response.status).toBe(200);
  doc = response.body;
});
afterAll(async () => server?.close());

/** Every operation of the document, with its route as Fastify names it ("POST /v1/users/:userId/filters"). */
function operations(): Array<{ route: string; path: string; method: string; operation: Json; pathItem: Json }> {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, pathItem]) =>
    METHODS.filter((method) => pathItem[method]).map((method) => ({
      route: `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`,
      path,
      method,
      operation: pathItem[method],
      pathItem,
    })),
  );
}

describe('the OpenAPI document and the routes', () => {
  it('has an operation for every /v1 route the server registers, and none the server lacks', () => {
    const documented = new Set(operations().map((o) => o.route));
    const required = server.routes.filter((route) => / \/v1(\/|$)/.test(route) && !isDocsUi(route));
    expect(required.length).toBeGreaterThan(60);
    expect(
      required.filter((route) => !documented.has(route)),
      'routes without an operation',
    ).toEqual([]);
    expect(
      [...documented].filter((route) => !server.routes.includes(route)),
      'operations without a route',
    ).toEqual([]);
    expect(documented.size).toBe(operations().length);
  });
});

describe('OpenAPI 3.1 structure', () => {
  it('has the top-level members and every operation is complete', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(typeof doc.info?.title).toBe('string');
    expect(typeof doc.info?.version).toBe('string');
    const problems: string[] = [];
    const operationIds = new Map<string, string>();
    const tagNames = new Set((doc.tags ?? []).map((t: Json) => t.name));
    for (const { route, operation } of operations()) {
      if (!(typeof operation.summary === 'string' && operation.summary.length > 0)) problems.push(`${route}: no summary`);
      if (typeof operation.operationId !== 'string') problems.push(`${route}: no operationId`);
      else if (operationIds.has(operation.operationId))
        problems.push(`${route}: operationId ${operation.operationId} also on ${operationIds.get(operation.operationId)}`);
      else operationIds.set(operation.operationId, route);
      for (const tag of operation.tags ?? []) if (!tagNames.has(tag)) problems.push(`${route}: undeclared tag ${tag}`);
      const responses = Object.entries((operation.responses ?? {}) as Record<string, Json>);
      if (responses.length === 0) problems.push(`${route}: no responses`);
      if (!responses.some(([status]) => /^2\d\d$/.test(status))) problems.push(`${route}: no success response`);
      for (const [status, response] of responses) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problems.push(`${route}: bad status ${status}`);
        if (typeof response.description !== 'string' && !response.$ref) problems.push(`${route} ${status}: no description`);
      }
      if (operation.requestBody && !operation.requestBody.content) problems.push(`${route}: requestBody without content`);
    }
    expect(problems).toEqual([]);
  });

  it('declares every path parameter of every path, and no other', () => {
    const problems: string[] = [];
    for (const { route, path, operation, pathItem } of operations()) {
      const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])] as Json[];
      const seen = new Set<string>();
      for (const p of parameters) {
        if (!['query', 'header', 'path', 'cookie'].includes(p.in) || typeof p.name !== 'string')
          problems.push(`${route}: bad parameter ${JSON.stringify(p)}`);
        if (!p.schema && !p.content) problems.push(`${route}: parameter ${p.name} without schema`);
        if (seen.has(`${p.in} ${p.name}`)) problems.push(`${route}: parameter ${p.in} ${p.name} twice`);
        seen.add(`${p.in} ${p.name}`);
        if (p.in === 'path' && p.required !== true) problems.push(`${route}: path parameter ${p.name} not required`);
      }
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = parameters
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      if (JSON.stringify(templated) !== JSON.stringify(declared))
        problems.push(`${route}: path has {${templated}} but declares {${declared}}`);
    }
    expect(problems).toEqual([]);
  });

  it('resolves every $ref and names only declared security schemes', () => {
    const unresolved: string[] = [];
    const resolve = (pointer: string) =>
      pointer
        .slice(2)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<any>((node, key) => (node === undefined ? undefined : node[key]), doc);
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${at}/${i}`));
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && (typeof value !== 'string' || !value.startsWith('#/') || resolve(value) === undefined))
            unresolved.push(`${at}: ${String(value)}`);
          else walk(value, `${at}/${key}`);
        }
      }
    };
    walk(doc, '#');
    expect(unresolved).toEqual([]);
    const schemes = new Set(Object.keys(doc.components?.securitySchemes ?? {}));
    expect([...schemes].sort()).toEqual(['bearerAuth', 'cookieAuth', 'csrfToken', 'refreshCookie']);
    const unknown = operations().flatMap(({ route, operation }) =>
      ((operation.security ?? []) as Json[]).flatMap((requirement) =>
        Object.keys(requirement)
          .filter((name) => !schemes.has(name))
          .map((name) => `${route}: ${name}`),
      ),
    );
    expect(unknown).toEqual([]);
  });

  it('asks for the CSRF header with cookie sessions on every unsafe operation that reads a session', () => {
    const problems = operations()
      .filter(({ method, operation }) => method !== 'get' && operation['x-antares-access'] !== 'public')
      .flatMap(({ route, operation }) =>
        ((operation.security ?? []) as Json[])
          .filter((requirement) => ('cookieAuth' in requirement || 'refreshCookie' in requirement) && !('csrfToken' in requirement))
          .map(() => route),
      );
    expect(problems).toEqual([]);
  });
});

describe('access marking', () => {
  it('matches what an anonymous caller gets: 401 where a login is needed, never 401/403 where it is not', async () => {
    const failures: string[] = [];
    const counts: Record<string, number> = {};
    for (const { route, path, method, operation } of operations()) {
      const access = operation['x-antares-access'];
      counts[access] = (counts[access] ?? 0) + 1;
      // Placeholders: numbers where the path takes a number (ids, ra/dec), else a name nothing has.
      const url = path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
        /Id$|^id$|^ra$|^dec$/.test(name) && name !== 'locusId' && name !== 'alertId' && name !== 'gracedbId' && name !== 'uploadId'
          ? '1'
          : 'none',
      );
      // Reset checks the new password before the caller; give it one that passes.
      const body = method === 'get' ? undefined : JSON.stringify(route === 'POST /v1/auth/reset' ? { password: 'Changed2027' } : {});
      const response = await fetch(`${server.url}${url}`, {
        method: method.toUpperCase(),
        body,
        headers: body ? { 'content-type': 'application/json' } : {},
      });
      await response.arrayBuffer();
      const needsLogin = access === 'login' || access === 'admin';
      if (needsLogin && response.status !== 401) failures.push(`${route} (${access}): anonymous got ${response.status}, expected 401`);
      if (!needsLogin && (response.status === 401 || response.status === 403))
        failures.push(`${route} (${access}): anonymous got ${response.status}`);
      if (!String(response.status).startsWith('2') && !(String(response.status) in operation.responses)) {
        failures.push(`${route}: anonymous got ${response.status}, which the document does not list`);
      }
    }
    expect(failures).toEqual([]);
    expect(Object.keys(counts).sort()).toEqual(['admin', 'login', 'optional', 'public']);
  });
});

describe('/v1/docs', () => {
  it('serves Swagger UI from our own files, showing this document', async () => {
    const page = await fetch(`${server.url}/v1/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(3);
    expect(
      assets.filter((asset) => /^(https?:)?\/\//.test(asset)),
      'external assets',
    ).toEqual([]);
    for (const asset of assets) {
      const response = await fetch(new URL(asset, `${server.url}/v1/docs`));
      expect(response.status, asset).toBe(200);
      const text = await response.text();
      if (asset.endsWith('swagger-initializer.js')) {
        expect(text).toContain("resolveUrl('./json')");
        expect(text).toContain('validatorUrl: null');
      }
    }
    const shown = await server.getJson('/v1/docs/json');
    expect(shown.status).toBe(200);
    expect(Object.keys(shown.body.paths)).toEqual(Object.keys(doc.paths));
  });
});

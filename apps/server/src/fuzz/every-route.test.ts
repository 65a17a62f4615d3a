import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FuzzServer } from './fuzz-server.ts';
import { answerProblem, sendRaw } from './raw-http.ts';
import { type FuzzRequest, routeRequests, SELF } from './route-requests.ts';

// Property-based fuzzing of every route the server registers (hardening, issue 16): random path
// parameters, query strings, headers and bodies, full of NUL characters, lone surrogates, prototype
// names, enormous numbers, broken encodings and wrong types, sent anonymously, as a signed-in user and
// as an administrator. Whatever comes in, the answer is never a 5xx, every error is a JSON:API error
// document, and the server still answers afterwards. Seeded and bounded: the same requests every run
// (ANTARES_FUZZ_SEED and ANTARES_FUZZ_RUNS explore further).
const SEED = Number(process.env.ANTARES_FUZZ_SEED ?? 16_2026);
const RUNS = Number(process.env.ANTARES_FUZZ_RUNS ?? 3000);

let fuzz: FuzzServer;
let openApi: Parameters<typeof routeRequests>[1];

beforeAll(async () => {
  fuzz = await FuzzServer.start();
  const answer = await sendRaw(fuzz.url, { method: 'GET', path: '/v1/openapi.json' });
  openApi = JSON.parse(answer.text);
}, 180_000);
afterAll(async () => fuzz?.close());

async function send(request: FuzzRequest) {
  const self = request.caller === 'anonymous' ? '0' : String(await fuzz.userIdOf(request.caller));
  return fuzz.send(
    request.caller,
    { method: request.method, path: request.path.replaceAll(SELF, self), headers: request.headers, body: request.body },
    { csrf: request.csrf },
  );
}

describe('every route under hostile input', () => {
  it('reads the routes from the server and their inputs from its OpenAPI document', () => {
    expect(fuzz.routes.length).toBeGreaterThan(60);
    const documented = fuzz.routes.filter((route) => {
      const [method, url] = route.split(' ');
      return openApi.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()] !== undefined;
    });
    // The documentation UI's own files have no operations; every API route has one.
    expect(fuzz.routes.filter((route) => !documented.includes(route) && !route.includes('/v1/docs'))).toEqual([]);
  });

  it('never answers 5xx, answers every error as JSON:API, and stays up', async () => {
    const seen = new Map<string, number>();
    const statuses = new Map<number, number>();
    const byRoute = new Map<string, Map<number, number>>();
    await fc.assert(
      fc.asyncProperty(routeRequests(fuzz.routes, openApi, fuzz.ids), async (request) => {
        seen.set(request.route, (seen.get(request.route) ?? 0) + 1);
        const answer = await send(request);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const counts = byRoute.get(request.route) ?? new Map<number, number>();
        byRoute.set(request.route, counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1));
        const problem = answerProblem(answer, request.method);
        if (problem) throw new Error(`${request.caller} ${request.method} ${request.path.slice(0, 300)}: ${problem}`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // ANTARES_FUZZ_REPORT=1: the answers each route gave, to see how deep the random requests reach.
    if (process.env.ANTARES_FUZZ_REPORT) {
      for (const [route, counts] of [...byRoute].sort())
        console.log(
          route.padEnd(60),
          [...counts]
            .sort()
            .map(([s, n]) => `${s}:${n}`)
            .join(' '),
        );
    }
    // Every route was tried (the runs are spread over them), most of them many times.
    expect(fuzz.routes.filter((route) => !seen.has(route))).toEqual([]);
    // Not only refusals: some random requests got through to real answers.
    expect([...statuses.keys()].some((status) => status < 300)).toBe(true);
    const health = await sendRaw(fuzz.url, { method: 'GET', path: '/v1/loci?page%5Blimit%5D=1' });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text).data).toHaveLength(1);
  }, 300_000);
});

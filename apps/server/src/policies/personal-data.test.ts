import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Caller, FuzzServer } from '../fuzz/fuzz-server.ts';
import { sendRaw } from '../fuzz/raw-http.ts';

// No personal data in a public document (issue 16): every GET route the server registers, with its path
// parameters filled with real ids (the fuzzing fixture's: a public, enabled filter of another account
// with a version, a tag and a stream, a watch list, an annotation, an announcement, a GW notice, an
// upload), is read by an anonymous visitor and by another ordinary user, plain and with `include=` of each
// relationship its answer names (and `owner`, whether named or not). No answer may contain the e-mail
// address of any user but the caller.
let fuzz: FuzzServer;
let emails: string[] = [];
/** Path parameter values the fixture lacks. */
const extraIds = new Map<string, string[]>();

beforeAll(async () => {
  fuzz = await FuzzServer.start();
  // The fixture's filter, made public: its owner is then shown to everyone.
  for (const id of fuzz.ids.get('filterId') ?? []) await fuzz.server.repos.filters.update(Number(id), { public: true });
  // A thumbnail, if the fixture's first alerts had none: from any alert of its loci that has cutouts.
  if (!fuzz.ids.get('filename')?.length) {
    for (const locusId of fuzz.ids.get('locusId') ?? []) {
      const alerts = JSON.parse((await sendRaw(fuzz.url, { method: 'GET', path: `/v1/loci/${locusId}/alerts` })).text).data as Array<{
        id: string;
      }>;
      for (const alert of alerts) {
        const thumbnails = JSON.parse(
          (await sendRaw(fuzz.url, { method: 'GET', path: `/v1/alerts/${encodeURIComponent(alert.id)}/thumbnails` })).text,
        ).data as Array<{ id: string }>;
        if (thumbnails.length > 0 && !extraIds.has('filename')) extraIds.set('filename', [thumbnails[0].id]);
      }
    }
  }
}, 180_000);
afterAll(async () => fuzz?.close());

/** Every path of `route` ("GET /v1/x/:id") with each real value of each parameter; a parameter without values is an error. */
function pathsOf(route: string, selfId: string): string[] {
  let paths = [''];
  for (const segment of route.split(' ')[1].split('/').slice(1)) {
    let values = [segment];
    if (segment === '*') values = ['swagger-ui.css'];
    else if (segment.startsWith(':')) {
      const name = segment.slice(1);
      values = [...(fuzz.ids.get(name) ?? []), ...(extraIds.get(name) ?? []), ...(name === 'userId' ? [selfId] : [])].map(
        encodeURIComponent,
      );
      if (values.length === 0) throw new Error(`${route}: no real value for :${name} (add one to fuzz-server.ts)`);
    }
    paths = paths.flatMap((prefix) => values.map((value) => `${prefix}/${value}`));
  }
  return paths;
}

/** Relationship names in a JSON:API answer (of its data and included resources). */
function relationshipsOf(text: string): string[] {
  let document: { data?: unknown; included?: unknown };
  try {
    document = JSON.parse(text);
  } catch {
    return [];
  }
  const resources = [document?.data, document?.included]
    .flat()
    .filter((r): r is { relationships?: Record<string, unknown> } => typeof r === 'object' && r !== null);
  return [...new Set(resources.flatMap((r) => Object.keys(r.relationships ?? {})))];
}

async function walk(caller: Exclude<Caller, 'admin'>): Promise<{ requests: number; leaks: string[]; answered: Set<string> }> {
  const selfId = caller === 'anonymous' ? '0' : String(await fuzz.userIdOf(caller));
  const ownEmail = caller === 'anonymous' ? undefined : (await fuzz.server.repos.users.findById(Number(selfId)))!.email.toLowerCase();
  const others = emails.filter((email) => email !== ownEmail);
  const leaks: string[] = [];
  const answered = new Set<string>();
  let requests = 0;
  const read = async (route: string, path: string) => {
    requests++;
    const answer = await fuzz.send(caller, { method: 'GET', path, headers: { 'accept-encoding': 'identity' } });
    if (answer.status === 200) answered.add(route);
    const text = answer.text.toLowerCase();
    for (const email of others) if (text.includes(email)) leaks.push(`${caller} GET ${path}: ${email}`);
    return answer.text;
  };
  for (const route of fuzz.routes.filter((r) => r.startsWith('GET '))) {
    for (const path of pathsOf(route, selfId)) {
      const plain = await read(route, path);
      const names = [...new Set(['owner', ...relationshipsOf(plain)])];
      const join = path.includes('?') ? '&' : '?';
      for (const include of [...names, names.join(',')]) {
        const withIncludes = await read(route, `${path}${join}include=${encodeURIComponent(include)}`);
        for (const name of relationshipsOf(withIncludes))
          if (!names.includes(name)) await read(route, `${path}${join}include=${encodeURIComponent(name)}`);
      }
    }
  }
  return { requests, leaks, answered };
}

describe('personal data in documents', () => {
  it("shows a public filter's owner by name to everyone, and the e-mail only to admins (the search would see it)", async () => {
    const owner = (await fuzz.server.repos.users.findByUsername('fuzz-owner'))!;
    const filterId = fuzz.ids.get('filterId')![0];
    for (const caller of ['anonymous', 'user'] as const) {
      for (const path of ['/v1/filters?include=owner', `/v1/filters/${filterId}?include=owner`]) {
        const answer = JSON.parse((await fuzz.send(caller, { method: 'GET', path })).text);
        const included = answer.included.find((r: { id: string }) => r.id === String(owner.user_id));
        expect(included.attributes, `${caller} ${path}`).toEqual({ username: 'fuzz-owner', name: owner.name });
      }
    }
    const asAdmin = await fuzz.send('admin', { method: 'GET', path: `/v1/filters/${filterId}?include=owner` });
    expect(asAdmin.text).toContain(owner.email);
  });

  it("leaks no user's e-mail on any GET route, to anonymous visitors or to another user, whatever is included", async () => {
    const all = await fuzz.server.repos.users.list({ sort: 'username', limit: 10_000, offset: 0 });
    // The callers' accounts exist before the addresses are collected.
    await fuzz.userIdOf('user');
    emails = (await fuzz.server.repos.users.list({ sort: 'username', limit: 10_000, offset: 0 })).rows.map((u) => u.email.toLowerCase());
    expect(emails.length).toBeGreaterThan(all.rows.length - 1);
    expect(emails).toContain('fuzz-owner@example.org');
    for (const caller of ['anonymous', 'user'] as const) {
      const { requests, leaks, answered } = await walk(caller);
      expect(leaks, caller).toEqual([]);
      expect(requests).toBeGreaterThan(fuzz.routes.filter((r) => r.startsWith('GET ')).length * 2);
      // The walk reached real documents, not only refusals: the public lists and the filter of another account.
      for (const route of [
        'GET /v1/filters',
        'GET /v1/filters/:filterId',
        'GET /v1/loci/:locusId',
        'GET /v1/tags/:name',
        'GET /v1/streams/:name/messages',
      ]) {
        expect(answered.has(route), `${caller} ${route}`).toBe(true);
      }
    }
    // The server still answers (the walk ends no session and breaks nothing).
    expect((await sendRaw(fuzz.url, { method: 'GET', path: '/v1/loci?page%5Blimit%5D=1' })).status).toBe(200);
  }, 300_000);
});

import { responseProblems } from '@antares/contract/endpoints';
import { describe, expect, it } from 'vitest';

import { CALLERS, fx, ids, sessions, the, usePermissionServer } from './permission-fixtures.ts';
import { contract, matrix, send } from './permission-matrix.ts';

// Every route of the server against the permission matrix (permission-matrix.ts): the one place that
// checks that each route has its row.
usePermissionServer();

describe('permission matrix', () => {
  it('has an entry for every route the server registers, and no entry for a route it does not', () => {
    const entries = new Set(matrix().map((entry) => entry.route));
    const missing = the.server.routes.filter((route) => !entries.has(route));
    expect(missing, 'routes without a permission matrix entry').toEqual([]);
    expect(
      [...entries].filter((route) => !the.server.routes.includes(route)),
      'entries for routes that do not exist',
    ).toEqual([]);
    expect(the.server.routes.length).toBeGreaterThan(60);
  });

  it('agrees with the access each endpoint of the contract declares', () => {
    const failures: string[] = [];
    for (const entry of matrix()) {
      const access = contract.get(entry.route)?.access;
      // The session calls check the credentials they carry (a password, a token), not a session first.
      if (!access || contract.get(entry.route)?.credentials) continue;
      const refusesAnonymous = entry.expect.anonymous === 401;
      if (refusesAnonymous !== (access === 'login' || access === 'admin'))
        failures.push(`${entry.route}: contract says ${access}, anonymous expected ${entry.expect.anonymous}`);
      if (access === 'admin' && entry.expect.user !== 403) failures.push(`${entry.route}: admin only, user expected ${entry.expect.user}`);
    }
    expect(failures).toEqual([]);
    expect([...contract.keys()].filter((route) => !matrix().some((entry) => entry.route === route))).toEqual([]);
  });

  it('gives each caller the expected status on every route', async () => {
    const failures: string[] = [];
    for (const entry of matrix()) {
      const method = entry.route.split(' ')[0];
      for (const who of CALLERS) {
        const call = await entry.call(who);
        const response = await send(who, call, method);
        const where = `${who} ${method} ${call.path}${entry.note ? ` (${entry.note})` : ''}`;
        const described = contract.get(entry.route);
        if (response.status !== entry.expect[who]) {
          failures.push(
            `${where}: ${response.status}, expected ${entry.expect[who]} ${JSON.stringify(response.body?.errors?.[0]?.detail ?? '')}`,
          );
        } else if (described && response.status === described.response.status && !call.stream) {
          const problems = responseProblems(described, response.body);
          if (problems.length) failures.push(`${where}: the answer does not match the contract: ${problems.join('; ')}`);
        } else if (
          who === 'anonymous' &&
          response.status === 401 &&
          !entry.ownAnonymousMessage &&
          !/^Must be authenticated to call \w+$/.test(response.body?.errors?.[0]?.detail ?? '')
        ) {
          failures.push(`${where}: 401 without "Must be authenticated to call {operation}": ${JSON.stringify(response.body)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("refuses every unsafe call of a cookie session without the CSRF header (403), even an admin's", async () => {
    const failures: string[] = [];
    const unsafe = matrix().filter((entry) => !entry.route.startsWith('GET ') && entry.expect.anonymous === 401);
    expect(unsafe.length).toBeGreaterThan(20);
    for (const entry of unsafe) {
      const method = entry.route.split(' ')[0];
      const call = await entry.call('admin');
      // Refresh and logout are checked on a fresh session of their own; the others on the admin's.
      const session = call.session ?? sessions.admin;
      if (entry.route.includes('/auth/login')) continue; // logging in needs no session
      const response = await send('admin', { ...call, session }, method, { csrf: false });
      if (response.status !== 403 || !/CSRF/.test(response.body?.errors?.[0]?.detail ?? '')) {
        failures.push(
          `admin ${method} ${call.path} without X-CSRF-TOKEN: ${response.status} ${JSON.stringify(response.body?.errors?.[0]?.detail ?? '')}`,
        );
      }
    }
    expect(failures).toEqual([]);
    // The refused logout ended nothing.
    expect((await sessions.admin.get('/v1/auth/check')).status).toBe(200);
  });
});

describe('what another user sees', () => {
  it("lists none of the user's annotations, watch lists or private filters to another user", async () => {
    const { other, user, anonymous } = sessions;
    const listed = (await other.get('/v1/filters?page%5Blimit%5D=100')).body.data.map((f: { id: string }) => Number(f.id));
    expect(listed).toContain(fx.publicFilter);
    expect(listed).not.toContain(fx.privateFilter);
    expect((await anonymous.get('/v1/filters?page%5Blimit%5D=100')).body.data.map((f: { id: string }) => Number(f.id))).not.toContain(
      fx.privateFilter,
    );
    expect((await user.get('/v1/filters?page%5Blimit%5D=100')).body.data.map((f: { id: string }) => Number(f.id))).toContain(
      fx.privateFilter,
    );
    // Another user's records stay as they were after every refused call of the matrix.
    const annotations = (await user.get(`/v1/users/${ids.user}/locus_annotations`)).body.data;
    expect(annotations.map((a: any) => a.relationships.owner.data.id)).toEqual(annotations.map(() => String(ids.user)));
    expect(
      (await other.get(`/v1/users/${ids.other}/locus_annotations`)).body.data.every(
        (a: any) => a.relationships.owner.data.id === String(ids.other),
      ),
    ).toBe(true);
  });
});

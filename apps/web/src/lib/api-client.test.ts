import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./config', () => ({ getConfig: () => ({ apiURL: 'http://app.test/v1' }) }));

const { apiFetch, ApiError, canRefresh, onSessionEnded } = await import('./api-client');

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  credentials?: string;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const expired = () => json(401, { errors: [{ status: '401', title: 'Unauthorized', detail: 'Token has expired' }] });

describe('apiFetch', () => {
  let calls: Call[];
  let answers: Response[];
  let cookies: Record<string, string>;
  let ended: number;

  beforeEach(() => {
    calls = [];
    answers = [];
    cookies = { csrf_access_token: 'access-1', csrf_refresh_token: 'refresh-1' };
    ended = 0;
    onSessionEnded(() => {
      ended += 1;
    });
    vi.stubGlobal('document', {
      get cookie() {
        return Object.entries(cookies)
          .map(([k, v]) => `${k}=${v}`)
          .join('; ');
      },
    });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, credentials: init.credentials });
      const answer = answers.shift();
      if (!answer) throw new Error(`unexpected call ${url}`);
      // A refresh sets a new access cookie.
      if (url.includes('/auth/refresh') && answer.ok) cookies.csrf_access_token = 'access-2';
      return answer;
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends credentials and the access CSRF header on unsafe methods only', async () => {
    answers.push(json(200, {}), json(201, {}));
    await apiFetch('/loci');
    await apiFetch('/locus_annotations', { method: 'POST', body: { data: {} } });
    expect(calls[0].credentials).toBe('include');
    expect(calls[0].headers['X-CSRF-TOKEN']).toBeUndefined();
    expect(calls[1].headers['X-CSRF-TOKEN']).toBe('access-1');
    expect(calls[1].headers['Content-Type']).toBe('application/vnd.api+json');
  });

  it('refreshes once on an expired token and retries with the new CSRF value', async () => {
    answers.push(expired(), json(200, { identity: '1' }), json(200, { ok: true }));
    const response = await apiFetch('/locus_annotations/3', { method: 'PATCH', body: {} });
    expect(await response.json()).toEqual({ ok: true });
    expect(calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual([
      'PATCH /v1/locus_annotations/3',
      'POST /v1/auth/refresh',
      'PATCH /v1/locus_annotations/3',
    ]);
    expect(new URL(calls[1].url).searchParams.get('type')).toBe('cookie');
    expect(calls[1].headers['X-CSRF-TOKEN']).toBe('refresh-1');
    expect(calls[2].headers['X-CSRF-TOKEN']).toBe('access-2');
    expect(ended).toBe(0);
  });

  it('logs out when the refresh is refused and throws the original error', async () => {
    answers.push(expired(), json(401, { errors: [{ status: '401', detail: 'Token has been revoked' }] }));
    const error = await apiFetch('/auth/check').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as InstanceType<typeof ApiError>).errors[0].detail).toBe('Token has expired');
    expect(ended).toBe(1);
  });

  it('does not refresh twice: a second expiry after the retry is final', async () => {
    answers.push(expired(), json(200, {}), expired());
    await expect(apiFetch('/auth/check')).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(3);
  });

  it('shares one refresh between concurrent calls', async () => {
    answers.push(expired(), expired(), json(200, {}), json(200, { a: 1 }), json(200, { b: 2 }));
    await Promise.all([apiFetch('/users/1'), apiFetch('/users/1/locus_annotations')]);
    expect(calls.filter((c) => c.url.includes('/auth/refresh'))).toHaveLength(1);
  });

  it('treats a 401 without the access cookie but with the refresh cookie as expired (the browser dropped it)', async () => {
    delete cookies.csrf_access_token;
    const missing = new ApiError(401, [{ detail: 'Must be authenticated to call check' }]);
    expect(canRefresh(missing)).toBe(true);
    delete cookies.csrf_refresh_token;
    expect(canRefresh(missing)).toBe(false);
  });

  it('never refreshes for other failures, the session calls or bearer (reset link) calls', async () => {
    answers.push(json(403, { errors: [{ detail: 'Forbidden' }] }), expired(), expired());
    await expect(apiFetch('/users')).rejects.toMatchObject({ status: 403 });
    await expect(apiFetch('/auth/login', { method: 'POST', body: {} })).rejects.toMatchObject({ status: 401 });
    await expect(apiFetch('/auth/reset', { method: 'POST', body: {}, bearer: 'tok' })).rejects.toMatchObject({ status: 401 });
    expect(calls.some((c) => c.url.includes('/auth/refresh'))).toBe(false);
    // The reset link's token goes in Authorization, without cookies or the CSRF header.
    expect(calls[2].headers.Authorization).toBe('Bearer tok');
    expect(calls[2].headers['X-CSRF-TOKEN']).toBeUndefined();
    expect(calls[2].credentials).toBe('omit');
  });

  it('turns a text error body into statusText: body', async () => {
    answers.push(new Response('upstream down', { status: 502, statusText: 'Bad Gateway' }));
    await expect(apiFetch('/loci')).rejects.toMatchObject({ status: 502, message: 'Bad Gateway: upstream down' });
  });
});

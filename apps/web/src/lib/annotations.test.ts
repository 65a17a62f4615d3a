import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./config', () => ({ getConfig: () => ({ apiURL: 'http://app.test/v1' }) }));

const { getAnnotations, saveAnnotation } = await import('./annotations');

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const resource = (id: string, locus: string, attributes: object) => ({
  type: 'locus_annotation',
  id,
  attributes,
  relationships: { locus: { data: { type: 'locus', id: locus } } },
});

describe('locus annotations', () => {
  let calls: { method: string; url: URL; body: unknown }[];
  let answers: Response[];

  beforeEach(() => {
    calls = [];
    answers = [];
    vi.stubGlobal('document', { cookie: 'csrf_access_token=c1' });
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      calls.push({ method: init.method ?? 'GET', url: new URL(url), body: init.body ? JSON.parse(String(init.body)) : undefined });
      return answers.shift() ?? json(500, {});
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reads every page of 1000 by offset until meta.count', async () => {
    const page = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => resource(String(from + i), `L${from + i}`, { comment: '', favorited: i % 2 === 0 }));
    answers.push(json(200, { data: page(0, 1000), meta: { count: 1500 } }), json(200, { data: page(1000, 500), meta: { count: 1500 } }));
    const map = await getAnnotations('7');
    expect(Object.keys(map)).toHaveLength(1500);
    expect(map.L1001).toEqual({ id: '1001', locusId: 'L1001', comment: '', favorited: false });
    expect(calls.map((c) => [c.url.pathname, c.url.searchParams.get('page[limit]'), c.url.searchParams.get('page[offset]')])).toEqual([
      ['/v1/users/7/locus_annotations', '1000', '0'],
      ['/v1/users/7/locus_annotations', '1000', '1000'],
    ]);
  });

  it('creates a missing annotation with favorited false and an empty comment plus the changes', async () => {
    answers.push(json(201, { data: resource('5', 'L1', { comment: '', favorited: true }) }));
    const saved = await saveAnnotation('7', undefined, 'L1', { favorited: true });
    expect(saved).toEqual({ id: '5', locusId: 'L1', comment: '', favorited: true });
    expect(calls[0].method).toBe('POST');
    expect(calls[0].url.pathname).toBe('/v1/locus_annotations');
    expect(calls[0].body).toEqual({
      data: {
        type: 'locus_annotation',
        attributes: { comment: '', favorited: true },
        relationships: { locus: { data: { type: 'locus', id: 'L1' } } },
      },
    });
  });

  it('updates an existing annotation with only the changes', async () => {
    answers.push(json(200, { data: resource('5', 'L1', { comment: 'note', favorited: true }) }));
    await saveAnnotation('7', { id: '5', locusId: 'L1', comment: '', favorited: true }, 'L1', { comment: 'note' });
    expect(calls[0].method).toBe('PATCH');
    expect(calls[0].url.pathname).toBe('/v1/locus_annotations/5');
    expect(calls[0].body).toEqual({ data: { type: 'locus_annotation', id: '5', attributes: { comment: 'note' } } });
  });

  it('falls back to an update when the annotation was created meanwhile (409)', async () => {
    answers.push(
      json(409, { errors: [{ status: '409', detail: 'exists' }] }),
      json(200, { data: [resource('9', 'L1', { comment: 'x', favorited: false })], meta: { count: 1 } }),
      json(200, { data: resource('9', 'L1', { comment: 'x', favorited: true }) }),
    );
    const saved = await saveAnnotation('7', undefined, 'L1', { favorited: true });
    expect(saved.id).toBe('9');
    expect(calls.map((c) => c.method)).toEqual(['POST', 'GET', 'PATCH']);
  });
});

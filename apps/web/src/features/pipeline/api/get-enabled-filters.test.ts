import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('@/lib/config', () => ({ getConfig: () => ({ apiURL: 'http://app.test/v1' }) }));

const { getEnabledFilters } = await import('./get-enabled-filters');

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/vnd.api+json' } });

describe('pipeline filters', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the enabled runner filters (named by the runner) with the id and description of their filter record', async () => {
    const urls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      urls.push(url);
      const { pathname, searchParams } = new URL(url);
      if (pathname === '/v1/filter_runner') {
        return json({
          data: [
            { type: 'filter_runner_filter', id: 'Bright things', attributes: { name: 'Bright things', enabled: true } },
            { type: 'filter_runner_filter', id: 'Paused', attributes: { name: 'Paused', enabled: false } },
            { type: 'filter_runner_filter', id: 'Private one', attributes: { name: 'Private one', enabled: true } },
          ],
        });
      }
      if (pathname === '/v1/filters' && searchParams.get('page[offset]') === '0') {
        return json({
          data: [{ type: 'filter', id: '42', attributes: { name: 'bright THINGS', description: 'Finds bright things' } }],
          links: {},
        });
      }
      return new Response('unexpected', { status: 500 });
    });
    const filters = await getEnabledFilters();
    expect(filters).toEqual([
      { id: 'Bright things', name: 'Bright things', description: 'Finds bright things', filterId: '42' },
      { id: 'Private one', name: 'Private one', description: undefined, filterId: null },
    ]);
    expect(new URL(urls[0]).searchParams.get('page[limit]')).toBe('100');
    expect(new URL(urls[0]).searchParams.get('page[offset]')).toBe('0');
    // Never asks for a filter by its name.
    expect(urls.some((u) => u.includes('/filters/Bright'))).toBe(false);
  });
});

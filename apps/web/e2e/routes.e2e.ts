import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, requireChromium, type BrowserSession } from './support/chromium';
import { expectNoSeriousViolations, firstLocusIds, open } from './support/app';

const enabled = requireChromium();

describe.skipIf(!enabled)('routes and shell', () => {
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    session = await launchBrowser();
    page = await session.context.newPage();
  });
  afterAll(async () => {
    await session?.close();
  });

  it('redirects home to the locus list and shows the shell', async () => {
    await open(page, '/');
    expect(new URL(page.url()).pathname).toBe('/loci');
    expect(await page.title()).toBe('ANTARES');
    for (const label of ['Explore', 'Favorites', 'Filters', 'Tags', 'Watch Lists', 'Catalogs', 'Pipeline', 'Properties', 'FAQ', 'Team', 'Support']) {
      await expect(page.getByRole('link', { name: label, exact: true }).count()).resolves.toBeGreaterThan(0);
    }
    const login = page.getByRole('link', { name: 'Login', exact: true });
    const href = (await login.getAttribute('href')) ?? '';
    expect(decodeURIComponent(href)).toContain('/login?redirect=/loci?query=');
    await expect(page.getByRole('link', { name: 'Register', exact: true }).getAttribute('href')).resolves.toContain('/register?redirect=');
  });

  const publicPages: [string, string, string][] = [
    ['/tags', 'ANTARES', 'Tags'],
    ['/catalogs', 'ANTARES', 'Catalogs'],
    ['/properties', 'ANTARES', 'Locus Properties'],
    ['/pipeline', 'ANTARES', 'The ANTARES Pipeline'],
    ['/faq', 'ANTARES', 'Frequently Asked Questions'],
    ['/support', 'ANTARES', 'Support'],
    ['/team', 'Our Team | ANTARES', 'Our Team'],
    ['/login', 'ANTARES', 'Login'],
    ['/register', 'ANTARES', 'Register'],
    ['/forgot-password', 'ANTARES', 'Reset Password'],
    ['/favorite-loci', 'ANTARES', 'Save Objects of Interest'],
    ['/filters', 'ANTARES', 'Find Objects of Interest'],
    ['/watch-lists', 'ANTARES', 'Track Objects of Interest'],
  ];
  for (const [path, title, heading] of publicPages) {
    it(`renders ${path} without serious accessibility violations`, async () => {
      await open(page, path);
      expect(await page.title()).toBe(title);
      await page.getByRole('heading', { name: heading }).first().waitFor();
      await expectNoSeriousViolations(page);
    });
  }

  it('shows the logged-out prompts with the spec texts', async () => {
    await open(page, '/favorite-loci');
    await page.getByText("ANTARES allows you to save objects that you're studying so you can easily find them later.").waitFor();
    await expect(page.getByRole('link', { name: 'Login to view your favorite data.' }).getAttribute('href')).resolves.toBe('/login?redirect=%2Ffavorite-loci');
    await open(page, '/watch-lists');
    await page.getByRole('link', { name: 'Login to create your first Watch List' }).waitFor();
  });

  it('sends logged-out users from login-required and admin routes to login with the redirect', async () => {
    for (const path of ['/filters/create', '/filters/7', '/watch-lists/create', '/watch-lists/3', '/user/settings', '/admin/filters', '/admin/filters/2', '/admin/filter_runner', '/admin/user-management', '/admin/announcements', '/admin/announcements/create']) {
      await open(page, path);
      const url = new URL(page.url());
      expect(url.pathname, path).toBe('/login');
      expect(url.searchParams.get('redirect'), path).toBe(path);
    }
  });

  it('shows the inactivity notice when asked to', async () => {
    await open(page, '/login?reason=inactivity&redirect=%2Ffilters');
    await page.getByText('You have been logged out due to inactivity.').waitFor();
  });

  it('redirects /loci/lookup/{text} to an ID lookup on the list', async () => {
    await open(page, '/loci');
    const [locusId] = await firstLocusIds(page);
    await open(page, `/loci/lookup/${locusId.slice(3, 12)}`);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/loci');
    const query = JSON.parse(url.searchParams.get('query') ?? '{}');
    expect(query.filters).toEqual([
      { type: 'query_string', field: { fields: ['properties.ztf_object_id', 'locus_id'], query: `*${locusId.slice(3, 12)}*` }, text: `ID Lookup: ${locusId.slice(3, 12)}` },
    ]);
    await expect(firstLocusIds(page)).resolves.toContain(locusId);
  });

  it('shows a not-found page for unknown paths and an error for unknown loci', async () => {
    await open(page, '/no/such/page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await open(page, '/loci/ANT0000notalocus00');
    await page.getByRole('heading', { name: 'Not Found' }).waitFor();
  });
});

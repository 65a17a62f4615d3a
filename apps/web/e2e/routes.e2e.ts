import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { allRoutes, openRoute, type RouteCase, routeRecords, Visitors } from './support/all-routes';
import { expectNoSeriousViolations, firstLocusIds, open } from './support/app';
import { describeViolations, seriousViolations } from './support/axe';
import { type BrowserSession, requireChromium } from './support/chromium';
import { usePage } from './support/page';
import { E2E_TEAM } from './support/team';

const enabled = requireChromium();

describe.skipIf(!enabled)('routes and shell', () => {
  let session: BrowserSession;
  let page: Page;

  usePage((opened) => ({ page, session } = opened));

  it('redirects home to the locus list and shows the shell', async () => {
    await open(page, '/');
    expect(new URL(page.url()).pathname).toBe('/loci');
    expect(await page.title()).toBe('ANTARES');
    for (const label of [
      'Explore',
      'Favorites',
      'Filters',
      'Tags',
      'Watch Lists',
      'Catalogs',
      'Pipeline',
      'Properties',
      'FAQ',
      'Team',
      'Support',
    ]) {
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
    await expect(page.getByRole('link', { name: 'Login to view your favorite data.' }).getAttribute('href')).resolves.toBe(
      '/login?redirect=%2Ffavorite-loci',
    );
    await open(page, '/watch-lists');
    await page.getByRole('link', { name: 'Login to create your first Watch List' }).waitFor();
  });

  it('sends logged-out users from login-required and admin routes to login with the redirect', async () => {
    for (const path of [
      '/filters/create',
      '/filters/7',
      '/watch-lists/create',
      '/watch-lists/3',
      '/user/settings',
      '/admin/filters',
      '/admin/filters/2',
      '/admin/filter_runner',
      '/admin/user-management',
      '/admin/announcements',
      '/admin/announcements/create',
    ]) {
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
      {
        type: 'query_string',
        field: { fields: ['properties.ztf_object_id', 'locus_id'], query: `*${locusId.slice(3, 12)}*` },
        text: `ID Lookup: ${locusId.slice(3, 12)}`,
      },
    ]);
    await expect(firstLocusIds(page)).resolves.toContain(locusId);
  });

  it('shows a not-found page for unknown paths and an error for unknown loci', async () => {
    await open(page, '/no/such/page');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await open(page, '/loci/ANT0000notalocus00');
    await page.getByRole('heading', { name: 'Not Found' }).waitFor();
  });

  // The e2e server is started with ANTARES_TEAM_FILE naming support/team.ts's members; a deployment
  // under test (ANTARES_E2E_BASE_URL) has its own team.
  it.skipIf(!inject('dataDir'))("shows the team of the deployment's team file, sorted by last name, with obfuscated e-mails", async () => {
    await open(page, '/team');
    const group = (title: string) => page.getByTestId(`team-group-${title}`);
    const names = (title: string) => group(title).locator('[data-testid=team-member] h3').allTextContents();
    await expect(names('Internal')).resolves.toEqual(['Ada M. Abbott', 'Bruno Moreau', 'Zoe Zimmerman']);
    await expect(names('External')).resolves.toEqual(['Ingrid van der Berg', 'Carlos Diaz']);
    const card = (name: string) => page.getByTestId('team-member').filter({ has: page.getByRole('heading', { name, exact: true }) });
    for (const member of E2E_TEAM) {
      await expect(card(member.name).getByText(member.title, { exact: true }).count()).resolves.toBe(1);
      if (member.bio) await expect(card(member.name).getByText(member.bio, { exact: true }).count()).resolves.toBe(1);
    }
    await expect(card('Zoe Zimmerman').getByRole('link', { name: 'Zoe Zimmerman' }).getAttribute('href')).resolves.toBe(
      'https://example.org/zoe',
    );
    // Members without a photo get the default one; a member's own photo is shown as given.
    await expect(card('Ada M. Abbott').getByTestId('default-photo').count()).resolves.toBe(1);
    await expect(card('Ingrid van der Berg').getByTestId('default-photo').count()).resolves.toBe(1);
    await expect(card('Bruno Moreau').getByTestId('default-photo').count()).resolves.toBe(0);
    await expect(card('Bruno Moreau').getByTestId('member-photo').getAttribute('src')).resolves.toBe('/favicon.svg');
    // Every address is in the page reversed, and no mailto link exists until the pointer is over it.
    expect(await page.locator('a[href^="mailto:"]').count()).toBe(0);
    const html = await page.content();
    for (const member of E2E_TEAM) expect(html).not.toContain(member.email);
    for (const name of ['Ada M. Abbott', 'Carlos Diaz']) {
      const email = E2E_TEAM.find((member) => member.name === name)?.email ?? '';
      const link = card(name).locator('a[data-email]');
      await expect(link.textContent()).resolves.toBe(email.split('').reverse().join(''));
      await expect(link.getAttribute('href')).resolves.toBe('#');
      await expect(link.getAttribute('data-email')).resolves.toBe(email.split('').reverse().join(''));
      await link.hover();
      await card(name)
        .getByRole('link', { name: `E-mail ${email}` })
        .waitFor();
      await expect(link.textContent()).resolves.toBe(email);
      await expect(link.getAttribute('href')).resolves.toBe(`mailto:${email}`);
    }
    await expectNoSeriousViolations(page);
  });

  it.skipIf(!inject('dataDir'))("says 'No {title} members' for a group without members", async () => {
    // The server's real /config.json, with the External members taken out of its team.
    const teamPage = await session.context.newPage();
    await teamPage.route('**/config.json', async (route) => {
      const response = await route.fetch();
      const config = await response.json();
      config.team = config.team.filter((member: { group: string }) => member.group !== 'External');
      await route.fulfill({ response, json: config });
    });
    try {
      await open(teamPage, '/team');
      await teamPage.getByTestId('team-group-Internal').getByTestId('team-member').first().waitFor();
      await expect(teamPage.getByTestId('team-group-External').getByText('No External members', { exact: true }).count()).resolves.toBe(1);
      await expect(teamPage.getByTestId('team-group-External').getByTestId('team-member').count()).resolves.toBe(0);
      await expect(teamPage.getByTestId('team-group-Internal').getByText('No Internal members').count()).resolves.toBe(0);
    } finally {
      await teamPage.close();
    }
  });
});

// Every screen of the spec, as the visitor who can open it (guest, signed-in user, admin), with its data
// loaded: axe-core finds no serious or critical violation. The dark theme's pass is in theme.e2e.ts.
describe.skipIf(!enabled)('accessibility of every route', () => {
  const visitors = new Visitors();
  let routes: RouteCase[] = [];

  beforeAll(async () => {
    routes = allRoutes(await routeRecords());
  });
  afterAll(async () => {
    await visitors.close();
  });

  it('has no serious or critical axe violation on any route, as guest, user and admin', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const page = await openRoute(visitors, route);
      const violations = await seriousViolations(page);
      if (violations.length) failures.push(`${route.who} ${route.path}:\n${describeViolations(violations)}`);
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
    expect(routes.length).toBeGreaterThanOrEqual(30);
  }, 600_000);
});

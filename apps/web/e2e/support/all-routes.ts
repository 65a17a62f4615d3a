import type { Page } from 'playwright-core';

import { E2E_ACCOUNTS } from './accounts';
import { apiSession, login, open } from './app';
import { type BrowserSession, launchBrowser } from './chromium';
import { ensureGwEvent, GW_ID } from './gw-scenario';

/**
 * Every screen of the spec, with the records its paths need (a locus, a filter and a watch list of
 * e2e-user, a GW event), and who opens it: the axe, layout and theme tests walk this one list.
 */
export type Who = 'guest' | 'user' | 'admin';

export interface RouteCase {
  path: string;
  who: Who;
  /** What shows once the screen has its data (a CSS selector). */
  ready: string;
}

export interface RouteRecords {
  locusId: string;
  filterId: string;
  watchListId: string;
  gwId: string;
}

const ROUTE_FILTER = 'e2e route check filter';
const ROUTE_WATCH_LIST = 'e2e route check list';

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The records the routes need; the filter and the watch list are made once and found again by name. */
export async function routeRecords(): Promise<RouteRecords> {
  const user = await apiSession(E2E_ACCOUNTS.user);
  const me = await json<{ identity?: string; user?: { id: string } }>(await user('/auth/check'));
  const userId = me.user?.id ?? me.identity;
  const loci = await json<{ data: { id: string }[] }>(await user('/loci?page%5Blimit%5D=1&sort=-properties.num_mag_values'));

  type Named = { id: string; attributes: { name: string } };
  const filters = await json<{ data: Named[] }>(await user(`/users/${userId}/filters?page%5Blimit%5D=100`));
  let filterId = filters.data.find((f) => f.attributes.name === ROUTE_FILTER)?.id;
  if (!filterId) {
    const created = await user(`/users/${userId}/filters`, {
      method: 'POST',
      body: {
        data: { type: 'filter', attributes: { name: ROUTE_FILTER, description: 'Opened by the route tests (axe, layout, theme).' } },
      },
    });
    filterId = (await json<{ data: { id: string } }>(created)).data.id;
  }
  const lists = await json<{ data: Named[] }>(await user(`/users/${userId}/watch_lists?page%5Blimit%5D=100`));
  let watchListId = lists.data.find((l) => l.attributes.name === ROUTE_WATCH_LIST)?.id;
  if (!watchListId) {
    const created = await user(`/users/${userId}/watch_lists`, {
      method: 'POST',
      body: {
        data: {
          type: 'watch_list',
          attributes: {
            name: ROUTE_WATCH_LIST,
            description: 'Opened by the route tests.',
            objects: [{ right_ascension: 10, declination: 10, radius: 0.001, comment: 'nothing there' }],
          },
        },
      },
    });
    watchListId = (await json<{ data: { id: string } }>(created)).data.id;
  }
  await ensureGwEvent(await apiSession(E2E_ACCOUNTS.admin));
  return { locusId: loci.data[0].id, filterId, watchListId, gwId: GW_ID };
}

const HEADING = 'main :is(h1, h2)';

export function allRoutes(records: RouteRecords): RouteCase[] {
  const guest = (path: string, ready = HEADING): RouteCase => ({ path, who: 'guest', ready });
  const user = (path: string, ready = HEADING): RouteCase => ({ path, who: 'user', ready });
  const admin = (path: string, ready = HEADING): RouteCase => ({ path, who: 'admin', ready });
  return [
    guest('/loci', '[data-testid=locus-row]'),
    guest(`/loci/${records.locusId}`, '[data-testid=lightcurve] g.mark'),
    guest('/favorite-loci'),
    guest('/filters'),
    guest('/filters/environment', '[data-testid=filter-environment-promised] tbody tr'),
    guest('/watch-lists'),
    guest('/tags', 'main table tbody tr'),
    guest('/catalogs'),
    guest('/gw-events', '#gw-events tbody tr'),
    guest(`/gw-events/${records.gwId}`, '[data-testid=gw-sky-map] svg'),
    guest('/pipeline'),
    guest('/properties', 'main table tbody tr'),
    guest('/faq'),
    guest('/support'),
    guest('/team'),
    guest('/login'),
    guest('/register'),
    guest('/forgot-password'),
    guest('/no/such/page'),
    user('/favorite-loci'),
    user('/filters'),
    user('/filters/create'),
    user(`/filters/${records.filterId}`),
    user('/watch-lists'),
    user('/watch-lists/create'),
    user(`/watch-lists/${records.watchListId}`),
    user('/user/settings'),
    admin('/admin/filters', '#admin-filter-table tbody tr'),
    admin(`/admin/filters/${records.filterId}`),
    admin('/admin/filter_runner'),
    admin('/admin/user-management', 'main table tbody tr'),
    admin('/admin/announcements'),
    admin('/admin/announcements/create'),
  ];
}

/** One browser per kind of visitor, signed in once, opened on first use. */
export class Visitors {
  private readonly sessions = new Map<Who, Promise<{ session: BrowserSession; page: Page }>>();

  constructor(private readonly prepare: (page: Page) => Promise<void> = async () => undefined) {}

  page(who: Who): Promise<Page> {
    if (!this.sessions.has(who)) {
      this.sessions.set(
        who,
        (async () => {
          const session = await launchBrowser();
          const page = await session.context.newPage();
          await this.prepare(page);
          if (who !== 'guest') await login(page, who === 'admin' ? E2E_ACCOUNTS.admin : E2E_ACCOUNTS.user);
          return { session, page };
        })(),
      );
    }
    return this.sessions.get(who)!.then((s) => s.page);
  }

  async close(): Promise<void> {
    for (const opened of this.sessions.values()) await (await opened).session.close();
  }
}

/** Opens a route as its visitor and waits for its data. */
export async function openRoute(visitors: Visitors, route: RouteCase): Promise<Page> {
  const page = await visitors.page(route.who);
  await open(page, route.path);
  await page.locator(route.ready).first().waitFor();
  return page;
}

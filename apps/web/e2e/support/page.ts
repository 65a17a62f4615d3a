import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

import { watchPage } from './app';
import { type BrowserSession, launchBrowser } from './chromium';

export type PageWatch = ReturnType<typeof watchPage>;

export interface OpenedPage {
  session: BrowserSession;
  page: Page;
  /** The page's CSP reports and uncaught errors (watchPage), for `expect(watch.problems()).toEqual([])`. */
  watch: PageWatch;
}

/**
 * A browser of its own (a fresh profile) with one page, for the tests of the enclosing describe block:
 * launched before them, closed after them. `onOpen` runs once it is open; it hands the page to the
 * block's own variables, so that the tests read `page` as a plain variable, and does the block's other
 * set-up (logging in, opening a first page):
 *
 *   let page: Page;
 *   usePage((opened) => ({ page } = opened));
 */
export function usePage(onOpen: (opened: OpenedPage) => unknown): void {
  let session: BrowserSession | undefined;
  beforeAll(async () => {
    session = await launchBrowser();
    const page = await session.context.newPage();
    await onOpen({ session, page, watch: watchPage(page) });
  });
  afterAll(async () => {
    await session?.close();
  });
}

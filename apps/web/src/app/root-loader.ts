import type { LoaderFunctionArgs, ShouldRevalidateFunction } from 'react-router';

import { getActiveAnnouncements } from '@/features/announcements/api/get-active-announcements';

/** Announcements are fetched before every navigation (spec). */
export async function rootLoader({ request }: LoaderFunctionArgs) {
  return { announcements: await getActiveAnnouncements(request.signal) };
}

export type RootLoaderData = Awaited<ReturnType<typeof rootLoader>>;

/**
 * Re-run on every move to a page (including a click on the current page's link), but not when only
 * the query string of the same page changes: the locus list rewrites its `query` parameter on each
 * sort, page or filter change, and those are state updates of one screen, not navigations.
 */
export const shouldRevalidateRoot: ShouldRevalidateFunction = ({ currentUrl, nextUrl }) =>
  currentUrl.pathname !== nextUrl.pathname || currentUrl.href === nextUrl.href;

import { useEffect } from 'react';
import { useMatches } from 'react-router';

import type { RouteHandle } from '@/app/route-handle';

const PRODUCT = 'ANTARES';

/** Sets document.title from the deepest matched route that has a title: '<title> | ANTARES' or 'ANTARES'. */
export function PageTitle() {
  const matches = useMatches();
  let title: string | undefined;
  for (const match of [...matches].reverse()) {
    const handle = match.handle as RouteHandle | undefined;
    if (!handle?.title) continue;
    title = typeof handle.title === 'function' ? handle.title(match.loaderData) : handle.title;
    if (title) break;
  }
  const full = title ? `${title} | ${PRODUCT}` : PRODUCT;
  useEffect(() => {
    document.title = full;
  }, [full]);
  return null;
}

import { type LoaderFunctionArgs, redirect } from 'react-router';

import { parseLocusListQuery, serializeLocusListQuery } from '@/lib/locus-query';
import { queryClient } from '@/lib/query-client';

import { getLoci } from './get-loci';
import { getStatistics } from './get-statistics';

/**
 * Mirrors the effective list state into the URL (the default for a missing `query`, or the
 * fallback for a malformed one) with a redirect before anything renders, then starts the list and
 * statistics requests while the page's code is still downloading (loaders run in parallel with
 * lazy route modules). Not awaited: the page shows its skeleton meanwhile.
 */
export function locusListLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const raw = url.searchParams.get('query');
  const query = parseLocusListQuery(raw);
  const serialized = serializeLocusListQuery(query);
  // Started before the redirect too: the redirected URL asks for the same query, which is then in flight.
  void queryClient.prefetchQuery({ queryKey: ['loci', query], queryFn: ({ signal }) => getLoci(query, signal) });
  void queryClient.prefetchQuery({
    queryKey: ['loci-statistics', query.filters],
    queryFn: ({ signal }) => getStatistics(query.filters, signal),
    staleTime: 60_000,
  });
  if (raw !== serialized) {
    url.searchParams.set('query', serialized);
    throw redirect(`${url.pathname}${url.search}${url.hash}`);
  }
  return null;
}

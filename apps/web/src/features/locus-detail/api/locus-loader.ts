import type { LoaderFunctionArgs } from 'react-router';

import { queryClient } from '@/lib/query-client';

import { getLocusAlerts } from './get-alerts';
import { locusQuery } from './get-locus';

/** The locus is fetched before the page is entered; its id becomes the page title. */
export async function locusDetailLoader({ params }: LoaderFunctionArgs) {
  const locusId = params.locusId ?? '';
  // The alerts are needed too (table, rcid colours): start them now rather than after render.
  void queryClient.prefetchQuery({
    queryKey: ['locus-alerts', locusId],
    queryFn: ({ signal }) => getLocusAlerts(locusId, signal),
    staleTime: 60_000,
  });
  const locus = await queryClient.ensureQueryData(locusQuery(locusId));
  return { id: locus.id };
}

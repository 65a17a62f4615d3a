import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import { type LocusListQuery, parseLocusListQuery, serializeLocusListQuery } from '@/lib/locus-query';

/**
 * The list state lives in the `query` URL parameter only (no copy in React state), so reloads,
 * shared links, the back button and the top-bar lookup all go through one source of truth. The
 * route loader has already normalised the parameter (see loci-loader.ts).
 */
export function useLocusListQuery(): [LocusListQuery, (next: LocusListQuery) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('query');
  const query = useMemo(() => parseLocusListQuery(raw), [raw]);

  const setQuery = useCallback(
    (next: LocusListQuery) => {
      setParams(
        (current) => {
          current.set('query', serializeLocusListQuery(next));
          return current;
        },
        { preventScrollReset: true },
      );
    },
    [setParams],
  );
  return [query, setQuery];
}

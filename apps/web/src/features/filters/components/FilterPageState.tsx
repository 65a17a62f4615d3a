import type { UseQueryResult } from '@tanstack/react-query';

import { ErrorState } from '@/components/ErrorState';
import type { Filter } from '@/features/filters/api/filters';
import { isNotFound } from '@/lib/api-client';

/** Loading and error display of a filter page; null once the filter is there. */
export function FilterPageState({ filter }: { filter: UseQueryResult<Filter> }) {
  if (filter.isPending) return <p role="status">Loading...</p>;
  if (filter.isError) {
    return isNotFound(filter.error) ? (
      <ErrorState title="Filter Not Found" message="There is no filter with this id, or it is private." />
    ) : (
      <ErrorState title="Error Loading Filter" message="There was an error fetching data. Please try again later." error={filter.error} />
    );
  }
  return null;
}

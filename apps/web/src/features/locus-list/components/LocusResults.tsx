import type { SortingState } from '@tanstack/react-table';
import Alert from 'react-bootstrap/Alert';

import { PageSizeSelect } from '@/components/PageSizeSelect';
import { TablePagination } from '@/components/TablePagination';
import { useLoci } from '@/features/locus-list/api/get-loci';
import { firstError } from '@/lib/api-client';
import { pageBounds } from '@/lib/format';
import { DEFAULT_SORT, type LocusListQuery, PAGE_SIZES, type PageSize } from '@/lib/locus-query';

import { ApiAccessModal } from './ApiAccessModal';
import { ColumnChooser } from './ColumnChooser';
import { LocusTable } from './LocusTable';
import { useColumnVisibility } from './use-column-visibility';

/** The result side of the list with its four states: LOADING, ERROR, EMPTY, SUCCESS. */
export function LocusResults({ query, onQueryChange }: { query: LocusListQuery; onQueryChange: (next: LocusListQuery) => void }) {
  const loci = useLoci(query);
  const [visibility, setVisibility] = useColumnVisibility();

  if (loci.isError) {
    return (
      <Alert variant="danger" role="alert">
        <Alert.Heading as="h2" className="h5">
          Error Completing Your Search
        </Alert.Heading>
        <p className="mb-0">{firstError(loci.error).detail ?? firstError(loci.error).title}</p>
      </Alert>
    );
  }

  const loading = loci.isPending || (loci.isPlaceholderData && loci.isFetching);
  const count = loci.data?.count ?? 0;
  if (!loading && count === 0) {
    return (
      <Alert variant="secondary" role="status">
        <Alert.Heading as="h2" className="h5">
          Nothing Matched Your Search
        </Alert.Heading>
        <p className="mb-0">
          Try clearing some of your filters. If you used a cone search, check the format of the coordinate string (decimal degrees, degrees
          with d/m/s, or sexagesimal hours with colons).
        </p>
      </Alert>
    );
  }

  const { from, to } = pageBounds(query.currentPage, query.perPage, count);
  const pageCount = Math.max(1, Math.ceil(count / query.perPage));
  const sorting: SortingState = [{ id: query.sortBy, desc: query.sortDesc }];
  const onSortingChange = (next: SortingState) => {
    const first = next[0];
    // A sort change goes back to page 1; an empty sort falls back to the default.
    onQueryChange({ ...query, currentPage: 1, sortBy: first?.id ?? DEFAULT_SORT, sortDesc: first ? first.desc : true });
  };

  return (
    <section aria-label="Search results">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <span className="me-auto small" role="status" data-testid="showing-label">
          {loading && !loci.data ? 'Loading...' : `Showing ${from}-${to} of ${count}`}
        </span>
        <ApiAccessModal query={query} />
        <ColumnChooser visible={visibility} onChange={setVisibility} />
      </div>
      <LocusTable
        loci={loci.data?.loci ?? []}
        loading={loading}
        sorting={sorting}
        onSortingChange={onSortingChange}
        visibility={visibility}
      />
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2">
        <PageSizeSelect
          id="locus-page-size"
          value={query.perPage}
          options={PAGE_SIZES}
          onChange={(size) => onQueryChange({ ...query, perPage: size as PageSize, currentPage: 1 })}
        />
        <TablePagination
          page={query.currentPage}
          pageCount={pageCount}
          onChange={(page) => onQueryChange({ ...query, currentPage: page })}
          label="Locus list pages"
        />
      </div>
    </section>
  );
}

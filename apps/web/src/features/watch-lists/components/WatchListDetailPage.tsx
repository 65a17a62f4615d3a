import type { ColumnDef } from '@tanstack/react-table';
import Spinner from 'react-bootstrap/Spinner';
import { Link, useParams } from 'react-router';

import { DataTable } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import { useMatchingState, useWatchList, type WatchList, type WatchObject } from '@/features/watch-lists/api/watch-lists';
import { lociPath, watchListFilter } from '@/lib/locus-query';
import { isoUtcText } from '@/lib/time';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@/lib/use-server-list';

const COLUMNS: ColumnDef<WatchObject>[] = [
  { id: 'right_ascension', header: 'RA (deg)', accessorKey: 'right_ascension', meta: { numeric: true } },
  { id: 'declination', header: 'Dec (deg)', accessorKey: 'declination', meta: { numeric: true } },
  { id: 'radius', header: 'Radius (deg)', accessorKey: 'radius', meta: { numeric: true } },
  { id: 'comment', header: 'Comment', accessorKey: 'comment', enableSorting: false, cell: ({ row }) => row.original.comment ?? '' },
  {
    id: 'created_at',
    header: 'Created At (UTC)',
    accessorKey: 'created_at',
    meta: { className: 'text-nowrap' },
    cell: ({ row }) => isoUtcText(row.original.created_at),
  },
];

/** "Matching history..." while the server matches the list against the stored alerts, then the loci it matched. */
function MatchingState({ watchList }: { watchList: WatchList }) {
  const state = useMatchingState(watchList.id, {
    history_matched_at: watchList.history_matched_at,
    matched_loci: watchList.matched_loci ?? 0,
  }).data;
  if (!state || state.history_matched_at === null) {
    return (
      <span className="small text-body-secondary" role="status" data-testid="watch-list-matching">
        <Spinner animation="border" size="sm" aria-hidden="true" className="me-1" />
        Matching history...
      </span>
    );
  }
  const matched = state.matched_loci;
  return (
    <span className="small text-body-secondary" role="status" data-testid="watch-list-matching">
      {matched.toLocaleString('en-US')} {matched === 1 ? 'locus' : 'loci'} matched
    </span>
  );
}

/**
 * A watch list: its name and description, the loci it matched (stored alerts inside its objects, then
 * new ones), then its objects (all fetched at once, paged here).
 */
export function Component() {
  const { watchListId = '' } = useParams();
  const watchList = useWatchList(watchListId);

  if (watchList.isError) {
    return <ErrorState title="Error Loading Watchlists" message="There was an error loading watch list objects." error={watchList.error} />;
  }
  const data = watchList.data;
  return (
    <section>
      <div className="d-flex flex-wrap align-items-center gap-3 mb-2">
        <h1 className="h3 mb-0">
          {data ? (
            data.name
          ) : (
            <>
              <span className="visually-hidden">Loading watch list</span>
              <span className="skeleton" style={{ width: '12rem' }} aria-hidden="true" />
            </>
          )}
        </h1>
        {data && <Link to={lociPath([watchListFilter(data.id, data.name)])}>View Loci</Link>}
        {data && <MatchingState watchList={data} />}
      </div>
      {data && (
        <>
          <p className="mb-1" style={{ whiteSpace: 'pre-wrap' }}>
            {data.description}
          </p>
          <p className="small text-body-secondary">
            Created at {isoUtcText(data.created_at)} (UTC)
            {data.slack_channel ? ` · notifies ${data.slack_channel}` : ''}
          </p>
        </>
      )}
      <h2 className="h5 mt-3">Objects</h2>
      <DataTable
        id="watch-list-objects"
        caption="Watch list objects"
        columns={COLUMNS}
        data={data?.objects ?? []}
        loading={watchList.isPending}
        skeletonRows={5}
        initialSorting={[{ id: 'created_at', desc: true }]}
        pageSizeOptions={PAGE_SIZE_OPTIONS}
        initialPageSize={DEFAULT_PAGE_SIZE}
        emptyText="This watch list has no objects."
      />
    </section>
  );
}

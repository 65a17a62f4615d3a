import { Link, useParams } from 'react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '../../../components/DataTable';
import { ErrorState } from '../../../components/ErrorState';
import { lociPath, watchListFilter } from '../../../lib/locus-query';
import { isoUtcText } from '../../../lib/time';
import { PAGE_SIZE_OPTIONS, DEFAULT_PAGE_SIZE } from '../../../lib/use-server-list';
import { useWatchList, type WatchObject } from '../api/watch-lists';

const COLUMNS: ColumnDef<WatchObject>[] = [
  { id: 'right_ascension', header: 'RA (deg)', accessorKey: 'right_ascension', meta: { numeric: true } },
  { id: 'declination', header: 'Dec (deg)', accessorKey: 'declination', meta: { numeric: true } },
  { id: 'radius', header: 'Radius (deg)', accessorKey: 'radius', meta: { numeric: true } },
  { id: 'comment', header: 'Comment', accessorKey: 'comment', enableSorting: false, cell: ({ row }) => row.original.comment ?? '' },
  { id: 'created_at', header: 'Created At (UTC)', accessorKey: 'created_at', meta: { className: 'text-nowrap' }, cell: ({ row }) => isoUtcText(row.original.created_at) },
];

/** A watch list: its name and description, then its objects (all fetched at once, paged here). */
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
        <h1 className="h3 mb-0">{data ? (
            data.name
          ) : (
            <>
              <span className="visually-hidden">Loading watch list</span>
              <span className="skeleton" style={{ width: '12rem' }} aria-hidden="true" />
            </>
          )}</h1>
        {data && <Link to={lociPath([watchListFilter(data.id, data.name)])}>View Loci</Link>}
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

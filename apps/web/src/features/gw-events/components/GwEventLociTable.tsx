import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { Link } from 'react-router';

import { DataTable } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import { type GwEventLocus, useGwEventLoci } from '@/features/gw-events/api/gw-events';
import { formatFixed } from '@/lib/format';
import { PAGE_SIZE_OPTIONS } from '@/lib/use-server-list';

const COLUMNS: ColumnDef<GwEventLocus>[] = [
  {
    id: 'locus_id',
    header: 'Locus',
    accessorKey: 'locus_id',
    enableSorting: false,
    cell: ({ getValue }) => <Link to={`/loci/${encodeURIComponent(String(getValue()))}`}>{String(getValue())}</Link>,
  },
  {
    id: 'ra',
    header: 'RA',
    accessorKey: 'ra',
    meta: { numeric: true },
    enableSorting: false,
    cell: ({ getValue }) => formatFixed(getValue(), 4),
  },
  {
    id: 'dec',
    header: 'Dec',
    accessorKey: 'dec',
    meta: { numeric: true },
    enableSorting: false,
    cell: ({ getValue }) => formatFixed(getValue(), 4),
  },
  {
    id: 'contour_level',
    header: 'Contour level (%)',
    accessorKey: 'contour_level',
    meta: { numeric: true },
    enableSorting: false,
    cell: ({ getValue }) => formatFixed(getValue()),
  },
  {
    id: 'contour_area',
    header: 'Contour area (deg²)',
    accessorKey: 'contour_area',
    meta: { numeric: true },
    enableSorting: false,
    cell: ({ getValue }) => (typeof getValue() === 'number' ? Math.round(getValue() as number).toLocaleString('en-US') : ''),
  },
];

/** The loci inside the event's 90% credible region, server-paged (10 per page), lowest credible level first. */
export function GwEventLociTable({ gracedbId }: { gracedbId: string }) {
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(10);
  const loci = useGwEventLoci(gracedbId, page, perPage);

  if (loci.isError) {
    return <ErrorState title="Error Loading Loci" message="There was an error loading the loci of this event." error={loci.error} />;
  }
  if (loci.isSuccess && loci.data.count === 0) {
    return <p className="text-body-secondary mb-0">No locus lies inside the 90% credible region of this event.</p>;
  }
  return (
    <DataTable
      id="gw-event-loci"
      caption="Loci inside the 90% credible region"
      columns={COLUMNS}
      data={loci.data?.loci ?? []}
      // A page change shows the skeleton, not the previous page's rows under the new page's bounds.
      loading={loci.isPending || loci.isPlaceholderData}
      getRowId={(locus) => locus.locus_id}
      server={{
        count: loci.data?.count ?? 0,
        page,
        perPage,
        onPageChange: setPage,
        onPerPageChange: (size) => (setPerPage(size), setPage(1)),
      }}
      pageSizeOptions={PAGE_SIZE_OPTIONS}
    />
  );
}

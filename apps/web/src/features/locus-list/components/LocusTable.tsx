import { getCoreRowModel, type SortingState, useReactTable } from '@tanstack/react-table';
import Table from 'react-bootstrap/Table';

import { SkeletonRows } from '@/components/SkeletonRows';
import { SortableTableHead, TableCells } from '@/components/TableParts';
import type { LocusListing } from '@/features/locus-list/api/get-loci';

import { LOCUS_COLUMNS } from './locus-columns';

/** The locus table: server-side sorted (column ids are sort fields), rows highlight on hover. */
export function LocusTable({
  loci,
  loading,
  sorting,
  onSortingChange,
  visibility,
}: {
  loci: LocusListing[];
  loading: boolean;
  sorting: SortingState;
  onSortingChange: (sorting: SortingState) => void;
  visibility: Record<string, boolean>;
}) {
  const table = useReactTable({
    data: loci,
    columns: LOCUS_COLUMNS,
    getRowId: (locus) => locus.id,
    state: { sorting, columnVisibility: visibility },
    manualSorting: true,
    sortDescFirst: true,
    enableSortingRemoval: false,
    onSortingChange: (updater) => onSortingChange(typeof updater === 'function' ? updater(sorting) : updater),
    getCoreRowModel: getCoreRowModel(),
  });
  const columnCount = table.getVisibleLeafColumns().length;

  return (
    <Table responsive hover size="sm" className="align-middle locus-table table-sticky-first small" aria-busy={loading}>
      <caption className="visually-hidden">Loci</caption>
      <SortableTableHead table={table} />
      <tbody>
        {loading ? (
          // The spec's skeleton: 10 rows, whatever the page size.
          <SkeletonRows rows={10} columns={columnCount} />
        ) : (
          table.getRowModel().rows.map((row) => (
            <tr key={row.id} className="locus-row" data-testid="locus-row">
              <TableCells row={row} />
            </tr>
          ))
        )}
      </tbody>
    </Table>
  );
}

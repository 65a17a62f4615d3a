import { flexRender, getCoreRowModel, type SortingState, useReactTable } from '@tanstack/react-table';
import Table from 'react-bootstrap/Table';

import { SkeletonRows } from '@/components/SkeletonRows';
import { SortIndicator } from '@/components/SortIndicator';
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
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => {
              const sorted = header.column.getIsSorted();
              const numeric = header.column.columnDef.meta?.numeric;
              return (
                <th
                  key={header.id}
                  scope="col"
                  className={numeric ? 'numeric' : undefined}
                  aria-sort={
                    sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : header.column.getCanSort() ? 'none' : undefined
                  }
                >
                  {header.column.getCanSort() ? (
                    <button
                      type="button"
                      className="btn btn-link p-0 text-reset text-decoration-none fw-semibold sortable-header"
                      onClick={header.column.getToggleSortingHandler()}
                    >
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      <SortIndicator direction={sorted} />
                    </button>
                  ) : (
                    flexRender(header.column.columnDef.header, header.getContext())
                  )}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
      <tbody>
        {loading ? (
          // The spec's skeleton: 10 rows, whatever the page size.
          <SkeletonRows rows={10} columns={columnCount} />
        ) : (
          table.getRowModel().rows.map((row) => (
            <tr key={row.id} className="locus-row" data-testid="locus-row">
              {row.getVisibleCells().map((cell) => {
                const meta = cell.column.columnDef.meta;
                return (
                  <td key={cell.id} className={[meta?.numeric ? 'numeric' : '', meta?.className ?? ''].join(' ').trim() || undefined}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                );
              })}
            </tr>
          ))
        )}
      </tbody>
    </Table>
  );
}

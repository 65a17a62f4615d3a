import { flexRender, type Row, type Table } from '@tanstack/react-table';

import { SortIndicator } from './SortIndicator';

/**
 * The header rows of a TanStack table: a sortable column's header is a button (Enter or a click sorts
 * by it) and the cell says its sort to assistive technology with aria-sort.
 */
export function SortableTableHead<T>({ table }: { table: Table<T> }) {
  return (
    <thead>
      {table.getHeaderGroups().map((group) => (
        <tr key={group.id}>
          {group.headers.map((header) => {
            const canSort = header.column.getCanSort();
            const sorted = header.column.getIsSorted();
            return (
              <th
                key={header.id}
                scope="col"
                className={header.column.columnDef.meta?.numeric ? 'numeric' : undefined}
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : canSort ? 'none' : undefined}
              >
                {canSort ? (
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
  );
}

/** A row's visible cells, numeric ones right-aligned, each with its column's extra class. */
export function TableCells<T>({ row }: { row: Row<T> }) {
  return row.getVisibleCells().map((cell) => {
    const meta = cell.column.columnDef.meta;
    return (
      <td key={cell.id} className={[meta?.numeric ? 'numeric' : '', meta?.className ?? ''].join(' ').trim() || undefined}>
        {flexRender(cell.column.columnDef.cell, cell.getContext())}
      </td>
    );
  });
}

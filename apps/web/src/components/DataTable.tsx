import {
  type ColumnDef,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  type Row,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { Fragment, type ReactNode, useState } from 'react';
import Table from 'react-bootstrap/Table';

import { PageSizeSelect } from './PageSizeSelect';
import { SkeletonRows } from './SkeletonRows';
import { TablePagination } from './TablePagination';
import { SortableTableHead, TableCells } from './TableParts';

/** Column meta understood by DataTable: numeric cells are right-aligned. */
declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    numeric?: boolean;
    className?: string;
  }
}

export interface ServerPaging {
  count: number;
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
  onPerPageChange?: (perPage: number) => void;
}

export interface DataTableProps<T> {
  id: string;
  caption?: string;
  columns: ColumnDef<T, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  data: T[];
  loading?: boolean;
  skeletonRows?: number;
  /** Server-side paging (and sorting when `sorting` is given); otherwise everything is client-side. */
  server?: ServerPaging;
  sorting?: SortingState;
  onSortingChange?: (sorting: SortingState) => void;
  initialSorting?: SortingState;
  pageSizeOptions?: readonly number[];
  initialPageSize?: number;
  /** Hide pagination controls when everything fits on one page. */
  compactPaging?: boolean;
  renderExpanded?: (row: Row<T>) => ReactNode;
  getRowId?: (row: T, index: number) => string;
  emptyText?: string;
  /**
   * Keeps the first column (the row's name or ID) in view while a table wider than its card scrolls:
   * on by default (a phone makes most tables wider than their card), false to let it scroll away.
   */
  stickyFirstColumn?: boolean;
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { id, columns, data, loading, server } = props;
  const [localSorting, setLocalSorting] = useState<SortingState>(props.initialSorting ?? []);
  const [pagination, setPagination] = useState({ pageIndex: 0, pageSize: props.initialPageSize ?? 10 });
  const sorting = props.sorting ?? localSorting;

  const table = useReactTable({
    data,
    columns,
    getRowId: props.getRowId,
    getRowCanExpand: props.renderExpanded ? () => true : undefined,
    state: {
      sorting,
      pagination: server ? { pageIndex: server.page - 1, pageSize: server.perPage } : pagination,
    },
    manualSorting: Boolean(props.onSortingChange),
    manualPagination: Boolean(server),
    rowCount: server?.count,
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      if (props.onSortingChange) props.onSortingChange(next);
      else {
        setLocalSorting(next);
        setPagination((p) => ({ ...p, pageIndex: 0 }));
      }
    },
    onPaginationChange: server ? undefined : setPagination,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: props.onSortingChange ? undefined : getSortedRowModel(),
    getPaginationRowModel: server ? undefined : getPaginationRowModel(),
    autoResetPageIndex: false,
  });

  const count = server ? server.count : data.length;
  const page = server ? server.page : pagination.pageIndex + 1;
  const perPage = server ? server.perPage : pagination.pageSize;
  const pageCount = Math.max(1, Math.ceil(count / perPage));
  const from = count === 0 ? 0 : (page - 1) * perPage + 1;
  const to = Math.min(count, page * perPage);
  const setPage = (p: number) => (server ? server.onPageChange(p) : setPagination((s) => ({ ...s, pageIndex: p - 1 })));
  const setPerPage = (size: number) =>
    server?.onPerPageChange ? server.onPerPageChange(size) : setPagination({ pageIndex: 0, pageSize: size });
  const visibleColumns = table.getVisibleLeafColumns().length;
  const showPaging = !(props.compactPaging && count <= perPage);

  return (
    <div className="data-table">
      {props.pageSizeOptions && showPaging && (
        <div className="mb-2">
          <PageSizeSelect id={`${id}-page-size`} value={perPage} options={props.pageSizeOptions} onChange={setPerPage} />
        </div>
      )}
      <Table
        responsive
        hover
        size="sm"
        className={props.stickyFirstColumn === false ? 'align-middle' : 'align-middle table-sticky-first'}
        id={id}
        aria-busy={loading}
      >
        {props.caption && <caption className="visually-hidden">{props.caption}</caption>}
        <SortableTableHead table={table} />
        <tbody>
          {loading ? (
            <SkeletonRows rows={props.skeletonRows ?? 10} columns={visibleColumns} />
          ) : table.getRowModel().rows.length === 0 ? (
            <tr>
              <td colSpan={visibleColumns} className="text-center text-body-secondary py-3">
                {props.emptyText ?? 'No entries'}
              </td>
            </tr>
          ) : (
            table.getRowModel().rows.map((row) => (
              <Fragment key={row.id}>
                <tr>
                  <TableCells row={row} />
                </tr>
                {props.renderExpanded && row.getIsExpanded() && (
                  <tr>
                    <td colSpan={visibleColumns} className="bg-body-tertiary">
                      {props.renderExpanded(row)}
                    </td>
                  </tr>
                )}
              </Fragment>
            ))
          )}
        </tbody>
      </Table>
      {showPaging && (
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2">
          <span className="small text-body-secondary" role="status">
            Showing {from} to {to} of {count} entries
          </span>
          <TablePagination page={page} pageCount={pageCount} onChange={setPage} label={`${props.caption ?? id} pages`} />
        </div>
      )}
    </div>
  );
}

import type { UseQueryResult } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';

import { DataTable } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import { PAGE_SIZE_OPTIONS, type useServerList } from '@/lib/use-server-list';

interface FilterTableProps<T extends { id: string }> {
  id: string;
  caption: string;
  columns: ColumnDef<T, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  query: UseQueryResult<{ filters: T[]; count: number }>;
  list: ReturnType<typeof useServerList>;
  emptyText: string;
  skeletonRows?: number;
}

/** A server-paged, sortable table of filters, or the spec's error state when they fail to load. */
export function FilterTable<T extends { id: string }>({ id, caption, columns, query, list, emptyText, skeletonRows }: FilterTableProps<T>) {
  if (query.isError)
    return <ErrorState title="Error Loading Filters" message="There was an error loading your filters." error={query.error} />;
  return (
    <DataTable
      id={id}
      caption={caption}
      columns={columns}
      data={query.data?.filters ?? []}
      loading={query.isPending}
      skeletonRows={skeletonRows}
      getRowId={(filter) => filter.id}
      server={list.paging(query.data?.count ?? 0)}
      sorting={list.sorting}
      onSortingChange={list.onSortingChange}
      pageSizeOptions={PAGE_SIZE_OPTIONS}
      emptyText={emptyText}
      stickyFirstColumn
    />
  );
}

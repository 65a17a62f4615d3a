import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { useState } from 'react';

import { DataTable } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import { type PropertyDefinition, type PropertyResource, useProperties } from '@/features/properties/api/get-properties';

const COLUMNS: ColumnDef<PropertyDefinition>[] = [
  { id: 'id', header: 'Name', accessorKey: 'id', enableSorting: false, cell: ({ getValue }) => <code>{String(getValue())}</code> },
  { id: 'type', header: 'Type', accessorKey: 'type' },
  { id: 'origin', header: 'Origin', accessorKey: 'origin' },
  { id: 'description', header: 'Description', accessorKey: 'description' },
];

const PAGE_SIZES = [5, 10, 25, 50, 100, 200] as const;
const DEFAULT_SORT: SortingState = [{ id: 'id', desc: true }];

/** One server-paged, server-sorted property table (default sort id descending, 5 per page). */
export function PropertyTable({
  resource,
  title,
  errorTitle,
  errorMessage,
}: {
  resource: PropertyResource;
  title: string;
  errorTitle: string;
  errorMessage: string;
}) {
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(5);
  const [sorting, setSorting] = useState<SortingState>(DEFAULT_SORT);
  const sort = sorting[0] ? `${sorting[0].desc ? '-' : ''}${sorting[0].id}` : '-id';
  const query = useProperties(resource, page, perPage, sort);
  return (
    <section className="mb-5" aria-labelledby={`${resource}-heading`}>
      <h2 id={`${resource}-heading`} className="h4">
        {title}
      </h2>
      {query.isError ? (
        <ErrorState title={errorTitle} message={errorMessage} error={query.error} />
      ) : (
        <DataTable
          id={resource}
          caption={title}
          columns={COLUMNS}
          data={query.data?.rows ?? []}
          loading={query.isPending}
          sorting={sorting}
          onSortingChange={(next) => {
            setSorting(next.length ? next : DEFAULT_SORT);
            setPage(1);
          }}
          server={{
            count: query.data?.count ?? 0,
            page,
            perPage,
            onPageChange: setPage,
            onPerPageChange: (size) => {
              setPerPage(size);
              setPage(1);
            },
          }}
          pageSizeOptions={PAGE_SIZES}
          skeletonRows={10}
        />
      )}
    </section>
  );
}

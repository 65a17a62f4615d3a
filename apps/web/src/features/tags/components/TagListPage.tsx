import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { useState } from 'react';
import { Link } from 'react-router';

import { DataTable } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import { type Tag, useTags } from '@/features/tags/api/get-tags';
import { lociPath, tagFilter } from '@/lib/locus-query';

const COLUMNS: ColumnDef<Tag>[] = [
  { id: 'id', header: 'Tag', accessorKey: 'id', cell: ({ getValue }) => <code>{String(getValue())}</code> },
  {
    id: 'description',
    header: 'Description',
    accessorKey: 'description',
    enableSorting: false,
    meta: { className: 'cell-fill' },
    cell: ({ getValue }) => <div className="truncate-600">{(getValue() as string) ?? ''}</div>,
  },
  {
    id: 'actions',
    header: 'Loci',
    enableSorting: false,
    cell: ({ row }) => <Link to={lociPath([tagFilter(row.original.id)])}>View Loci</Link>,
  },
];

const PAGE_SIZES = [5, 10, 25, 50, 100] as const;
const DEFAULT_SORT: SortingState = [{ id: 'id', desc: true }];

export function Component() {
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(5);
  const [sorting, setSorting] = useState<SortingState>(DEFAULT_SORT);
  const sort = sorting[0] ? `${sorting[0].desc ? '-' : ''}${sorting[0].id}` : '-id';
  const tags = useTags(page, perPage, sort);
  return (
    <>
      <h1 className="h3">Tags</h1>
      <p className="text-body-secondary">
        Filters add tags to loci, and every tag is also an output stream. Only tags from enabled and public filters are listed here.
      </p>
      {tags.isError ? (
        <ErrorState title="Error Loading Tags" message="There was an error loading tags." error={tags.error} />
      ) : (
        <DataTable
          id="tags"
          caption="Tags"
          columns={COLUMNS}
          data={tags.data?.tags ?? []}
          loading={tags.isPending}
          sorting={sorting}
          onSortingChange={(next) => {
            setSorting(next.length ? next : DEFAULT_SORT);
            setPage(1);
          }}
          server={{
            count: tags.data?.count ?? 0,
            page,
            perPage,
            onPageChange: setPage,
            onPerPageChange: (size) => (setPerPage(size), setPage(1)),
          }}
          pageSizeOptions={PAGE_SIZES}
          emptyText="No tags yet."
        />
      )}
    </>
  );
}

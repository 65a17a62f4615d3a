import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';

import { type Filter, useAllFilters } from '@/features/filters/api/filters';
import { EnabledBadge } from '@/features/filters/components/EnabledBadge';
import { FilterTable } from '@/features/filters/components/FilterTable';
import { usePublicToggle } from '@/features/filters/components/use-public-toggle';
import { isoUtcText } from '@/lib/time';
import { useServerList } from '@/lib/use-server-list';

const UPDATED_AT_HELP = 'Reflects only changes to the filter record (such as its visibility), not to its versions.';

function Author({ filter }: { filter: Filter }) {
  const owner = filter.owner;
  if (!owner) return <span className="text-body-secondary">user #{filter.user_id}</span>;
  if (!owner.email) return <>{owner.name || owner.username}</>;
  return <a href={`mailto:${owner.email}`}>{owner.name || owner.email}</a>;
}

/** Available filters (admins): every filter, newest first, with its author, visibility and enabled version. */
export function Component() {
  const list = useServerList({ id: 'created_at', desc: true });
  const filters = useAllFilters(list.params);
  const visibility = usePublicToggle();

  const columns: ColumnDef<Filter>[] = [
    {
      id: 'name',
      header: 'Name',
      accessorKey: 'name',
      cell: ({ row }) => <Link to={`/admin/filters/${row.original.id}`}>{row.original.name}</Link>,
    },
    { id: 'author', header: 'Author', enableSorting: false, cell: ({ row }) => <Author filter={row.original} /> },
    { id: 'public', header: 'Public', accessorKey: 'public', cell: ({ row }) => visibility.switchFor(row.original) },
    {
      id: 'description',
      header: 'Description',
      enableSorting: false,
      // The spare width, truncated there: a long description never pushes Enabled out of view.
      meta: { className: 'cell-fill' },
      cell: ({ row }) => (
        <div className="truncate-600" title={row.original.description}>
          {row.original.description}
        </div>
      ),
    },
    {
      id: 'created_at',
      header: 'Created At (UTC)',
      accessorKey: 'created_at',
      meta: { className: 'text-nowrap' },
      cell: ({ row }) => isoUtcText(row.original.created_at),
    },
    {
      id: 'updated_at',
      header: () => (
        <>
          Updated At (UTC){' '}
          <span className="badge rounded-pill text-bg-secondary" title={UPDATED_AT_HELP}>
            ?<span className="visually-hidden"> {UPDATED_AT_HELP}</span>
          </span>
        </>
      ),
      accessorKey: 'updated_at',
      meta: { className: 'text-nowrap' },
      cell: ({ row }) => isoUtcText(row.original.updated_at),
    },
    { id: 'enabled', header: 'Enabled', enableSorting: false, cell: ({ row }) => <EnabledBadge filter={row.original} /> },
  ];

  return (
    <section>
      <h1 className="h3 mb-3">Available filters</h1>
      {visibility.elements}
      <FilterTable
        id="admin-filter-table"
        caption="Available filters"
        columns={columns}
        query={filters}
        list={list}
        emptyText="No filters"
        skeletonRows={10}
      />
    </section>
  );
}

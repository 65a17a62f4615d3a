import type { ColumnDef, SortingState } from '@tanstack/react-table';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';

import { DataTable } from '@/components/DataTable';
import { type CatalogMatch, useCatalogMatches } from '@/features/locus-detail/api/get-catalog-matches';
import { firstError } from '@/lib/api-client';
import { formatCatalogValue, formatFixed } from '@/lib/format';

/** The spec's catalog match fields in its order: object name, ra, dec, catalog name, radius, separation, properties. */
const COLUMNS: ColumnDef<CatalogMatch>[] = [
  { id: 'object_name', header: 'Object', accessorFn: (m) => m.object_name ?? m.name ?? m.object_id, enableSorting: false },
  {
    id: 'ra',
    header: 'RA',
    accessorKey: 'ra',
    meta: { numeric: true },
    cell: ({ getValue }) => formatFixed(getValue(), 4),
    enableSorting: false,
  },
  {
    id: 'dec',
    header: 'Dec',
    accessorKey: 'dec',
    meta: { numeric: true },
    cell: ({ getValue }) => formatFixed(getValue(), 4),
    enableSorting: false,
  },
  { id: 'meta.catalog_name', header: 'Catalog', accessorKey: 'catalog_name', enableSorting: false },
  {
    id: 'meta.radius',
    header: 'Radius (arcsec)',
    accessorKey: 'radius',
    meta: { numeric: true },
    enableSorting: false,
    cell: ({ getValue }) => (typeof getValue() === 'number' ? formatFixed(getValue()) : 'N/A'),
  },
  {
    id: 'meta.separation',
    header: 'Separation (arcsec)',
    accessorKey: 'separation',
    meta: { numeric: true },
    sortDescFirst: false,
    cell: ({ getValue }) => formatFixed(getValue()),
  },
  {
    id: 'properties',
    header: 'Properties',
    enableSorting: false,
    cell: ({ row }) => {
      const name = row.original.object_name ?? row.original.name ?? row.original.object_id ?? row.original.id;
      return (
        <Button
          size="sm"
          variant="link"
          className="p-0"
          aria-expanded={row.getIsExpanded()}
          aria-label={`${row.getIsExpanded() ? 'Hide' : 'Show'} properties of ${name}`}
          onClick={row.getToggleExpandedHandler()}
        >
          {row.getIsExpanded() ? 'Hide' : 'Show'}
        </Button>
      );
    },
  },
];

const PAGE_SIZES = [5, 10, 25, 50, 100] as const;

/** Catalog cross-matches, server-paged (default 10, sorted by separation): LOADING, EMPTY, SUCCESS, ERROR. */
export function CatalogMatches({ locusId }: { locusId: string }) {
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(10);
  const [sorting, setSorting] = useState<SortingState>([{ id: 'meta.separation', desc: false }]);
  const sort = sorting[0] ? `${sorting[0].desc ? '-' : ''}${sorting[0].id}` : 'meta.separation';
  const matches = useCatalogMatches(locusId, page, perPage, sort);

  if (matches.isError) {
    return (
      <Alert variant="danger" className="mb-0">
        <Alert.Heading as="h3" className="h6">
          Error Retrieving Cross-Matches
        </Alert.Heading>
        <p className="mb-0">{firstError(matches.error).detail ?? firstError(matches.error).title}</p>
      </Alert>
    );
  }
  if (matches.isSuccess && matches.data.count === 0) {
    return (
      <Alert variant="secondary" className="mb-0">
        <Alert.Heading as="h3" className="h6">
          No Cross-Matches
        </Alert.Heading>
        <p className="mb-0">
          No catalog object lies near this locus. A 1 arcsec radius is used for point sources and variable radii for extended sources.
        </p>
      </Alert>
    );
  }
  return (
    <DataTable
      id="catalog-matches"
      caption="Catalog matches"
      columns={COLUMNS}
      data={matches.data?.matches ?? []}
      loading={matches.isPending}
      getRowId={(m) => m.id}
      sorting={sorting}
      onSortingChange={(next) => {
        setSorting(next.length ? next : [{ id: 'meta.separation', desc: false }]);
        setPage(1);
      }}
      server={{
        count: matches.data?.count ?? 0,
        page,
        perPage,
        onPageChange: setPage,
        onPerPageChange: (size) => (setPerPage(size), setPage(1)),
      }}
      pageSizeOptions={PAGE_SIZES}
      renderExpanded={(row) => (
        <dl className="row small mb-0">
          {Object.entries(row.original.properties).map(([key, value]) => (
            <div key={key} className="col-md-6 d-flex gap-2">
              <dt className="text-nowrap">{key}</dt>
              <dd className="mb-0 text-break">{formatCatalogValue(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    />
  );
}

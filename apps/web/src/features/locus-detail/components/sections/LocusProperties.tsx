import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import Button from 'react-bootstrap/Button';

import { DataTable } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import { DownloadIcon } from '@/components/Icons';
import { useLocusPropertyDefinitions } from '@/features/locus-detail/api/get-property-definitions';
import { PreciseValue } from '@/features/locus-detail/components/PreciseValue';
import { saveBlob, toCsv } from '@/lib/download';
import { formatPropertyValue } from '@/lib/format';
import { copyFullValues } from '@/lib/full-precision';

interface PropertyRow {
  key: string;
  value: unknown;
  description?: string;
}

const COLUMNS: ColumnDef<PropertyRow>[] = [
  { id: 'key', header: 'Property', accessorKey: 'key', cell: ({ getValue }) => <code>{String(getValue())}</code> },
  // 2 decimals as the spec says; the full value on hover and in copies.
  {
    id: 'value',
    header: 'Value',
    accessorFn: (row) => formatPropertyValue(row.value),
    cell: ({ row, getValue }) => <PreciseValue className="text-break" value={row.original.value} text={String(getValue())} />,
  },
  {
    id: 'description',
    header: 'Description',
    accessorKey: 'description',
    enableSorting: false,
    cell: ({ getValue }) => <span className="small text-body-secondary">{(getValue() as string) ?? ''}</span>,
  },
];

const PAGE_SIZES = [5, 10, 25, 50, 100, 200] as const;

/** Locus properties annotated with their definitions: LOADING, SUCCESS, ERROR; CSV export of key,value. */
export function LocusProperties({ locusId, properties }: { locusId: string; properties: Record<string, unknown> }) {
  const definitions = useLocusPropertyDefinitions(true);
  const rows = useMemo(
    () =>
      Object.entries(properties)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, value]) => ({ key, value, description: definitions.data?.get(key)?.description })),
    [properties, definitions.data],
  );
  if (definitions.isError)
    return <ErrorState title="Error Loading Properties" message="There was an error loading locus properties." error={definitions.error} />;
  const exportCsv = () => {
    const csv = toCsv([
      ['key', 'value'],
      ...rows.map((row) => [row.key, typeof row.value === 'object' && row.value !== null ? JSON.stringify(row.value) : row.value]),
    ]);
    saveBlob(new Blob([csv], { type: 'text/csv' }), `antares-locus-${locusId}-properties.csv`);
  };
  return (
    <>
      <div className="d-flex justify-content-end mb-2">
        <Button size="sm" variant="outline-secondary" onClick={exportCsv} disabled={definitions.isPending}>
          <DownloadIcon /> Export CSV
        </Button>
      </div>
      <div onCopy={copyFullValues}>
        <DataTable
          id="locus-properties"
          caption="Locus properties"
          columns={COLUMNS}
          data={rows}
          loading={definitions.isPending}
          initialPageSize={5}
          pageSizeOptions={PAGE_SIZES}
        />
      </div>
    </>
  );
}

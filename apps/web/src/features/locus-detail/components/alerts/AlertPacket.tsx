import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import Alert from 'react-bootstrap/Alert';

import { DataTable } from '@/components/DataTable';
import { useAlert } from '@/features/locus-detail/api/get-alerts';
import { PreciseValue } from '@/features/locus-detail/components/PreciseValue';
import { formatPropertyValue } from '@/lib/format';
import { copyFullValues } from '@/lib/full-precision';

interface Entry {
  key: string;
  value: unknown;
}

const COLUMNS: ColumnDef<Entry>[] = [
  { id: 'key', header: 'Property', accessorKey: 'key' },
  {
    id: 'value',
    header: 'Value',
    accessorFn: (entry) => (typeof entry.value === 'number' ? entry.value : formatPropertyValue(entry.value)),
    // 2 decimals as the spec says; the full value on hover and in copies.
    cell: ({ row }) => <PreciseValue className="text-break" value={row.original.value} text={formatPropertyValue(row.original.value)} />,
    sortingFn: 'alphanumeric',
  },
];

/** All properties of one alert as a sortable key/value table, 10 per page. */
export function AlertPacket({ alertId }: { alertId: string }) {
  const alert = useAlert(alertId);
  const entries = useMemo(
    () => (alert.data ? Object.entries(alert.data.properties).map(([key, value]) => ({ key, value })) : []),
    [alert.data],
  );
  if (alert.isPending) return <p className="mb-0">Loading...</p>;
  if (alert.isError)
    return (
      <Alert variant="danger" className="mb-0">
        There was an error fetching this alert. Please reload the page and try again.
      </Alert>
    );
  return (
    <div className="px-2" onCopy={copyFullValues}>
      <h3 className="h6">Alert {alertId}</h3>
      <DataTable
        id={`alert-packet-${alertId.replace(/[^A-Za-z0-9_-]/g, '_')}`}
        caption={`Properties of alert ${alertId}`}
        columns={COLUMNS}
        data={entries}
        initialSorting={[{ id: 'key', desc: false }]}
        initialPageSize={10}
      />
    </div>
  );
}

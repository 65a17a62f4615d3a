import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link } from 'react-router';

import { DataTable } from '@/components/DataTable';
import type { LocusAlert } from '@/features/locus-detail/api/get-alerts';
import { formatFixed } from '@/lib/format';

interface GravWaveRow {
  gracedb_id: string;
  id: string;
  mjd: number;
  contour_area?: number;
  contour_level?: number;
}

const COLUMNS: ColumnDef<GravWaveRow>[] = [
  {
    id: 'gracedb_id',
    header: 'gracedb_id',
    accessorKey: 'gracedb_id',
    // The event's own page: its sky map and every locus of its 90% region.
    cell: ({ getValue }) => <Link to={`/gw-events/${encodeURIComponent(String(getValue()))}`}>{String(getValue())}</Link>,
  },
  { id: 'id', header: 'id', accessorKey: 'id' },
  { id: 'mjd', header: 'mjd', accessorKey: 'mjd', meta: { numeric: true }, cell: ({ getValue }) => formatFixed(getValue()) },
  {
    id: 'contour_area',
    header: 'contour_area',
    accessorKey: 'contour_area',
    meta: { numeric: true },
    cell: ({ getValue }) => (typeof getValue() === 'number' ? Math.round(getValue() as number) : ''),
  },
  { id: 'contour_level', header: 'contour_level', accessorKey: 'contour_level', meta: { numeric: true } },
];

/** Gravitational-wave events of the locus' alerts; 10 per page, paginated only beyond that. */
export function GravWaveTable({ alerts, isPending }: { alerts: LocusAlert[]; isPending: boolean }) {
  const rows = useMemo(
    () =>
      alerts.flatMap((alert) =>
        alert.grav_wave_events.map((event) => ({
          gracedb_id: event.gracedb_id,
          id: alert.id,
          mjd: alert.mjd,
          contour_area: event.contour_area,
          contour_level: event.contour_level,
        })),
      ),
    [alerts],
  );
  if (!isPending && rows.length === 0)
    return <p className="text-body-secondary mb-0">No gravitational wave events associated to this locus</p>;
  return (
    <DataTable
      id="locus-gw-events"
      caption="Gravitational wave events"
      columns={COLUMNS}
      data={rows}
      loading={isPending}
      initialPageSize={10}
      compactPaging
    />
  );
}

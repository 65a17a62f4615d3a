import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import { Link } from 'react-router';

import { DataTable } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import { type GwEvent, useGwEvents } from '@/features/gw-events/api/gw-events';
import { isoUtcText } from '@/lib/time';
import { PAGE_SIZE_OPTIONS } from '@/lib/use-server-list';

import { formatArea, formatFar } from './gw-format';

const BASE_COLUMNS: ColumnDef<GwEvent>[] = [
  {
    id: 'gracedb_id',
    header: 'Event',
    accessorKey: 'gracedb_id',
    cell: ({ row }) => <Link to={`/gw-events/${encodeURIComponent(row.original.gracedb_id)}`}>{row.original.gracedb_id}</Link>,
  },
  { id: 'event_datetime', header: 'Event time (UTC)', accessorFn: (e) => isoUtcText(e.event_datetime) },
  {
    id: 'notice_type',
    header: 'Latest notice',
    accessorKey: 'notice_type',
    cell: ({ row }) => (
      <>
        {row.original.notice_type}
        {row.original.retracted && (
          <Badge bg="danger" className="ms-2">
            Retracted
          </Badge>
        )}
      </>
    ),
  },
  { id: 'false_alarm_rate', header: 'False alarm rate', accessorFn: (e) => formatFar(e.false_alarm_rate), meta: { numeric: true } },
  { id: 'area50', header: '50% area', accessorFn: (e) => formatArea(e.area50), meta: { numeric: true } },
  { id: 'area90', header: '90% area', accessorFn: (e) => formatArea(e.area90), meta: { numeric: true } },
  { id: 'loci_count', header: 'Loci in 90% area', accessorKey: 'loci_count', meta: { numeric: true } },
];
/** The server decides the order (newest event first). */
const COLUMNS = BASE_COLUMNS.map((column) => ({ ...column, enableSorting: false }));

/** Every gravitational-wave event the server has notices of, newest first, server-paged. */
export function Component() {
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(10);
  const events = useGwEvents(page, perPage);

  return (
    <section>
      <h1 className="h3">Gravitational Wave Events</h1>
      <p className="text-body-secondary">
        LIGO, Virgo and KAGRA announce candidate gravitational-wave events with a sky map of where the source may be. ANTARES associates
        each alert received within 14 days after an event and inside its 90% credible region with the event. Open an event to see its sky
        map and those loci.
      </p>
      {events.isError ? (
        <ErrorState
          title="Error Loading Gravitational Wave Events"
          message="There was an error loading gravitational wave events."
          error={events.error}
        />
      ) : events.isSuccess && events.data.count === 0 ? (
        <p data-testid="gw-events-empty">No gravitational wave events have been received yet.</p>
      ) : (
        <DataTable
          id="gw-events"
          caption="Gravitational wave events"
          columns={COLUMNS}
          data={events.data?.events ?? []}
          loading={events.isPending || events.isPlaceholderData}
          getRowId={(event) => event.gracedb_id}
          server={{
            count: events.data?.count ?? 0,
            page,
            perPage,
            onPageChange: setPage,
            onPerPageChange: (size) => (setPerPage(size), setPage(1)),
          }}
          pageSizeOptions={PAGE_SIZE_OPTIONS}
        />
      )}
    </section>
  );
}

import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import Button from 'react-bootstrap/Button';

import { DataTable } from '@/components/DataTable';
import { ErrorState } from '@/components/ErrorState';
import type { LocusAlert } from '@/features/locus-detail/api/get-alerts';
import { deriveMagnitudes, type LightcurvePoint } from '@/features/locus-detail/api/lightcurve';
import type { LightcurveSelection } from '@/features/locus-detail/components/lightcurve/lightcurve-chart';
import { PreciseValue } from '@/features/locus-detail/components/PreciseValue';
import { formatFixed } from '@/lib/format';
import { copyFullValues } from '@/lib/full-precision';
import { useDebouncedValue } from '@/lib/use-debounced-value';

import { AlertPacket } from './AlertPacket';

interface AlertRow {
  id: string;
  ant_mjd: number;
  ant_passband: string;
  frontend_mag?: number;
  frontend_magerr?: number;
}

const TABLE_REFRESH_DEBOUNCE_MS = 100;

const COLUMNS: ColumnDef<AlertRow>[] = [
  {
    id: 'ant_mjd',
    header: 'MJD',
    accessorKey: 'ant_mjd',
    meta: { numeric: true },
    cell: ({ getValue }) => <PreciseValue value={getValue()} text={formatFixed(getValue())} />,
  },
  { id: 'ant_passband', header: 'Filter', accessorKey: 'ant_passband' },
  {
    id: 'frontend_mag',
    header: 'Mag.',
    accessorFn: (row) => row.frontend_mag,
    meta: { numeric: true },
    cell: ({ getValue }) => <PreciseValue value={getValue()} text={formatFixed(getValue())} />,
    sortUndefined: 'last',
  },
  {
    id: 'frontend_magerr',
    header: 'Mag. Error',
    accessorFn: (row) => row.frontend_magerr,
    meta: { numeric: true },
    cell: ({ getValue }) => <PreciseValue value={getValue()} text={formatFixed(getValue())} />,
    sortUndefined: 'last',
  },
  {
    id: 'packet',
    header: 'Alert Packet',
    enableSorting: false,
    cell: ({ row }) => (
      <Button size="sm" variant="link" className="p-0" aria-expanded={row.getIsExpanded()} onClick={row.getToggleExpandedHandler()}>
        {row.getIsExpanded() ? 'Hide' : 'Show'} {row.original.id}
      </Button>
    ),
  },
];

function toRow(alert: LocusAlert): AlertRow {
  const p = alert.properties as Partial<LightcurvePoint>;
  const derived = deriveMagnitudes(p);
  return {
    id: alert.id,
    ant_mjd: (p.ant_mjd as number | undefined) ?? alert.mjd,
    ant_passband: String(p.ant_passband ?? ''),
    frontend_mag: derived.frontend_mag,
    frontend_magerr: derived.frontend_magerr,
  };
}

export interface AlertsTableProps {
  alerts: LocusAlert[];
  isPending: boolean;
  error: unknown;
  selection: LightcurveSelection | null;
  /** An alert picked on the lightcurve: the table shows only it until cleared. */
  pickedAlertId?: string;
  onClearPick?: () => void;
}

/**
 * The locus' alerts, MJD descending, 10 per page; with a lightcurve selection only the selected
 * alerts (by MJD and magnitude, or by id when the selection was made on fluxes or phases), and with
 * a picked point only its alert.
 */
export function AlertsTable({ alerts, isPending, error, selection, pickedAlertId, onClearPick }: AlertsTableProps) {
  const debounced = useDebouncedValue(selection, TABLE_REFRESH_DEBOUNCE_MS);
  const rows = useMemo(() => {
    const all = alerts.map(toRow);
    if (pickedAlertId) return all.filter((row) => row.id === pickedAlertId);
    if (!debounced) return all;
    const ids = debounced.alertIds;
    if (ids) return all.filter((row) => ids.has(row.id));
    return all.filter(
      (row) =>
        row.ant_mjd >= debounced.x[0] &&
        row.ant_mjd <= debounced.x[1] &&
        (row.frontend_mag === undefined || (row.frontend_mag >= debounced.y[0] && row.frontend_mag <= debounced.y[1])),
    );
  }, [alerts, debounced, pickedAlertId]);
  if (error)
    return <ErrorState title="Error Loading Alerts" message="There was an error loading the alerts of this locus." error={error} />;
  return (
    <>
      {pickedAlertId ? (
        <p className="small" data-testid="alerts-picked">
          Showing the alert picked on the lightcurve, <code>{pickedAlertId}</code>.{' '}
          <Button size="sm" variant="link" className="p-0 align-baseline" onClick={onClearPick}>
            Show all alerts
          </Button>
        </p>
      ) : (
        debounced && <p className="small text-body-secondary">Showing the alerts inside the lightcurve selection.</p>
      )}
      <div onCopy={copyFullValues}>
        <DataTable
          id="locus-alerts"
          caption="Alerts"
          columns={COLUMNS}
          data={rows}
          loading={isPending}
          getRowId={(row) => row.id}
          initialSorting={[{ id: 'ant_mjd', desc: true }]}
          initialPageSize={10}
          renderExpanded={(row) => <AlertPacket alertId={row.original.id} />}
        />
      </div>
    </>
  );
}

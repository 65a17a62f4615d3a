import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import Form from 'react-bootstrap/Form';

import { ActionError } from '@/components/ActionError';
import { RUNNER_KEY, type RunnerFilter, setRunnerEnabled, useRunnerFilters } from '@/features/filters/api/filter-runner';
import { msText } from '@/features/filters/components/backtests/backtest-form';
import { windowText, yieldText } from '@/features/filters/components/budget/budget-view';
import { BudgetBar } from '@/features/filters/components/budget/BudgetBar';
import { RunnerState } from '@/features/filters/components/budget/RunnerState';
import { FilterTable } from '@/features/filters/components/FilterTable';
import { useServerList } from '@/lib/use-server-list';

/**
 * Available filters in the filter runner (admins): the filters with an enabled version, by name, and
 * whether the pipeline runs them. The switch saves at once; on failure it reverts and the error shows.
 * Each filter's state (running, paused, paused for its budget: since when and why), its share of the
 * budget this window as a bar (ADR 0056), its time per locus and its yield this window and tonight.
 * Switching on a filter paused for its budget resumes it.
 */
export function Component() {
  const list = useServerList({ id: 'id', desc: true });
  const filters = useRunnerFilters(list.params);
  const client = useQueryClient();
  const [saving, setSaving] = useState<Record<string, boolean>>({});
  const [actionError, setActionError] = useState<unknown>(null);

  const toggle = async (filter: RunnerFilter, enabled: boolean) => {
    setActionError(null);
    setSaving((s) => ({ ...s, [filter.id]: enabled }));
    try {
      await setRunnerEnabled(filter.id, enabled);
      await client.invalidateQueries({ queryKey: RUNNER_KEY });
    } catch (error) {
      setActionError(error);
    } finally {
      setSaving(({ [filter.id]: _, ...rest }) => rest);
    }
  };

  const columns: ColumnDef<RunnerFilter>[] = [
    { id: 'id', header: 'Name', accessorKey: 'id' },
    {
      id: 'enabled',
      header: 'Enabled',
      accessorKey: 'enabled',
      cell: ({ row }) => {
        const filter = row.original;
        const pending = saving[filter.id];
        return (
          <Form.Check
            type="switch"
            id={`runner-${filter.id.replace(/\W/g, '_')}-enabled`}
            aria-label={`Enabled: ${filter.id}`}
            checked={pending ?? filter.enabled}
            disabled={pending !== undefined}
            onChange={(event) => void toggle(filter, event.target.checked)}
          />
        );
      },
    },
    { id: 'state', header: 'State', enableSorting: false, cell: ({ row }) => <RunnerState filter={row.original} /> },
    {
      id: 'share',
      header: 'Share of the budget',
      enableSorting: false,
      cell: ({ row }) => {
        const hour = row.original.budget.hour;
        return (
          <div data-testid="runner-share">
            {hour ? <BudgetBar share={hour.share} allowedShare={hour.allowed_share} /> : null}
            <span className="small text-body-secondary">{windowText(hour, 'hour')}</span>
          </div>
        );
      },
    },
    {
      id: 'time',
      header: 'Time per locus (p50 / p99)',
      enableSorting: false,
      cell: ({ row }) => {
        const hour = row.original.budget.hour;
        return (
          <span className="small text-nowrap">
            {msText(hour?.p50_ms ?? null)} / {msText(hour?.p99_ms ?? null)}
            {hour && (
              <span className="d-block text-body-secondary">
                {hour.loci_run.toLocaleString('en-US')} loci, {hour.alerts_seen.toLocaleString('en-US')} alerts
              </span>
            )}
          </span>
        );
      },
    },
    {
      id: 'yield',
      header: 'Passing alerts',
      enableSorting: false,
      cell: ({ row }) => {
        const { hour, night, limits } = row.original.budget;
        return (
          <span className="small">
            <span className={hour?.over_yield ? 'd-block text-danger' : 'd-block'}>Hour: {yieldText(hour, limits.yield_max_per_10k)}</span>
            <span className={night?.over_yield ? 'd-block text-danger' : 'd-block'}>
              Night: {yieldText(night, limits.yield_average_per_10k)}
            </span>
          </span>
        );
      },
    },
  ];
  const limits = filters.data?.filters[0]?.budget.limits;

  return (
    <section>
      <h1 className="h3 mb-3">Available filters</h1>
      <p className="text-body-secondary">
        Filters with an enabled version. Switching one off pauses it in the pipeline without changing its versions.
      </p>
      {limits && (
        <p className="small text-body-secondary" data-testid="runner-limits">
          Budget: {limits.seconds_per_10k} s per 10,000 alerts for all enabled filters together; yield: {limits.yield_average_per_10k}{' '}
          passing alerts per 10,000 on average, {limits.yield_max_per_10k} at most. A filter over its share for {limits.pause_after_windows}{' '}
          windows of {Math.round(limits.window_s / 60)} min in a row is paused until it is switched on again here.
        </p>
      )}
      {actionError !== null && (
        <ActionError title="Error changing the filter runner" error={actionError} onClose={() => setActionError(null)} />
      )}
      <FilterTable
        id="filter-runner-table"
        caption="Filters in the filter runner"
        columns={columns}
        query={filters}
        list={list}
        emptyText="No enabled filters"
      />
    </section>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import Form from 'react-bootstrap/Form';

import { ActionError } from '@/components/ActionError';
import { RUNNER_KEY, type RunnerFilter, setRunnerEnabled, useRunnerFilters } from '@/features/filters/api/filter-runner';
import { FilterTable } from '@/features/filters/components/FilterTable';
import { useServerList } from '@/lib/use-server-list';

/**
 * Available filters in the filter runner (admins): the filters with an enabled version, by name, and
 * whether the pipeline runs them. The switch saves at once; on failure it reverts and the error shows.
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
  ];

  return (
    <section>
      <h1 className="h3 mb-3">Available filters</h1>
      <p className="text-body-secondary">
        Filters with an enabled version. Switching one off pauses it in the pipeline without changing its versions.
      </p>
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

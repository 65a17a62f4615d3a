import Table from 'react-bootstrap/Table';

import { type RunnerFilter, useRunnerFilter } from '@/features/filters/api/filter-runner';
import type { Filter } from '@/features/filters/api/filters';

import { msText } from '../backtests/backtest-form';
import { type BudgetWindow, windowText, yieldText } from './budget-view';
import { BudgetBar } from './BudgetBar';
import { RunnerState } from './RunnerState';

/** Rows of one window's figures (the hour, the night), as the runner page and the filter page show them. */
export function BudgetWindowRow({
  label,
  window,
  kind,
  limits,
}: {
  label: string;
  window: BudgetWindow | null;
  kind: 'hour' | 'night';
  limits: RunnerFilter['budget']['limits'];
}) {
  return (
    <tr data-testid={`budget-${kind}`}>
      <th scope="row">
        {label}
        <div className="small fw-normal text-body-secondary">{windowText(window, kind)}</div>
      </th>
      <td>{window ? window.alerts_seen.toLocaleString('en-US') : 'n/a'}</td>
      <td>{window ? window.loci_run.toLocaleString('en-US') : 'n/a'}</td>
      <td className="text-nowrap">
        {msText(window?.p50_ms ?? null)} / {msText(window?.p99_ms ?? null)}
      </td>
      <td>{window ? <BudgetBar share={window.share} allowedShare={window.allowed_share} /> : 'n/a'}</td>
      <td className={window?.over_yield ? 'text-danger' : undefined}>
        {yieldText(window, kind === 'hour' ? limits.yield_max_per_10k : limits.yield_average_per_10k)}
      </td>
    </tr>
  );
}

/**
 * On a filter's page while it has an enabled version: whether Level 2 runs it (or paused it for its
 * budget, since when and why), and its figures for the current window and night.
 */
export function RunnerBudgetPanel({ filter }: { filter: Filter }) {
  const runner = useRunnerFilter(filter.enabled ? filter.name : null);
  if (!runner.data) return null;
  const { budget } = runner.data;
  return (
    <section className="mb-3" data-testid="filter-runner-budget">
      <h2 className="h6">
        In the pipeline: <RunnerState filter={runner.data} detailed />
      </h2>
      <Table size="sm" responsive className="small mb-1">
        <thead>
          <tr>
            <th scope="col">Window</th>
            <th scope="col">Alerts seen</th>
            <th scope="col">Loci run</th>
            <th scope="col">Time per locus (p50 / p99)</th>
            <th scope="col">Share of the budget</th>
            <th scope="col">Passing alerts</th>
          </tr>
        </thead>
        <tbody>
          <BudgetWindowRow label="Hour" window={budget.hour} kind="hour" limits={budget.limits} />
          <BudgetWindowRow label="Night" window={budget.night} kind="night" limits={budget.limits} />
        </tbody>
      </Table>
      <p className="small text-body-secondary mb-0">
        All enabled filters together may take {budget.limits.seconds_per_10k} s per 10,000 alerts; a filter over its share for{' '}
        {budget.limits.pause_after_windows} windows in a row is paused until an admin resumes it.
      </p>
    </section>
  );
}

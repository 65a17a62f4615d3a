import Badge from 'react-bootstrap/Badge';

import type { RunnerFilter } from '@/features/filters/api/filter-runner';

import { runnerStateText } from './budget-view';

const STATE_BG: Record<RunnerFilter['state'], string> = { running: 'success', paused: 'secondary', paused_for_budget: 'danger' };
const STATE_LABEL: Record<RunnerFilter['state'], string> = { running: 'Running', paused: 'Paused', paused_for_budget: 'Paused for budget' };

/** A filter's state in the runner: a badge, and for a budget pause since when and why. */
export function RunnerState({ filter, detailed = false }: { filter: RunnerFilter; detailed?: boolean }) {
  return (
    <span data-testid="runner-state">
      <Badge bg={STATE_BG[filter.state]}>{STATE_LABEL[filter.state]}</Badge>
      {filter.state === 'paused_for_budget' && (
        <span className={detailed ? 'd-block small mt-1' : 'd-block small text-body-secondary text-wrap'}>{runnerStateText(filter)}</span>
      )}
    </span>
  );
}

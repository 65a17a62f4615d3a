import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';

import { type Filter, FILTERS_KEY, type FilterVersion, transitionVersion } from '@/features/filters/api/filters';
import { actionsFor, type TransitionAction } from '@/features/filters/api/transitions';
import { firstError } from '@/lib/api-client';

import { TransitionModal } from './TransitionModal';

const REFRESH_WARNING = 'Filter version was successfully transitioned but there was a problem refreshing the page.';

/**
 * One button per status the selected version may move to. After a transition the versions and the
 * filter are fetched again; failures show in a dismissible red alert.
 */
export function TransitionButtons({ filter, version }: { filter: Filter; version: FilterVersion }) {
  const client = useQueryClient();
  const [action, setAction] = useState<TransitionAction | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const actions = actionsFor(version.status);

  const confirm = async (feedback: string) => {
    if (!action) return;
    setBusy(true);
    setError(null);
    setWarning(null);
    try {
      await transitionVersion(filter.id, version.id, action.target, feedback);
    } catch (failure) {
      const detail = firstError(failure);
      setError(`Error transitioning version: ${detail.detail ?? detail.title ?? 'unknown error'}`);
      setBusy(false);
      setAction(null);
      return;
    }
    try {
      await client.refetchQueries({ queryKey: FILTERS_KEY, type: 'active' }, { throwOnError: true });
    } catch {
      setWarning(REFRESH_WARNING);
    }
    setBusy(false);
    setAction(null);
  };

  return (
    <div className="mb-2" data-testid="transition-buttons">
      {error && (
        <Alert variant="danger" dismissible onClose={() => setError(null)} role="alert">
          {error}
        </Alert>
      )}
      {warning && (
        <Alert variant="warning" dismissible onClose={() => setWarning(null)}>
          {warning}
        </Alert>
      )}
      <div className="d-flex flex-wrap gap-2 align-items-center">
        {actions.length === 0 ? (
          <span className="small text-body-secondary">No transition is defined from this status.</span>
        ) : (
          actions.map((a) => (
            <Button key={a.target} size="sm" variant={a.variant} onClick={() => setAction(a)}>
              {a.label}
            </Button>
          ))
        )}
      </div>
      <TransitionModal
        action={action}
        filterName={filter.name}
        versionId={version.id}
        busy={busy}
        onConfirm={(f) => void confirm(f)}
        onCancel={() => setAction(null)}
      />
    </div>
  );
}

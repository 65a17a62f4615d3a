import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';

import { ActionError } from '@/components/ActionError';
import { ConfirmationDialog } from '@/components/ConfirmationDialog';
import { type Filter, FILTERS_KEY, setFilterPublic } from '@/features/filters/api/filters';

interface Pending {
  filter: Filter;
  value: boolean;
}

/** The confirmation question of a visibility change. */
export function visibilityQuestion(name: string, makePublic: boolean): string {
  return `Are you sure you want to make the filter "${name}" ${makePublic ? 'public' : 'private'}?`;
}

/**
 * The Public switch of a filter and what it takes: a confirmation (typing the filter name), then the
 * update. On cancel or failure the switch reverts; a failure shows 'Error changing filter visibility'
 * with the error as JSON; on success the filter queries (tables, detail) are refreshed.
 */
export function usePublicToggle() {
  const client = useQueryClient();
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // The dialog keeps its text while it fades out.
  const last = useRef<Pending | null>(null);
  if (pending) last.current = pending;
  const shown = pending ?? last.current;

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      await setFilterPublic(pending.filter.id, pending.value);
      await client.invalidateQueries({ queryKey: FILTERS_KEY });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
      setPending(null);
    }
  };

  const switchFor = (filter: Filter, options: { label?: string } = {}) => (
    <Form.Check
      type="switch"
      id={`filter-${filter.id}-public`}
      label={options.label}
      aria-label={options.label ? undefined : `Public: ${filter.name}`}
      checked={pending?.filter.id === filter.id ? pending.value : filter.public}
      disabled={pending !== null}
      onChange={(event) => {
        setError(null);
        setPending({ filter, value: event.target.checked });
      }}
    />
  );

  const elements = (
    <>
      {error !== null && <ActionError title="Error changing filter visibility" error={error} onClose={() => setError(null)} />}
      <ConfirmationDialog
        show={pending !== null}
        title="Change filter visibility"
        confirmationText={shown?.filter.name ?? ''}
        confirmVariant="primary"
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      >
        {shown && <p className="mb-0">{visibilityQuestion(shown.filter.name, shown.value)}</p>}
      </ConfirmationDialog>
    </>
  );

  return { switchFor, elements };
}

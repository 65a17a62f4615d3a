import Alert from 'react-bootstrap/Alert';

import { firstError } from '@/lib/api-client';

/** Admin action errors: a dismissible red alert with a sentence and the error object as JSON. */
export function ActionError({ title, error, onClose }: { title: string; error: unknown; onClose: () => void }) {
  return (
    <Alert variant="danger" dismissible onClose={onClose} role="alert" data-testid="action-error">
      <p className="mb-1 fw-semibold">{title}</p>
      <pre className="mb-0 small text-wrap">{JSON.stringify(firstError(error), null, 2)}</pre>
    </Alert>
  );
}

import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';

import { type TransitionAction, validateFeedback } from '@/features/filters/api/transitions';

/**
 * The status modal: moving to ENABLED only asks a confirmation naming the filter; every other target
 * asks for feedback, mandatory for Disable and Reject ('Feedback is required'), sent trimmed.
 */
export function TransitionModal({
  action,
  filterName,
  versionId,
  busy,
  onConfirm,
  onCancel,
}: {
  action: TransitionAction | null;
  filterName: string;
  versionId: string;
  busy: boolean;
  onConfirm: (feedback: string) => void;
  onCancel: () => void;
}) {
  const [feedback, setFeedback] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (action) {
      setFeedback('');
      setTouched(false);
    }
  }, [action]);
  const [shown, setShown] = useState(action);
  if (action && action !== shown) setShown(action);
  const current = action ?? shown;
  if (!current) return null;
  const enabling = current.target === 'ENABLED';
  const problem = enabling ? null : validateFeedback(current, feedback);

  return (
    <Modal
      show={action !== null}
      onHide={busy ? () => undefined : onCancel}
      centered
      aria-labelledby="transition-modal-title"
      data-testid="transition-modal"
    >
      <Form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (!problem && !busy) onConfirm(feedback.trim());
        }}
      >
        <Modal.Header closeButton={!busy}>
          <Modal.Title id="transition-modal-title" as="h2" className="h5">
            {current.label}: version #{versionId}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {enabling ? (
            <p className="mb-0">
              Are you sure you want to enable this version of the filter &quot;{filterName}&quot;? It will run on every new alert.
            </p>
          ) : (
            <Form.Group controlId="transition-feedback">
              <Form.Label>Feedback {current.feedbackRequired ? '(required)' : '(optional)'}</Form.Label>
              <Form.Control
                as="textarea"
                rows={4}
                value={feedback}
                autoFocus
                onChange={(e) => setFeedback(e.target.value)}
                onBlur={() => setTouched(true)}
                isInvalid={touched && problem !== null}
                required={current.feedbackRequired}
              />
              <Form.Control.Feedback type="invalid">{problem}</Form.Control.Feedback>
              <Form.Text className="d-block">The filter&apos;s author sees this feedback next to the version.</Form.Text>
            </Form.Group>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant={current.variant} disabled={busy}>
            {busy ? 'Working...' : current.label}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

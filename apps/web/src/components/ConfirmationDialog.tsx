import { type ReactNode, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';

/**
 * A confirmation that must be typed: Confirm is enabled only when the typed text equals
 * `confirmationText` exactly. Cancel, Escape or closing the dialog is not a confirmation.
 */
export function ConfirmationDialog({
  show,
  title,
  children,
  confirmationText,
  confirmLabel = 'Confirm',
  confirmVariant = 'danger',
  busy = false,
  onConfirm,
  onCancel,
}: {
  show: boolean;
  title: string;
  children: ReactNode;
  confirmationText: string;
  confirmLabel?: string;
  confirmVariant?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const [typed, setTyped] = useState('');
  useEffect(() => {
    if (show) setTyped('');
  }, [show]);
  const matches = typed === confirmationText;

  return (
    <Modal
      show={show}
      onHide={busy ? () => undefined : onCancel}
      centered
      aria-labelledby="confirmation-dialog-title"
      data-testid="confirmation-dialog"
    >
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          if (matches && !busy) onConfirm();
        }}
      >
        <Modal.Header closeButton={!busy}>
          <Modal.Title id="confirmation-dialog-title" as="h2" className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {children}
          <Form.Group controlId="confirmation-dialog-input" className="mt-3">
            <Form.Label>
              Type <strong className="font-monospace user-select-all">{confirmationText}</strong> to confirm.
            </Form.Label>
            <Form.Control
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
              autoFocus
              spellCheck={false}
            />
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant={confirmVariant} disabled={!matches || busy}>
            {busy ? 'Working...' : confirmLabel}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

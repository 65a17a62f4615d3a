import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/** Asks before deleting a filter's file: a version waiting for review loses it too (reviewed ones keep theirs). */
export function DeleteFileDialog({
  name,
  busy,
  onConfirm,
  onCancel,
}: {
  name: string | null;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal show={name !== null} onHide={busy ? () => undefined : onCancel} centered aria-labelledby="delete-file-title">
      <Modal.Header closeButton={!busy}>
        <Modal.Title id="delete-file-title" as="h2" className="h5">
          Delete {name}?
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        The file is deleted from this filter and from its versions waiting for review. Reviewed and enabled versions keep the file they were
        reviewed with.
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy} autoFocus>
          {busy ? 'Deleting...' : 'Delete File'}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/**
 * Asks before deleting watch lists: deletion cannot be undone (a list's objects and its matches go
 * with it), so the selected lists are named and Delete must be pressed a second time.
 */
export function DeleteWatchListsDialog({
  show,
  names,
  busy,
  onConfirm,
  onCancel,
}: {
  show: boolean;
  names: string[];
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const several = names.length > 1;
  return (
    <Modal
      show={show}
      onHide={busy ? () => undefined : onCancel}
      centered
      aria-labelledby="delete-watch-lists-title"
      data-testid="delete-watch-lists-dialog"
    >
      <Modal.Header closeButton={!busy}>
        <Modal.Title id="delete-watch-lists-title" as="h2" className="h5">
          {several ? `Delete ${names.length} watch lists?` : 'Delete this watch list?'}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p>
          {several ? 'These watch lists and their objects' : 'This watch list and its objects'} will be deleted for good, and their loci
          will no longer be marked as matched.
        </p>
        <ul className="mb-0" style={{ maxHeight: '12rem', overflowY: 'auto' }}>
          {names.map((name, i) => (
            <li key={`${i}-${name}`}>{name}</li>
          ))}
        </ul>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy} autoFocus>
          {busy ? 'Deleting...' : several ? `Delete ${names.length} Watch Lists` : 'Delete Watch List'}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

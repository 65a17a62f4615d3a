import Modal from 'react-bootstrap/Modal';

import type { ScriptQuery } from './python-script';
import { PythonScriptView } from './PythonScriptView';

/** The 'ANTARES API' dialog (loaded on the first click of API Access: the list itself needs no modal code). */
export default function ApiAccessDialog({ query, show, onHide }: { query: ScriptQuery; show: boolean; onHide: () => void }) {
  return (
    <Modal show={show} onHide={onHide} size="lg" aria-labelledby="api-access-title">
      <Modal.Header closeButton>
        <Modal.Title id="api-access-title">ANTARES API</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <PythonScriptView query={query} testId="api-script" />
      </Modal.Body>
    </Modal>
  );
}

import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

import { CodeIcon } from '@/components/Icons';

import type { ScriptQuery } from './python-script';
import { PythonScriptView } from './PythonScriptView';

/** 'ANTARES API' modal: the script view of the current query. */
export function ApiAccessModal({ query }: { query: ScriptQuery }) {
  const [show, setShow] = useState(false);
  return (
    <>
      <Button variant="outline-secondary" size="sm" onClick={() => setShow(true)}>
        <CodeIcon /> API Access
      </Button>
      <Modal show={show} onHide={() => setShow(false)} size="lg" aria-labelledby="api-access-title">
        <Modal.Header closeButton>
          <Modal.Title id="api-access-title">ANTARES API</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <PythonScriptView query={query} testId="api-script" />
        </Modal.Body>
      </Modal>
    </>
  );
}

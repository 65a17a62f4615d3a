import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { CodeIcon, DownloadIcon } from '../../../components/Icons';
import { getConfig } from '../../../lib/config';
import { saveBlob } from '../../../lib/download';
import type { SearchFilter } from '../../../lib/locus-query';
import { buildPythonScript, PIP_INSTALL, SCRIPT_FILE_NAME } from './python-script';

/** 'ANTARES API' modal: the script view of the current query. */
export function ApiAccessModal({ filters }: { filters: SearchFilter[] }) {
  const [show, setShow] = useState(false);
  const [copied, setCopied] = useState(false);
  const script = buildPythonScript(filters, getConfig().apiURL);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(script);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  };

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
          <p>
            Run this search from Python with the ANTARES client. Install it (version 1.0 or higher) with <code>{PIP_INSTALL}</code>, save the
            script as <code>{SCRIPT_FILE_NAME}</code> and run <code>python {SCRIPT_FILE_NAME}</code>.
          </p>
          <pre className="bg-body-tertiary border rounded p-3 small" style={{ maxHeight: 400 }} data-testid="api-script">
            <code>{script}</code>
          </pre>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
          <Button variant="primary" onClick={() => saveBlob(new Blob([script], { type: 'text/x-python' }), SCRIPT_FILE_NAME)}>
            <DownloadIcon /> Download {SCRIPT_FILE_NAME}
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}

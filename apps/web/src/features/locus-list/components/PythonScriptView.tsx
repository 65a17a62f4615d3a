import { useState } from 'react';
import Button from 'react-bootstrap/Button';

import { DownloadIcon } from '@/components/Icons';
import { getConfig } from '@/lib/config';
import { saveBlob } from '@/lib/download';

import { buildPythonScript, PIP_INSTALL, SCRIPT_FILE_NAME, type ScriptQuery } from './python-script';

/**
 * The script view of the current query (filters and sort): antares_search.py with Copy and Download.
 * Shown in the 'ANTARES API' modal and in the search panel's Script tab.
 */
export function PythonScriptView({ query, testId }: { query: ScriptQuery; testId: string }) {
  const [copied, setCopied] = useState(false);
  const script = buildPythonScript(query, getConfig().apiURL);

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
      <p className="small">
        Run this search from Python with the ANTARES client. Install it (version 1.0 or higher) with <code>{PIP_INSTALL}</code>, save the
        script as <code>{SCRIPT_FILE_NAME}</code> and run <code>python {SCRIPT_FILE_NAME}</code>.
      </p>
      <pre className="bg-body-tertiary border rounded p-3 small" style={{ maxHeight: 400 }} data-testid={testId} tabIndex={0}>
        <code>{script}</code>
      </pre>
      <div className="d-flex flex-wrap justify-content-end gap-2">
        <Button size="sm" variant="outline-secondary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button size="sm" variant="primary" onClick={() => saveBlob(new Blob([script], { type: 'text/x-python' }), SCRIPT_FILE_NAME)}>
          <DownloadIcon /> Download {SCRIPT_FILE_NAME}
        </Button>
      </div>
    </>
  );
}

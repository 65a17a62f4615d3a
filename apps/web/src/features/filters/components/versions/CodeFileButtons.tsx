import { useId, useRef } from 'react';
import Button from 'react-bootstrap/Button';

import { saveBlob } from '@/lib/download';

import { codeFileName } from './version-format';

/** Download the code shown as {filter name}.py; upload a code file into the editor (when allowed). */
export function CodeFileButtons({ filterName, code, onUpload }: { filterName: string; code: string; onUpload?: (code: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  return (
    <>
      {onUpload && (
        <>
          <input
            ref={input}
            id={inputId}
            type="file"
            accept=".py,text/x-python,text/plain"
            className="visually-hidden"
            tabIndex={-1}
            aria-label="Code file to upload"
            data-testid="code-upload"
            onChange={async (event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) onUpload(await file.text());
            }}
          />
          <Button variant="outline-secondary" size="sm" onClick={() => input.current?.click()}>
            Upload code
          </Button>
        </>
      )}
      <Button
        variant="outline-secondary"
        size="sm"
        onClick={() => saveBlob(new Blob([code], { type: 'text/x-python' }), codeFileName(filterName))}
      >
        Download {codeFileName(filterName)}
      </Button>
    </>
  );
}

import { MESSAGES } from '@antares/contract';
import { useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';

import { CSV_RULES, INVALID_CSV_MESSAGE, parseObjectsCsv, type WatchObjectInput } from '@/features/watch-lists/api/objects-csv';

export type ObjectsFile =
  | { status: 'none' }
  | { status: 'checking'; name: string; objects: number }
  | { status: 'valid'; name: string; objects: WatchObjectInput[] }
  | { status: 'invalid'; name: string; line: number | null; problem: string };

function Rules({ id }: { id?: string }) {
  return (
    <ul className="mb-0 small" id={id}>
      {CSV_RULES.map((rule) => (
        <li key={rule}>{rule}</li>
      ))}
    </ul>
  );
}

/**
 * The objects file: read and checked in the browser as soon as it is chosen, so a bad file gets the
 * spec's message (and where the first problem is) before anything is sent.
 */
export function ObjectsFileField({
  value,
  onChange,
  touched,
  onTouched,
  disabled,
}: {
  value: ObjectsFile;
  onChange: (file: ObjectsFile) => void;
  touched: boolean;
  onTouched: () => void;
  disabled?: boolean;
}) {
  // Only the newest choice may report: a slower read of an older file is dropped.
  const generation = useRef(0);
  const [inputKey, setInputKey] = useState(0);

  const choose = async (file: File | undefined) => {
    onTouched();
    const mine = (generation.current += 1);
    if (!file) return onChange({ status: 'none' });
    onChange({ status: 'checking', name: file.name, objects: 0 });
    const result = await parseObjectsCsv(file, (objects) => {
      if (generation.current === mine) onChange({ status: 'checking', name: file.name, objects });
    });
    if (generation.current !== mine) return;
    onChange(
      result.ok
        ? { status: 'valid', name: file.name, objects: result.objects }
        : { status: 'invalid', name: file.name, line: result.line, problem: result.problem },
    );
  };

  const missing = touched && value.status === 'none';
  const invalid = value.status === 'invalid' || missing;
  return (
    <Form.Group className="mb-3" controlId="watch-list-objects">
      <Form.Label>Objects File (CSV)</Form.Label>
      <Form.Control
        key={inputKey}
        type="file"
        accept=".csv,text/csv,text/plain"
        required
        disabled={disabled}
        isInvalid={invalid}
        isValid={value.status === 'valid'}
        aria-describedby="watch-list-objects-status watch-list-objects-rules"
        onChange={(event) => void choose((event.target as HTMLInputElement).files?.[0])}
      />
      <div id="watch-list-objects-status" aria-live="polite">
        {missing && <div className="invalid-feedback d-block">{MESSAGES.required}</div>}
        {value.status === 'checking' && (
          <div className="form-text" data-testid="objects-file-checking">
            Checking {value.name}... {value.objects.toLocaleString('en-US')} objects read
          </div>
        )}
        {value.status === 'valid' && (
          <div className="valid-feedback d-block" data-testid="objects-file-valid">
            {value.objects.length.toLocaleString('en-US')} {value.objects.length === 1 ? 'object' : 'objects'} read from {value.name}.
          </div>
        )}
        {value.status === 'invalid' && (
          <div className="invalid-feedback d-block" data-testid="objects-file-invalid">
            <p className="mb-1 fw-semibold">{INVALID_CSV_MESSAGE}</p>
            <p className="mb-1">
              {value.line === null ? 'Problem' : `Line ${value.line}`}: {value.problem}.
            </p>
          </div>
        )}
      </div>
      <Form.Text as="div" className={value.status === 'invalid' ? 'text-danger' : undefined}>
        <Rules id="watch-list-objects-rules" />
      </Form.Text>
      {value.status !== 'none' && !disabled && (
        <button
          type="button"
          className="btn btn-link btn-sm px-0"
          onClick={() => {
            generation.current += 1;
            setInputKey((k) => k + 1);
            onChange({ status: 'none' });
          }}
        >
          Remove file
        </button>
      )}
    </Form.Group>
  );
}

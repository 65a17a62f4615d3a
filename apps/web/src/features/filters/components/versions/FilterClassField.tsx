import Form from 'react-bootstrap/Form';

import { validateFilterClass } from '@/features/filters/components/filter-rules';

/**
 * Which filter of the code to run, for code that defines several (a notebook export with helper classes
 * and drafts): blank runs the last filter class the code defines. The classes a test found are offered.
 */
export function FilterClassField({
  value,
  onChange,
  found,
  readOnly = false,
}: {
  value: string;
  onChange?: (value: string) => void;
  /** The filters the last test found in the code, in order (empty before a test). */
  found: string[];
  readOnly?: boolean;
}) {
  const problem = validateFilterClass(value);
  const last = found.at(-1);
  return (
    <Form.Group className="mb-2" controlId="filter-class" data-testid="filter-class">
      <Form.Label className="small mb-1">Filter class</Form.Label>
      <Form.Control
        type="text"
        size="sm"
        className="font-monospace"
        value={value}
        readOnly={readOnly}
        autoComplete="off"
        list={found.length > 0 && !readOnly ? 'filter-class-found' : undefined}
        placeholder={last ? `${last} (the last one defined)` : 'the last filter class the code defines'}
        onChange={(e) => onChange?.(e.target.value)}
        isInvalid={problem !== null}
        aria-describedby="filter-class-help"
      />
      {found.length > 0 && !readOnly && (
        <datalist id="filter-class-found">
          {found.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      )}
      <Form.Control.Feedback type="invalid">{problem}</Form.Control.Feedback>
      <Form.Text id="filter-class-help" className="d-block">
        {found.length > 1
          ? `The code defines ${found.length} filters: ${found.join(', ')}.`
          : 'For code that defines several filters (helpers, drafts): the one to run. Blank: the last one defined.'}
      </Form.Text>
    </Form.Group>
  );
}

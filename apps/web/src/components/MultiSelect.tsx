import { useMemo, useState } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';

import { formatMetric } from '@/lib/format';

/** Checkbox multi-select with a filter box; each option shows its count (metric suffixes). */
export function MultiSelect({
  id,
  label,
  options,
  selected,
  onChange,
  disabled,
}: {
  id: string;
  label: string;
  options: Record<string, number>;
  selected: string[];
  onChange: (next: string[]) => void;
  disabled?: boolean;
}) {
  const [filter, setFilter] = useState('');
  const entries = useMemo(
    () =>
      Object.entries(options)
        .filter(([name]) => name.toLowerCase().includes(filter.toLowerCase()))
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
    [options, filter],
  );
  const toggle = (name: string, checked: boolean) => onChange(checked ? [...selected, name] : selected.filter((item) => item !== name));
  const summary = selected.length === 0 ? `Select ${label.toLowerCase()}` : selected.join(', ');

  return (
    <Form.Group className="mb-3">
      <Form.Label id={`${id}-label`} className="small fw-semibold mb-1">
        {label}
      </Form.Label>
      <Dropdown autoClose="outside">
        <Dropdown.Toggle
          id={id}
          variant="outline-secondary"
          size="sm"
          className="w-100 text-start text-truncate"
          disabled={disabled}
          aria-labelledby={`${id}-label ${id}`}
        >
          {summary}
        </Dropdown.Toggle>
        <Dropdown.Menu className="p-2 w-100" style={{ maxHeight: 320, overflowY: 'auto' }}>
          <Form.Control
            size="sm"
            type="search"
            placeholder="Filter options"
            aria-label={`Filter ${label.toLowerCase()}`}
            value={filter}
            onChange={(event) => setFilter(event.target.value)}
            className="mb-2"
          />
          {entries.length === 0 && <div className="small text-body-secondary px-1">No options</div>}
          {entries.map(([name, count]) => (
            <Form.Check
              key={name}
              type="checkbox"
              id={`${id}-${name}`}
              className="small"
              checked={selected.includes(name)}
              onChange={(event) => toggle(name, event.target.checked)}
              label={
                <span className="d-flex justify-content-between gap-2">
                  <span className="text-break">{name}</span>
                  <span className="badge text-bg-secondary">{formatMetric(count)}</span>
                </span>
              }
            />
          ))}
        </Dropdown.Menu>
      </Dropdown>
    </Form.Group>
  );
}

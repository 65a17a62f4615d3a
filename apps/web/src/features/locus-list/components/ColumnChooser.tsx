import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';

import { ColumnsIcon } from '@/components/Icons';

import { LOCUS_COLUMN_LABELS } from './locus-columns';

/** Checkbox dropdown choosing the visible columns (persisted by the caller). */
export function ColumnChooser({
  visible,
  onChange,
}: {
  visible: Record<string, boolean>;
  onChange: (next: Record<string, boolean>) => void;
}) {
  return (
    <Dropdown autoClose="outside" align="end">
      <Dropdown.Toggle variant="outline-secondary" size="sm" id="locus-columns-toggle">
        <ColumnsIcon /> Columns
      </Dropdown.Toggle>
      <Dropdown.Menu className="px-3 py-2" style={{ minWidth: 220 }}>
        {Object.entries(LOCUS_COLUMN_LABELS).map(([id, label]) => (
          <Form.Check
            key={id}
            type="checkbox"
            id={`locus-column-${id}`}
            label={label}
            checked={visible[id] !== false}
            onChange={(event) => onChange({ ...visible, [id]: event.target.checked })}
          />
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}

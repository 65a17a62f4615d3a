import Form from 'react-bootstrap/Form';

/** 'Show N entries' selector; the option lists come from the spec's business constants. */
export function PageSizeSelect({
  value,
  options,
  onChange,
  id,
}: {
  value: number;
  options: readonly number[];
  onChange: (size: number) => void;
  id: string;
}) {
  return (
    <div className="d-flex align-items-center gap-2 small">
      <label htmlFor={id} className="text-nowrap">
        Show
      </label>
      <Form.Select id={id} size="sm" value={value} onChange={(event) => onChange(Number(event.target.value))} style={{ width: 'auto' }}>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </Form.Select>
      <span className="text-nowrap">entries</span>
    </div>
  );
}

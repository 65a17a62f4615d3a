import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';

import { TIME_RANGE_CHOICES, TIME_RANGE_LABELS, type TimeRangeChoice, type TimeRangeControl } from './search-controls';

/** 'Latest Alert Within' / 'First Alert Within': relative ranges or custom MJD bounds. */
export function TimeRangeSelect({
  id,
  label,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  value: TimeRangeControl;
  onChange: (next: TimeRangeControl) => void;
  error?: string;
}) {
  return (
    <Form.Group className="mb-3">
      <Form.Label htmlFor={id} className="small fw-semibold mb-1">
        {label}
      </Form.Label>
      <Form.Select
        id={id}
        size="sm"
        value={value.choice}
        // Every choice clears both custom bounds; custom then shows empty Min/Max MJD inputs.
        onChange={(event) => onChange({ choice: event.target.value as TimeRangeChoice, min: '', max: '' })}
      >
        {TIME_RANGE_CHOICES.map((choice) => (
          <option key={choice} value={choice}>
            {TIME_RANGE_LABELS[choice]}
          </option>
        ))}
      </Form.Select>
      {value.choice === 'CUSTOM_RANGE' && (
        <Row className="g-2 mt-1">
          <Col>
            <Form.Control
              size="sm"
              type="number"
              step="any"
              placeholder="Min MJD"
              aria-label={`${label} Min MJD`}
              value={value.min}
              isInvalid={Boolean(error)}
              onChange={(event) => onChange({ ...value, min: event.target.value })}
            />
          </Col>
          <Col>
            <Form.Control
              size="sm"
              type="number"
              step="any"
              placeholder="Max MJD"
              aria-label={`${label} Max MJD`}
              value={value.max}
              isInvalid={Boolean(error)}
              onChange={(event) => onChange({ ...value, max: event.target.value })}
            />
          </Col>
        </Row>
      )}
      {error && <div className="invalid-feedback d-block">{error}</div>}
    </Form.Group>
  );
}

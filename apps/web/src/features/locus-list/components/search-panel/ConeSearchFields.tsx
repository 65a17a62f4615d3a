import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';

import type { ConeControl } from './search-controls';

/** Cone search centre (three coordinate formats) and radius in arcsec or arcmin. */
export function ConeSearchFields({
  value,
  onChange,
  errors,
}: {
  value: ConeControl;
  onChange: (next: ConeControl) => void;
  errors: Record<string, string>;
}) {
  return (
    <fieldset className="mb-3">
      <legend className="small fw-semibold mb-1 fs-6">Cone Search</legend>
      <Form.Control
        size="sm"
        placeholder="e.g. 10.6846 41.2692 or 00:42:44.3 +41:16:09"
        aria-label="Cone search centre (RA Dec)"
        value={value.center}
        isInvalid={Boolean(errors.center)}
        onChange={(event) => onChange({ ...value, center: event.target.value })}
      />
      {errors.center && <div className="invalid-feedback d-block">{errors.center}</div>}
      <Form.Text className="d-block small">Decimal degrees, degrees (10d41m04s +41d16m09s) or sexagesimal hours with colons.</Form.Text>
      <InputGroup size="sm" className="mt-2">
        <InputGroup.Text as="label" htmlFor="cone-radius">
          Radius
        </InputGroup.Text>
        <Form.Control
          id="cone-radius"
          type="number"
          min={0}
          step="any"
          value={value.radius}
          isInvalid={Boolean(errors.radius)}
          onChange={(event) => onChange({ ...value, radius: event.target.value })}
        />
        <Form.Select
          aria-label="Radius unit"
          value={value.unit}
          onChange={(event) => onChange({ ...value, unit: event.target.value as ConeControl['unit'] })}
          // Its own width, whatever the panel's: the number field takes what is left.
          style={{ flex: '0 0 6.5rem' }}
        >
          <option value="arcsec">arcsec</option>
          <option value="arcmin">arcmin</option>
        </Form.Select>
      </InputGroup>
      {errors.radius && <div className="invalid-feedback d-block">{errors.radius}</div>}
    </fieldset>
  );
}

/** A two-handle integer range slider built from two native range inputs (keyboard accessible). */
export function RangeSlider({
  id,
  min,
  max,
  value,
  onChange,
  label,
}: {
  id: string;
  min: number;
  max: number;
  value: [number, number];
  onChange: (next: [number, number]) => void;
  label: string;
}) {
  const [lo, hi] = value;
  const span = Math.max(1, max - min);
  const left = ((lo - min) / span) * 100;
  const right = ((hi - min) / span) * 100;
  return (
    <div className="range-slider" role="group" aria-labelledby={`${id}-label`}>
      <div className="d-flex justify-content-between small mb-1">
        <span id={`${id}-label`} className="fw-semibold">
          {label}
        </span>
        <output htmlFor={`${id}-min ${id}-max`} aria-live="polite" className="text-nowrap ms-2">
          {lo} - {hi}
        </output>
      </div>
      <div className="range-slider-track">
        <div className="range-slider-fill" style={{ left: `${left}%`, width: `${right - left}%` }} />
        <input
          id={`${id}-min`}
          type="range"
          min={min}
          max={max}
          step={1}
          value={lo}
          aria-label={`Minimum ${label.toLowerCase()}`}
          onChange={(event) => onChange([Math.min(Number(event.target.value), hi), hi])}
        />
        <input
          id={`${id}-max`}
          type="range"
          min={min}
          max={max}
          step={1}
          value={hi}
          aria-label={`Maximum ${label.toLowerCase()}`}
          onChange={(event) => onChange([lo, Math.max(Number(event.target.value), lo)])}
        />
      </div>
      <div className="d-flex justify-content-between small text-body-secondary">
        <span>{min}</span>
        <span>{max}</span>
      </div>
    </div>
  );
}

import { symbol } from 'd3-shape';
import { MARK_KINDS, MARK_LABELS, MARK_SYMBOLS } from '../lightcurve/lightcurve-marks';
import { alertTypeLabel, passbandColor } from '../lightcurve/survey-codes';

/**
 * Key to the locus' alerts: the alert types present (ant_survey codes, ZTF and Rubin), the marker
 * shapes of the lightcurve (by magnitude type) and the passband colours.
 */
export function AlertTypeLegend({ alertTypes, passbands }: { alertTypes: number[]; passbands: string[] }) {
  return (
    <div className="small" data-testid="alert-type-legend">
      <h3 className="h6">Alert types</h3>
      <ul className="list-unstyled mb-2">
        {alertTypes.map((code) => (
          <li key={code} className="d-flex align-items-center gap-2">
            <span className="badge text-bg-light border" aria-hidden="true">
              {code}
            </span>
            {alertTypeLabel(code)}
          </li>
        ))}
      </ul>
      <h3 className="h6">Markers</h3>
      <ul className="list-unstyled mb-2">
        {MARK_KINDS.map((kind) => {
          const spec = MARK_SYMBOLS[kind];
          return (
            <li key={kind} className="d-flex align-items-center gap-2">
              <svg width={14} height={14} aria-hidden="true">
                <path
                  transform={`translate(7,7) rotate(${spec.rotate})`}
                  d={symbol(spec.type, spec.size)() ?? ''}
                  fill={kind === 'magnitude' ? '#555' : kind === 'other' ? 'none' : '#fff'}
                  stroke="#555"
                  strokeWidth={kind === 'magnitude' ? 0.5 : 1.5}
                />
              </svg>
              {MARK_LABELS[kind]}
            </li>
          );
        })}
      </ul>
      <ul className="list-inline mb-0" aria-label="Passbands">
        {passbands.map((band) => (
          <li key={band} className="list-inline-item" data-passband={band}>
            <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: passbandColor(band) }} aria-hidden="true" /> {band}
          </li>
        ))}
      </ul>
    </div>
  );
}

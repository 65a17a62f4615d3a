import { symbol } from 'd3-shape';

import { MARK_KINDS, MARK_LABELS, MARK_SYMBOLS } from '@/features/locus-detail/components/lightcurve/lightcurve-marks';
import { type AlertType, alertTypeCode, alertTypeLabel, passbandColor } from '@/features/locus-detail/components/lightcurve/survey-codes';

/**
 * Key to the locus' alerts: the alert types present, each with the ant_survey code clients see
 * (1, 2 ZTF, 3 DECam, 4 Rubin), the marker shapes of the lightcurve (by magnitude type) and the
 * passband colours.
 */
export function AlertTypeLegend({ alertTypes, passbands }: { alertTypes: AlertType[]; passbands: string[] }) {
  return (
    <div className="small" data-testid="alert-type-legend">
      <h3 className="h6">Alert types</h3>
      <ul className="list-unstyled mb-2">
        {alertTypes.map((type) => (
          <li key={type} className="d-flex align-items-center gap-2" data-alert-type={type}>
            <span className="badge text-bg-light border" aria-hidden="true">
              {alertTypeCode(type)}
            </span>
            {alertTypeLabel(type)}
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
            <span
              style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: passbandColor(band) }}
              aria-hidden="true"
            />{' '}
            {band}
          </li>
        ))}
      </ul>
    </div>
  );
}

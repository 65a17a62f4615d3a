import { mjdText } from '@/lib/time';

import type { Mark, Quantity } from './lightcurve-marks';
import { alertTypeLabel } from './survey-codes';

const KIND_TEXT = { magnitude: '', upper_limit: 'upper limit ', lower_limit: 'lower limit ', other: '' } as const;

/** What the tooltip says of a mark: its value with its unit (and error), or why there is none. */
export function markValueText(mark: Mark, quantity: Quantity): string {
  if (mark.y === undefined) return 'no magnitude or limit';
  const digits = quantity === 'magnitude' ? 3 : 1;
  const unit = quantity === 'magnitude' ? ' mag' : ' nJy';
  const error = mark.kind === 'magnitude' && mark.err !== undefined ? ` ± ${mark.err.toFixed(digits)}` : '';
  return `${KIND_TEXT[mark.kind]}${mark.y.toFixed(digits)}${error}${unit}`;
}

/** The hovered point's time, band, value and alert id, beside the pointer. */
export default function LightcurveTooltip({
  mark,
  at,
  quantity,
  phase,
}: {
  mark: Mark;
  at: [number, number];
  quantity: Quantity;
  phase: boolean;
}) {
  return (
    <div
      role="tooltip"
      data-testid="lightcurve-tooltip"
      className="position-absolute bg-body border rounded shadow-sm px-2 py-1 small"
      style={{ left: at[0] + 14, top: Math.max(0, at[1] - 10), pointerEvents: 'none', whiteSpace: 'nowrap', zIndex: 2 }}
    >
      <div>
        <strong>{mark.alertId}</strong>
      </div>
      <div>
        MJD {mark.mjd.toFixed(5)} ({mjdText(mark.mjd)}){phase ? `, phase ${(mark.x % 1).toFixed(3)}` : ''}
      </div>
      <div>
        {mark.passband}
        {mark.alertType ? ` · ${alertTypeLabel(mark.alertType)}` : ''} · {markValueText(mark, quantity)}
      </div>
    </div>
  );
}

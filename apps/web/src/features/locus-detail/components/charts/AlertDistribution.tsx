import { bin } from 'd3-array';
import { scaleLinear } from 'd3-scale';

import type { LightcurvePoint } from '@/features/locus-detail/api/lightcurve';
import { passbandColor, sortPassbands } from '@/features/locus-detail/components/lightcurve/survey-codes';

const W = 360;
const H = 180;
const M = { top: 10, right: 10, bottom: 32, left: 34 };

/** Alerts over time: a histogram of alert MJDs stacked by passband (detections and limits alike). */
export function AlertDistribution({ points }: { points: LightcurvePoint[] }) {
  if (points.length === 0) return <p className="text-body-secondary small mb-0">No alerts.</p>;
  const mjds = points.map((p) => p.ant_mjd);
  let lo = Math.min(...mjds);
  let hi = Math.max(...mjds);
  if (hi - lo < 1) {
    lo -= 0.5;
    hi += 0.5;
  }
  const passbands = sortPassbands(points.map((p) => p.ant_passband));
  const binner = bin<LightcurvePoint, number>()
    .value((p) => p.ant_mjd)
    .domain([lo, hi])
    .thresholds(20);
  const bins = binner(points);
  const x = scaleLinear()
    .domain([lo, hi])
    .range([M.left, W - M.right]);
  const maxCount = Math.max(1, ...bins.map((b) => b.length));
  const y = scaleLinear()
    .domain([0, maxCount])
    .nice()
    .range([H - M.bottom, M.top]);
  return (
    <figure className="mb-0">
      <svg
        width={W}
        height={H}
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Distribution of ${points.length} alerts over time by passband`}
        fontSize={10}
      >
        {bins.map((b, i) => {
          let base = 0;
          return passbands.map((band) => {
            const count = b.filter((p) => p.ant_passband === band).length;
            if (count === 0) return null;
            const rect = (
              <rect
                key={`${i}-${band}`}
                x={x(b.x0!) + 0.5}
                width={Math.max(0, x(b.x1!) - x(b.x0!) - 1)}
                y={y(base + count)}
                height={y(base) - y(base + count)}
                fill={passbandColor(band)}
              >
                <title>{`${band}: ${count} alerts, MJD ${b.x0!.toFixed(1)}-${b.x1!.toFixed(1)}`}</title>
              </rect>
            );
            base += count;
            return rect;
          });
        })}
        <line x1={M.left} x2={W - M.right} y1={H - M.bottom} y2={H - M.bottom} stroke="#888" />
        {x.ticks(4).map((tick) => (
          <text key={tick} x={x(tick)} y={H - M.bottom + 12} textAnchor="middle" fill="#555">
            {tick}
          </text>
        ))}
        {y.ticks(4).map((tick) => (
          <text key={tick} x={M.left - 4} y={y(tick) + 3} textAnchor="end" fill="#555">
            {tick}
          </text>
        ))}
        <text x={(M.left + W) / 2} y={H - 4} textAnchor="middle" fill="#222">
          MJD
        </text>
      </svg>
      <figcaption className="small text-body-secondary">
        Alert distribution:{' '}
        {passbands.map((band) => (
          <span key={band} className="me-2">
            <span style={{ display: 'inline-block', width: 10, height: 10, background: passbandColor(band) }} aria-hidden="true" /> {band}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

import { scaleLinear } from 'd3-scale';

import type { NearbyLocus } from '@/features/locus-detail/api/get-nearby-loci';
import type { LightcurvePoint } from '@/features/locus-detail/api/lightcurve';
import { passbandColor } from '@/features/locus-detail/components/lightcurve/survey-codes';

const SIZE = 250;
const PAD = 30;
const EXTENT_ARCSEC = 1.5;
const RINGS = [0.5, 1, 1.5];

/** Offset of a position from the locus in arcsec: east (increasing RA) to the left, as on the sky. */
function offset(ra: number, dec: number, ra0: number, dec0: number): [number, number] {
  let dra = ra - ra0;
  if (dra > 180) dra -= 360;
  if (dra < -180) dra += 360;
  return [dra * Math.cos((dec0 * Math.PI) / 180) * 3600, (dec - dec0) * 3600];
}

/** Alert positions around the locus within +/-1.5 arcsec (250x250), with 0.5" grid circles and nearby loci. */
export function RaDecChart({ ra, dec, points, nearby }: { ra: number; dec: number; points: LightcurvePoint[]; nearby: NearbyLocus[] }) {
  const x = scaleLinear()
    .domain([EXTENT_ARCSEC, -EXTENT_ARCSEC])
    .range([PAD, SIZE - 10]);
  const y = scaleLinear()
    .domain([-EXTENT_ARCSEC, EXTENT_ARCSEC])
    .range([SIZE - PAD, 10]);
  const r = (arcsec: number) => Math.abs(x(arcsec) - x(0));
  const positioned = points.filter((p) => typeof p.ant_ra === 'number' && typeof p.ant_dec === 'number');
  const inside = ([dx, dy]: [number, number]) => Math.abs(dx) <= EXTENT_ARCSEC && Math.abs(dy) <= EXTENT_ARCSEC;
  return (
    <figure className="mb-0">
      <svg
        width={SIZE}
        height={SIZE}
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        role="img"
        aria-label={`Positions of ${positioned.length} alerts relative to the locus, within 1.5 arcseconds`}
        fontSize={10}
      >
        <rect x={PAD} y={10} width={SIZE - PAD - 10} height={SIZE - PAD - 10} fill="#fff" stroke="#ccc" />
        {RINGS.map((ring) => (
          <circle key={ring} cx={x(0)} cy={y(0)} r={r(ring)} fill="none" stroke="#bbb" strokeDasharray="3 3" />
        ))}
        <line x1={x(0)} x2={x(0)} y1={10} y2={SIZE - PAD} stroke="#eee" />
        <line x1={PAD} x2={SIZE - 10} y1={y(0)} y2={y(0)} stroke="#eee" />
        {[-1.5, -1, -0.5, 0, 0.5, 1, 1.5].map((tick) => (
          <g key={tick}>
            <text x={x(tick)} y={SIZE - PAD + 12} textAnchor="middle" fill="#555">
              {tick}
            </text>
            <text x={PAD - 4} y={y(tick) + 3} textAnchor="end" fill="#555">
              {tick}
            </text>
          </g>
        ))}
        <text x={(PAD + SIZE) / 2} y={SIZE - 3} textAnchor="middle" fill="#222">
          ΔRA (arcsec, east left)
        </text>
        {nearby.map((locus) => {
          const d = offset(locus.ra, locus.dec, ra, dec);
          return inside(d) ? (
            <path key={locus.id} d={`M${x(d[0]) - 4},${y(d[1]) - 4}l8,8m0,-8l-8,8`} stroke="#000" strokeWidth={1.5}>
              <title>{locus.id}</title>
            </path>
          ) : null;
        })}
        {positioned.map((point) => {
          const d = offset(point.ant_ra!, point.ant_dec!, ra, dec);
          return inside(d) ? (
            <circle key={point.alert_id} cx={x(d[0])} cy={y(d[1])} r={2.5} fill={passbandColor(point.ant_passband)} fillOpacity={0.75} />
          ) : null;
        })}
        <circle cx={x(0)} cy={y(0)} r={3} fill="none" stroke="#0d6efd" strokeWidth={1.5} />
      </svg>
      <figcaption className="small text-body-secondary">
        RA/Dec distribution of alerts (ΔDec vertical); circles every 0.5"; × nearby loci.
      </figcaption>
    </figure>
  );
}

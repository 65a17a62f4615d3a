import Alert from 'react-bootstrap/Alert';
import Placeholder from 'react-bootstrap/Placeholder';

import { ErrorState } from '@/components/ErrorState';
import { MAP_LOCI_LIMIT, useMapLoci, useSkyMap } from '@/features/gw-events/api/get-skymap';
import { isNotFound } from '@/lib/api-client';

import { formatArea } from './gw-format';
import { DENSITY_COLOURS } from './sky-map/sky-raster';
import { CONTOUR_COLOUR, CONTOUR_STYLES, SkyMapChart, SMALL_REGION_DEG2 } from './sky-map/SkyMapChart';

function ContourSwatch({ dash, width }: { dash?: string; width: number }) {
  return (
    <svg width={28} height={10} aria-hidden="true" className="me-1">
      <line x1={0} y1={5} x2={28} y2={5} stroke={CONTOUR_COLOUR} strokeWidth={width} strokeDasharray={dash} />
    </svg>
  );
}

function Legend({ maxDensity, area50, area90 }: { maxDensity: number; area50: number | null; area90: number | null }) {
  const areas = [area50, area90];
  return (
    <div className="d-flex flex-wrap gap-4 justify-content-center small mt-2" data-testid="gw-sky-map-legend">
      <div>
        <div className="mb-1">Probability density (per deg²)</div>
        <div className="d-flex align-items-center gap-2">
          <span>0</span>
          <span
            aria-hidden="true"
            className="d-inline-block border"
            style={{ width: 160, height: 12, background: `linear-gradient(90deg, ${DENSITY_COLOURS.join(', ')})` }}
          />
          <span>{maxDensity > 0 ? maxDensity.toPrecision(3) : '0'}</span>
        </div>
      </div>
      <ul className="list-unstyled mb-0">
        {CONTOUR_STYLES.map((style, i) => (
          <li key={style.level}>
            <ContourSwatch dash={style.dash} width={style.width} />
            {Math.round(style.level * 100)}% credible region{areas[i] !== null ? ` (${formatArea(areas[i])})` : ''}
          </li>
        ))}
        <li>
          <svg width={28} height={10} aria-hidden="true" className="me-1">
            <circle cx={14} cy={5} r={3.5} fill="#fff" stroke="#000" />
          </svg>
          Locus inside the 90% region
        </li>
        {area90 !== null && area90 < SMALL_REGION_DEG2 && (
          <li>
            <svg width={28} height={16} aria-hidden="true" className="me-1">
              <circle cx={14} cy={8} r={6} fill="none" stroke={CONTOUR_COLOUR} strokeWidth={2} />
            </svg>
            Where the small credible region is
          </li>
        )}
      </ul>
    </div>
  );
}

/** The event's sky map with its loci; LOADING, SUCCESS, ERROR, and a note when the map has none. */
export function SkyMapSection({ gracedbId }: { gracedbId: string }) {
  const map = useSkyMap(gracedbId);
  const loci = useMapLoci(gracedbId);

  if (map.isError) {
    if (isNotFound(map.error)) return <Alert variant="secondary">No sky map is available for this event.</Alert>;
    return (
      <ErrorState title="Error Loading the Sky Map" message="There was an error loading the sky map of this event." error={map.error} />
    );
  }
  if (map.isPending || loci.isPending) {
    return (
      <Placeholder as="div" animation="glow" role="status" className="mx-auto" style={{ maxWidth: 800 }}>
        <span className="visually-hidden">Loading the sky map...</span>
        <Placeholder className="w-100 rounded" style={{ aspectRatio: '800 / 420' }} />
      </Placeholder>
    );
  }
  const shown = loci.data?.loci ?? [];
  const total = loci.data?.count ?? 0;
  const maxDensity = map.data.pixels.reduce((max, p) => Math.max(max, p.probability_density), 0);
  return (
    <figure className="mb-0">
      <SkyMapChart gracedbId={gracedbId} map={map.data} loci={shown} />
      <figcaption>
        <Legend maxDensity={maxDensity} area50={map.data.area50} area90={map.data.area90} />
        {loci.isError && <p className="text-danger small text-center mb-0">The loci could not be loaded: {loci.error.message}</p>}
        {total > shown.length && (
          <p className="text-body-secondary small text-center mb-0">
            The map shows the {MAP_LOCI_LIMIT} loci of lowest credible level out of {total}; the table below lists them all.
          </p>
        )}
      </figcaption>
    </figure>
  );
}

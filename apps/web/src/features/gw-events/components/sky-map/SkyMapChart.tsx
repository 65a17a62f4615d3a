import { geoGraticule, geoPath } from 'd3-geo';
import { useEffect, useId, useMemo, useRef } from 'react';

import type { SkyMap } from '@/features/gw-events/api/get-skymap';
import type { GwEventLocus } from '@/features/gw-events/api/gw-events';

import { skyFrame } from './sky-projection';
import { colourTable, credibleContours, densestPosition, indexSkyMap, paintDensity, rasterizeSkyMap } from './sky-raster';

const WIDTH = 800;
const HEIGHT = 420;
/** Frame pixels per raster cell: order-6 pixels (~0.9°) are ~2 frame pixels wide at this size. */
const STEP = 2;
export const CONTOUR_STYLES = [
  { level: 0.5, dash: undefined, width: 2 },
  { level: 0.9, dash: '6 4', width: 1.5 },
] as const;
export const CONTOUR_COLOUR = '#0b5ed7';
const RA_HOURS = [4, 8, 12, 16, 20];
/** A 90% region smaller than this (deg²) is a few pixels on the all-sky map: a ring marks where it is. */
export const SMALL_REGION_DEG2 = 200;
const DEC_LABELS = [-60, -30, 0, 30, 60];

/**
 * The sky map on an all-sky Mollweide projection (RA 180° in the middle, east to the left): the
 * probability density painted per HEALPix pixel on a canvas, and over it (SVG) the graticule, the 50%
 * and 90% credible regions' outlines and the given loci as dots.
 */
export function SkyMapChart({ gracedbId, map, loci }: { gracedbId: string; map: SkyMap; loci: GwEventLocus[] }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const titleId = useId();
  const frame = useMemo(() => skyFrame(WIDTH, HEIGHT, 24), []);
  const drawn = useMemo(() => {
    const index = indexSkyMap(map);
    const raster = rasterizeSkyMap(index, frame, STEP);
    const contours = credibleContours(
      raster,
      CONTOUR_STYLES.map((s) => s.level),
    );
    const peak = map.area90 !== null && map.area90 < SMALL_REGION_DEG2 ? densestPosition(index) : null;
    return { index, raster, contours, peak: peak ? frame.toFrame(peak.ra, peak.dec) : null };
  }, [map, frame]);

  useEffect(() => {
    const context = canvasRef.current?.getContext('2d');
    if (!context) return;
    const { raster, index } = drawn;
    const image = context.createImageData(raster.cols, raster.rows);
    image.data.set(paintDensity(raster, index.maxDensity, colourTable()));
    context.putImageData(image, 0, 0);
  }, [drawn]);

  const sphere = geoPath(frame.projection);
  const planar = geoPath(null);
  const graticule = sphere(geoGraticule().step([30, 30])()) ?? '';
  const outline = sphere({ type: 'Sphere' }) ?? '';
  const label = `Sky map of ${gracedbId}: probability density with the 50% and 90% credible regions outlined and ${loci.length} ${loci.length === 1 ? 'locus' : 'loci'} of the 90% region marked`;

  return (
    <div className="position-relative mx-auto" style={{ maxWidth: WIDTH, aspectRatio: `${WIDTH} / ${HEIGHT}` }} data-testid="gw-sky-map">
      <canvas
        ref={canvasRef}
        width={drawn.raster.cols}
        height={drawn.raster.rows}
        className="position-absolute top-0 start-0 w-100 h-100"
        style={{ imageRendering: 'pixelated' }}
        aria-hidden="true"
      />
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="position-absolute top-0 start-0 w-100 h-100" role="img" aria-labelledby={titleId}>
        <title id={titleId}>{label}</title>
        <path d={graticule} fill="none" stroke="#6c757d" strokeOpacity={0.45} strokeWidth={0.6} />
        <path d={outline} fill="none" stroke="#495057" strokeWidth={1} />
        {drawn.contours.map((contour, i) => (
          <path
            key={contour.level}
            className="gw-credible-region"
            data-level={contour.level}
            d={planar(contour.geometry) ?? ''}
            fill="none"
            stroke={CONTOUR_COLOUR}
            strokeWidth={CONTOUR_STYLES[i].width}
            strokeDasharray={CONTOUR_STYLES[i].dash}
            strokeLinejoin="round"
          />
        ))}
        {RA_HOURS.map((hours) => {
          const [x, y] = frame.toFrame(hours * 15, 0);
          return (
            <text
              key={hours}
              x={x}
              y={y + 13}
              textAnchor="middle"
              fontSize={11}
              fill="#343a40"
              stroke="#fff"
              strokeWidth={3}
              paintOrder="stroke"
            >
              {hours}h
            </text>
          );
        })}
        {DEC_LABELS.map((dec) => {
          const [x, y] = frame.toFrame(359.999, dec);
          return (
            <text key={dec} x={x - 4} y={y + 4} textAnchor="end" fontSize={11} fill="#343a40">
              {dec > 0 ? `+${dec}°` : `${dec}°`}
            </text>
          );
        })}
        {drawn.peak && (
          <circle className="gw-map-peak" cx={drawn.peak[0]} cy={drawn.peak[1]} r={14} fill="none" stroke={CONTOUR_COLOUR} strokeWidth={2}>
            <title>Where the small credible region is</title>
          </circle>
        )}
        {loci.map((locus) => {
          const [x, y] = frame.toFrame(locus.ra, locus.dec);
          return (
            <circle
              key={locus.locus_id}
              className="gw-map-locus"
              data-locus-id={locus.locus_id}
              cx={x}
              cy={y}
              r={3.5}
              fill="#fff"
              stroke="#000"
              strokeWidth={1}
            >
              <title>{`${locus.locus_id} (${locus.contour_level.toFixed(1)}%)`}</title>
            </circle>
          );
        })}
      </svg>
    </div>
  );
}

import { type GeoProjection, geoProjection, type GeoRawProjection } from 'd3-geo';

/**
 * The all-sky Mollweide projection (equal-area, as gravitational-wave sky maps are usually shown), in
 * the astronomers' orientation: RA 180° at the centre, RA increasing to the left (east on the left).
 */
const SQRT2 = Math.SQRT2;
const EPSILON = 1e-12;

/** Solves 2θ + sin 2θ = π sin φ (Newton) and returns θ. */
function auxiliaryAngle(phi: number): number {
  const target = Math.PI * Math.sin(phi);
  let t = phi; // t = 2θ
  for (let i = 0; i < 50; i += 1) {
    const delta = (t + Math.sin(t) - target) / (1 + Math.cos(t));
    t -= delta;
    if (Math.abs(delta) < EPSILON) break;
  }
  return t / 2;
}

/** The raw Mollweide projection (radians in, x in [-2√2, 2√2], y in [-√2, √2] out) and its inverse. */
export const mollweideRaw: GeoRawProjection = Object.assign(
  (lambda: number, phi: number): [number, number] => {
    // At the poles Newton's step divides by zero; θ = ±π/2 there.
    const theta = Math.abs(Math.abs(phi) - Math.PI / 2) < EPSILON ? Math.sign(phi) * (Math.PI / 2) : auxiliaryAngle(phi);
    return [((2 * SQRT2) / Math.PI) * lambda * Math.cos(theta), SQRT2 * Math.sin(theta)];
  },
  {
    invert: (x: number, y: number): [number, number] => {
      const theta = Math.asin(Math.max(-1, Math.min(1, y / SQRT2)));
      const cos = Math.cos(theta);
      const lambda = cos < EPSILON ? 0 : (Math.PI * x) / (2 * SQRT2 * cos);
      return [lambda, Math.asin(Math.max(-1, Math.min(1, (2 * theta + Math.sin(2 * theta)) / Math.PI)))];
    },
  },
);

export interface SkyFrame {
  width: number;
  height: number;
  projection: GeoProjection;
  /** Whether a point of the frame (pixels) lies on the sky (inside the projection's ellipse). */
  onSky(x: number, y: number): boolean;
  /** RA/Dec (degrees, RA in [0, 360)) of a point of the frame, or null off the sky. */
  toSky(x: number, y: number): { ra: number; dec: number } | null;
  /** Frame point of a position (degrees). */
  toFrame(ra: number, dec: number): [number, number];
}

/** The all-sky map fitted into a width × height frame with a margin around the ellipse. */
export function skyFrame(width: number, height: number, margin = 4): SkyFrame {
  const scale = Math.min((width - 2 * margin) / (4 * SQRT2), (height - 2 * margin) / (2 * SQRT2));
  const cx = width / 2;
  const cy = height / 2;
  // Longitude = RA; rotating by -180° puts RA 180° in the middle and reflecting x puts RA 0° on the right.
  const projection = geoProjection(mollweideRaw).rotate([-180, 0]).reflectX(true).scale(scale).translate([cx, cy]).precision(0.1);
  const onSky = (x: number, y: number) => {
    const u = (x - cx) / scale;
    const v = (y - cy) / scale;
    return (u * u) / 8 + (v * v) / 2 <= 1;
  };
  return {
    width,
    height,
    projection,
    onSky,
    toSky(x, y) {
      if (!onSky(x, y)) return null;
      const inverted = projection.invert?.([x, y]);
      if (!inverted || !Number.isFinite(inverted[0]) || !Number.isFinite(inverted[1])) return null;
      return { ra: ((inverted[0] % 360) + 360) % 360, dec: inverted[1] };
    },
    toFrame(ra, dec) {
      return projection([ra, dec]) ?? [Number.NaN, Number.NaN];
    },
  };
}

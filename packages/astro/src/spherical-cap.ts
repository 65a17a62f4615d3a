/**
 * Tests between a spherical cap ("circle on the sky": all points within an
 * angular radius of a centre) and a spherical triangle with minor-arc edges.
 * Used by the HTM cover; written so that rounding can only make a triangle
 * look *more* intersecting, never less (callers add a radius margin).
 */
import type { Triangle } from './htm.ts';
import { chordSquared, cross, dot, norm, subtract, type Vec3 } from './vec3.ts';

export interface SphericalCap {
  /** Unit vector of the centre. */
  readonly center: Vec3;
  /** Angular radius in radians; >= PI means the whole sphere. */
  readonly radius: number;
}

/** Edge-plane slack so a centre lying on an edge counts as inside the triangle. */
const ON_EDGE_TOLERANCE = 1e-15;

function capContainsPoint(cap: SphericalCap, point: Vec3): boolean {
  if (cap.radius >= Math.PI) return true;
  // Chord length 2 sin(r/2) keeps full precision for sub-arcsecond radii.
  const chord = 2 * Math.sin(cap.radius / 2);
  return chordSquared(cap.center, point) <= chord * chord;
}

function triangleContainsPoint([a, b, c]: Triangle, point: Vec3): boolean {
  return (
    dot(cross(a, b), point) >= -ON_EDGE_TOLERANCE &&
    dot(cross(b, c), point) >= -ON_EDGE_TOLERANCE &&
    dot(cross(c, a), point) >= -ON_EDGE_TOLERANCE
  );
}

/**
 * Whether the minor arc a->b passes within the cap at an interior point of
 * the arc (endpoints are covered by the vertex test). The closest point of the
 * full great circle to the centre is the centre projected onto the circle's
 * plane; its angular distance is asin(|centre . n|) for unit normal n.
 */
function arcInteriorMeetsCap(cap: SphericalCap, a: Vec3, b: Vec3): boolean {
  const normal = cross(a, b);
  const normalLength = norm(normal);
  if (normalLength === 0) return false; // degenerate arc: endpoints suffice
  const offPlane = dot(cap.center, normal) / normalLength; // sin(distance to great circle)
  const projected = subtract(cap.center, [
    (normal[0] * offPlane) / normalLength,
    (normal[1] * offPlane) / normalLength,
    (normal[2] * offPlane) / normalLength,
  ]);
  if (norm(projected) < 1e-12) {
    // Centre is a pole of this great circle: every point of it is 90 degrees away.
    return cap.radius >= Math.PI / 2;
  }
  const greatCircleWithinReach = cap.radius >= Math.PI / 2 || Math.abs(offPlane) <= Math.sin(cap.radius);
  if (!greatCircleWithinReach) return false;
  // The projected point lies on the arc iff it is "after" a and "before" b.
  return dot(cross(a, projected), normal) >= 0 && dot(cross(projected, b), normal) >= 0;
}

/** True when the cap and the closed triangle share at least one point. */
export function capIntersectsTriangle(cap: SphericalCap, triangle: Triangle): boolean {
  if (cap.radius >= Math.PI) return true;
  if (cap.radius < 0) return false;
  const [a, b, c] = triangle;
  return (
    capContainsPoint(cap, a) ||
    capContainsPoint(cap, b) ||
    capContainsPoint(cap, c) ||
    triangleContainsPoint(triangle, cap.center) ||
    arcInteriorMeetsCap(cap, a, b) ||
    arcInteriorMeetsCap(cap, b, c) ||
    arcInteriorMeetsCap(cap, c, a)
  );
}

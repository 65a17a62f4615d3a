/**
 * Minimal 3-vector algebra. Positions on the celestial sphere are handled as
 * unit vectors because that keeps HTM and cap geometry free of RA wrap-around
 * and pole singularities.
 */
export type Vec3 = readonly [number, number, number];

export function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export function add(a: Vec3, b: Vec3): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}

export function subtract(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

export function scale(a: Vec3, factor: number): Vec3 {
  return [a[0] * factor, a[1] * factor, a[2] * factor];
}

export function negate(a: Vec3): Vec3 {
  return [-a[0], -a[1], -a[2]];
}

export function norm(a: Vec3): number {
  return hypot3(a[0], a[1], a[2]);
}

/**
 * Math.hypot(x, y, z), bit for bit: V8's algorithm (each magnitude scaled by the largest, squares
 * added with Kahan's compensation, the root scaled back), written out because Math.hypot allocates
 * an array for its arguments at every call, and every alert's HTM descent calls it 48 times. Stored
 * HTM ids depend on these bits: vec3.test.ts compares the two.
 */
export function hypot3(x: number, y: number, z: number): number {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  const az = Math.abs(z);
  // Comparisons, not Math.max: an infinite argument wins over a NaN one, as in Math.hypot.
  let max = 0;
  if (ax > max) max = ax;
  if (ay > max) max = ay;
  if (az > max) max = az;
  if (max === Infinity) return Infinity;
  if (Number.isNaN(x) || Number.isNaN(y) || Number.isNaN(z)) return NaN;
  if (max === 0) return 0;
  let sum = 0;
  let compensation = 0;
  let n = ax / max;
  let summand = n * n - compensation;
  let preliminary = sum + summand;
  compensation = preliminary - sum - summand;
  sum = preliminary;
  n = ay / max;
  summand = n * n - compensation;
  preliminary = sum + summand;
  compensation = preliminary - sum - summand;
  sum = preliminary;
  n = az / max;
  summand = n * n - compensation;
  sum += summand;
  return Math.sqrt(sum) * max;
}

export function normalize(a: Vec3): Vec3 {
  return scale(a, 1 / norm(a));
}

/** Squared straight-line (chord) distance; precise for tiny separations, unlike 1 - dot. */
export function chordSquared(a: Vec3, b: Vec3): number {
  const dx = a[0] - b[0];
  const dy = a[1] - b[1];
  const dz = a[2] - b[2];
  return dx * dx + dy * dy + dz * dz;
}

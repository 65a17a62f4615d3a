export type { Vec3 } from './vec3.ts';
export * from './sphere.ts';
export * from './htm.ts';
export * from './htm-cover.ts';
export * from './spherical-cap.ts';
export * from './coords.ts';
export * from './galactic.ts';
export * from './time.ts';
export * from './magnitudes.ts';

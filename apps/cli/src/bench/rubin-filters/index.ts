import { readFileSync } from 'node:fs';

import { randomGenerator } from '@antares/astro/test-random';

/**
 * The filters that `npm run bench -- filters --survey rubin --filters N` adds to the shipped ones, as
 * community filters for Rubin would be: numpy, scipy and astropy, catalogues and a model as data files
 * (REQUIRES_FILES), the trigger's DiaSource and the pipeline's locus features. One Python file each.
 */
export const BENCH_FILTERS = [
  'galactic_plane',
  'star_veto',
  'host_galaxy',
  'extinction',
  'real_bogus_model',
  'large_amplitude',
  'point_source',
  'fast_riser',
  'blue_transient',
  'post_peak',
  'variable_star',
  'nuclear_host',
  'near_ecliptic',
] as const;

export function benchFilterCode(name: string): string {
  return readFileSync(new URL(`./${name}.py`, import.meta.url), 'utf8');
}

/**
 * The data files the filters read (REQUIRES_FILES), made from a fixed seed: 100,000 bright stars and
 * 50,000 galaxies over the sky (3.2 MB together), a 0.5 deg E(B-V) grid (1 MB) and a model's
 * coefficients. Sizes of real catalogue cut-outs that filters ship, not their content.
 */
export function benchDataFiles(): Record<string, Uint8Array> {
  const random = randomGenerator(48);
  const sky = () => [360 * random(), (Math.asin(2 * random() - 1) * 180) / Math.PI];
  const stars = Array.from({ length: 100_000 }, sky);
  const galaxies = Array.from({ length: 50_000 }, () => [...sky(), 2 + 20 * random(), 0.01 + 0.3 * random()]);
  const rows = 360;
  const cols = 720;
  const ebv = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) ebv[r * cols + c] = 0.3 * random() ** 4;
  const model = {
    features: ['reliability', 'snr', 'extendedness', 'trailLength', 'dipoleLength'],
    weights: [6, 0.8, -2, -1.5, -3],
    bias: -2,
  };
  return {
    'bright_stars.npy': npy(Float64Array.from(stars.flat()), [stars.length, 2]),
    'galaxies.npy': npy(Float64Array.from(galaxies.flat()), [galaxies.length, 4]),
    'ebv_grid.npy': npy(ebv, [rows, cols]),
    'real_bogus_model.json': new TextEncoder().encode(JSON.stringify(model)),
  };
}

/** A little-endian float64 array in NumPy's .npy format (version 1.0), as numpy.save writes it. */
export function npy(values: Float64Array, shape: number[]): Uint8Array {
  let header = `{'descr': '<f8', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  // Magic (6) + version (2) + header length (2) + header, padded with spaces to 64 bytes, ending in \n.
  header = header.padEnd(Math.ceil((10 + header.length + 1) / 64) * 64 - 10 - 1, ' ') + '\n';
  const out = new Uint8Array(10 + header.length + values.byteLength);
  out.set([0x93, ...new TextEncoder().encode('NUMPY'), 1, 0, header.length & 0xff, header.length >> 8]);
  out.set(new TextEncoder().encode(header), 10);
  out.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), 10 + header.length);
  return out;
}

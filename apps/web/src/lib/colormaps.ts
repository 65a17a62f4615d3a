/**
 * Colour maps for images, as matplotlib's: nine evenly spaced stops each, interpolated linearly
 * (close to the 256-entry tables at display depth). Grey is exact.
 */
export const COLORMAPS = {
  gray: ['#000000', '#ffffff'],
  viridis: ['#440154', '#472d7b', '#3b528b', '#2c728e', '#21918c', '#28ae80', '#5ec962', '#addc30', '#fde725'],
  magma: ['#000004', '#1c1044', '#4f127b', '#812581', '#b5367a', '#e55964', '#fb8761', '#fec287', '#fcfdbf'],
  inferno: ['#000004', '#1f0c48', '#550f6d', '#88226a', '#ba3655', '#e35933', '#f98e09', '#f8c931', '#fcffa4'],
} as const;

export type ColormapName = keyof typeof COLORMAPS;

const rgb = (hex: string): [number, number, number] => [
  parseInt(hex.slice(1, 3), 16),
  parseInt(hex.slice(3, 5), 16),
  parseInt(hex.slice(5, 7), 16),
];

/** A 256-entry RGB lookup table: entry k is the colour of level k / 255. */
export function colormapTable(name: ColormapName): Uint8Array {
  const stops = COLORMAPS[name].map(rgb);
  const table = new Uint8Array(256 * 3);
  for (let k = 0; k < 256; k++) {
    const position = (k / 255) * (stops.length - 1);
    const i = Math.min(Math.floor(position), stops.length - 2);
    const f = position - i;
    for (let c = 0; c < 3; c++) table[k * 3 + c] = Math.round(stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f);
  }
  return table;
}

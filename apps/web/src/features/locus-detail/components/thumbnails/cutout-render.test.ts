import { describe, expect, it } from 'vitest';

import { cutoutLevels, cutoutRgba } from './cutout-render';

describe('cutout rendering', () => {
  const ramp = Array.from({ length: 400 }, (_, i) => i);

  it('maps the percentile interval to 0..255 through the stretch, blank pixels to -1', () => {
    const data = [...ramp, NaN];
    const linear = cutoutLevels(data, 'linear');
    // PercentileInterval(99.5) of 0..399: [0.9975, 398.0025].
    expect(linear[0]).toBe(0);
    expect(linear[200]).toBe(Math.round(((200 - 0.9975) / (398.0025 - 0.9975)) * 255));
    expect(linear[399]).toBe(255);
    expect(linear[400]).toBe(-1);
    const log = cutoutLevels(data, 'log');
    const asinh = cutoutLevels(data, 'asinh');
    // Both lift the faint end above linear.
    expect(log[40]).toBeGreaterThan(linear[40]);
    expect(asinh[40]).toBeGreaterThan(linear[40]);
    expect(cutoutLevels([NaN, NaN], 'zscale')).toEqual(new Int16Array([-1, -1]));
  });

  it('colours levels through the map, inverted on request; blank pixels stay transparent', () => {
    const levels = new Int16Array([0, 255, -1]);
    expect(Array.from(cutoutRgba(levels, 'gray', false))).toEqual([0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 0]);
    expect(Array.from(cutoutRgba(levels, 'gray', true).slice(0, 4))).toEqual([255, 255, 255, 255]);
    // viridis runs from dark purple (#440154) to yellow (#fde725).
    expect(Array.from(cutoutRgba(levels, 'viridis', false).slice(0, 8))).toEqual([0x44, 0x01, 0x54, 255, 0xfd, 0xe7, 0x25, 255]);
  });
});

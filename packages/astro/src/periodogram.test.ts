import { describe, expect, it } from 'vitest';

import { frequencyGrid, lombScargle, periodogram } from './periodogram.ts';
import { foldPhase } from './phase-fold.ts';
import { astropyMissing, runPython } from './test-python.ts';
import { randomGenerator } from './test-random.ts';

/** A survey-like sampling: 1-3 visits a night over `nights` nights, at night-time hours, with gaps. */
function surveyTimes(rand: () => number, nights: number, start = 60000): number[] {
  const t: number[] = [];
  for (let night = 0; night < nights; night++) {
    if (rand() < 0.15) continue; // weather
    const visits = 1 + Math.floor(rand() * 3);
    for (let v = 0; v < visits; v++) t.push(start + night + 0.15 + rand() * 0.3);
  }
  return t.sort((a, b) => a - b);
}

function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

function sinusoid(seed: number, period: number, nights: number, noise = 0.05) {
  const rand = randomGenerator(seed);
  const t = surveyTimes(rand, nights);
  const dy = t.map(() => noise * (0.7 + 0.6 * rand()));
  const y = t.map((time, i) => 17 + 0.4 * Math.sin((2 * Math.PI * time) / period + 1.3) + dy[i] * gaussian(rand));
  return { t, y, dy };
}

describe('Lomb-Scargle periodogram', () => {
  it("recovers a synthetic sinusoid's period within 0.1 %", () => {
    for (const [seed, period] of [
      [1, 0.3712],
      [2, 0.5843],
      [3, 2.417],
      [4, 0.2611],
    ] as const) {
      const data = sinusoid(seed, period, 40);
      const result = periodogram(data)!;
      expect(Math.abs(result.bestPeriod - period) / period).toBeLessThan(0.001);
      expect(result.bestPower).toBeGreaterThan(0.8);
    }
  });

  it('gives power 1 for a noiseless sinusoid and ~0 for a constant with noise only at no peak', () => {
    const t = [0, 0.3, 1.1, 2.7, 3.2, 5.9, 6.4, 8.8, 9.1, 12.5];
    const y = t.map((time) => Math.cos(2 * Math.PI * 0.8 * time));
    const [power] = lombScargle({ t, y }, [0.8]);
    expect(power).toBeCloseTo(1, 10);
    expect(Array.from(lombScargle({ t, y: t.map(() => 3) }, [0.5, 0.8]))).toEqual([0, 0]);
  });

  it("builds astropy's autofrequency grid with a floor of 10 cycles a day", () => {
    const { frequencies } = frequencyGrid([0, 10]);
    expect(frequencies[0]).toBeCloseTo(0.01, 12); // half of 1 / (10 d x 5)
    expect(frequencies[1] - frequencies[0]).toBeCloseTo(0.02, 12);
    expect(frequencies.at(-1)).toBeCloseTo(10.01, 9);
    expect(frequencyGrid([5, 5]).frequencies.length).toBe(0);
    expect(frequencyGrid([0, 1000], { maximumFrequency: 50, maximumCount: 1000 }).frequencies.length).toBe(1000);
  });

  it('looks for the highest peak at two cycles over the baseline or more (a slow trend does not win)', () => {
    const rand = randomGenerator(11);
    const t = surveyTimes(rand, 30);
    // A fading transient (1.5 mag over the 30 nights) with a small 0.61 d wiggle.
    const y = t.map((time) => 18 + (1.5 * (time - t[0])) / 30 + 0.05 * Math.sin((2 * Math.PI * time) / 0.61));
    const result = periodogram({ t, y })!;
    const baseline = t.at(-1)! - t[0];
    expect(result.bestPeriod).toBeLessThanOrEqual(baseline / 2);
    // The trend's own power sits below that floor, where the grid starts.
    expect(result.power[0]).toBeGreaterThan(result.bestPower);
  });

  it('folds times into phases in [0, 1)', () => {
    expect(foldPhase(10.25, 1)).toBeCloseTo(0.25, 12);
    expect(foldPhase(10.25, 0.5, 10)).toBeCloseTo(0.5, 12);
    expect(foldPhase(9.75, 1, 10)).toBeCloseTo(0.75, 12);
  });

  it.skipIf(astropyMissing !== null)('matches astropy LombScargle(t, y, dy).power on the same data and grid', () => {
    const data = sinusoid(7, 0.4471, 25, 0.1);
    const { frequencies } = frequencyGrid(data.t);
    const ours = lombScargle(data, frequencies);
    const expected = runPython<{ power: number[]; autofrequency: number[] }>(
      [
        'from astropy.timeseries import LombScargle',
        'import numpy as np',
        "ls = LombScargle(np.array(data['t']), np.array(data['y']), np.array(data['dy']))",
        "power = ls.power(np.array(data['f']), method='cython')",
        "print(json.dumps({'power': power.tolist(), 'autofrequency': ls.autofrequency(maximum_frequency=float(data['f'][-1])).tolist()}))",
      ].join('\n'),
      { ...data, f: Array.from(frequencies) },
    );
    expect(expected.power.length).toBe(ours.length);
    let worst = 0;
    for (let k = 0; k < ours.length; k++) worst = Math.max(worst, Math.abs(ours[k] - expected.power[k]));
    expect(worst).toBeLessThan(1e-8);
    // The same grid as astropy's autofrequency (given the same top frequency).
    expect(expected.autofrequency.length).toBe(frequencies.length);
    expect(expected.autofrequency[0]).toBeCloseTo(frequencies[0], 12);
    expect(expected.autofrequency.at(-1)).toBeCloseTo(frequencies.at(-1)!, 9);
  });
});

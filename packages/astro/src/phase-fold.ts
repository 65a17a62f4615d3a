// Apart from the periodogram so that a folded view can be drawn without loading the periodogram.
/** Phase in [0, 1) of time t for a period and a reference epoch. */
export function foldPhase(t: number, period: number, epoch = 0): number {
  const phase = ((t - epoch) / period) % 1;
  return phase < 0 ? phase + 1 : phase;
}

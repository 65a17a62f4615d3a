/** Percentiles of a list of durations (ms). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export function describeLatencies(label: string, values: number[]): string {
  return `${label.padEnd(48)} n=${values.length}  p50=${percentile(values, 50).toFixed(1)} ms  p95=${percentile(values, 95).toFixed(1)} ms  max=${Math.max(...values).toFixed(1)} ms`;
}

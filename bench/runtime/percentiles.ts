/** Percentiles of measured values, by nearest rank (a value that was measured, never one between two). */

/** The value at quantile `q` (0-1) of ascending values; NaN when there are none. */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(q * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

export function p50p99(values: readonly number[]): { p50: number; p99: number } {
  const sorted = Float64Array.from(values).sort();
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

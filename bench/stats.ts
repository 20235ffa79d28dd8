// Percentiles and medians of measured times: plain functions with no imports, so a measured worker can use them without loading the harness.

export function percentile(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return NaN
  const index = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1))
  return sortedMs[index] as number
}

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

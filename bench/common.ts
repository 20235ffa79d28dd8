// Small helpers shared by the benchmarks: timing, percentiles and aligned output.

export const fmt = (n: number, digits = 0): string => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })

export function percentile(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return NaN
  const index = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1))
  return sortedMs[index] as number
}

export function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9
}

export function line(label: string, value: string, note = ''): void {
  console.log(`  ${label.padEnd(64)} ${value.padStart(16)}${note ? `   ${note}` : ''}`)
}

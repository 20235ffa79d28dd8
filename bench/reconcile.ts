// Reconciliation benchmarks: matching 100,000 × 100,000 and 1,000,000 × 1,000,000 against a bare hash join of the same references, and importing a 1,000,000-line statement against papaparse alone; each in its own process for its peak RSS.
import { fmt, line, runScript, withCompiled } from './common'

interface MatchRun {
  n: number
  fileRows: number
  baselineMs: number
  engineMs: number
  counts: Record<string, number>
  peakRssMb: number
}

interface ImportRun {
  n: number
  megabytes: number
  rows: number
  problems: number
  status: string
  baselineMs: number
  importMs: number
  peakRssMb: number
}

function worker<T>(script: string, mode: 'match' | 'import', n: number): T {
  return runScript<T>(script, [mode, String(n)], `reconcile ${mode} ${n}`)
}

const TARGETS: Record<number, { seconds: number; rssMb: number | null }> = { 100_000: { seconds: 2, rssMb: null }, 1_000_000: { seconds: 15, rssMb: 1536 } }

export function reconcileBench(): void {
  withCompiled('reconcile-worker.ts', reconcileRuns)
}

function reconcileRuns(script: string): void {
  console.log('\nReconciliation (statement derived from the provider records: 97% by reference, a third of them in lower case with stray spaces; 1% other amounts, 1% by name only, 0.5% missing, 0.5% bank charges)')
  for (const n of [100_000, 1_000_000]) {
    const r = worker<MatchRun>(script, 'match', n)
    const target = TARGETS[n] as { seconds: number; rssMb: number | null }
    const ratio = r.engineMs / r.baselineMs
    line(`match ${fmt(n)} × ${fmt(r.fileRows)}: engine`, `${fmt(r.engineMs / 1000, 2)} s`, `target ≤ ${target.seconds} s`)
    line(`  bare hash join of the same references (baseline)`, `${fmt(r.baselineMs / 1000, 2)} s`, `engine/baseline ${fmt(ratio, 1)}× (target ≤ 3×)`)
    line(`  peak RSS (data, engine and result in one process)`, `${fmt(r.peakRssMb)} MB`, target.rssMb ? `target ≤ ${fmt(target.rssMb)} MB` : '')
    line(`  outcomes`, '', Object.entries(r.counts).map(([k, v]) => `${k} ${fmt(v)}`).join(', '))
  }
  const i = worker<ImportRun>(script, 'import', 1_000_000)
  line(`import a ${fmt(i.n)}-line CSV statement (${fmt(i.megabytes, 0)} MB): read and store`, `${fmt(i.importMs / 1000, 2)} s`, `target ≤ 10 s; ${fmt(i.rows)} rows, ${i.status}`)
  line(`  papaparse alone on the same text (baseline)`, `${fmt(i.baselineMs / 1000, 2)} s`, `import/baseline ${fmt(i.importMs / i.baselineMs, 1)}×`)
  line(`  peak RSS`, `${fmt(i.peakRssMb)} MB`)
}

// Reconciliation benchmarks: matching 100,000 × 100,000 and 1,000,000 × 1,000,000 against a bare hash join of the same references (several rounds, each in its own process for its peak RSS), and importing a 1,000,000-line statement against papaparse alone.
import { fmt, line, runScript, withCompiled } from './common'
import { median } from './stats'

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
  withBalances: boolean
  complete: boolean
  megabytes: number
  rows: number
  problems: number
  status: string
  baselineMs: number
  importMs: number
  peakRssMb: number
}

function worker<T>(script: string, mode: 'match' | 'import' | 'import-balances', n: number): T {
  return runScript<T>(script, [mode, String(n)], `reconcile ${mode} ${n}`, ['--expose-gc'])
}

const TARGETS: Record<number, { seconds: number; rssMb: number | null; rounds: number }> = {
  100_000: { seconds: 2, rssMb: null, rounds: 7 },
  1_000_000: { seconds: 15, rssMb: 1536, rounds: 3 }
}

export function reconcileBench(): void {
  withCompiled('reconcile-worker.ts', reconcileRuns)
}

function reconcileRuns(script: string): void {
  console.log(
    '\nReconciliation (statement derived from the provider records: 97% by reference, a third of them in lower case with stray spaces; 1% other amounts, 1% by name only, 0.5% missing, 0.5% bank charges)'
  )
  for (const n of [100_000, 1_000_000]) {
    const target = TARGETS[n] as { seconds: number; rssMb: number | null; rounds: number }
    // Each round in a fresh process on freshly built data, the join and the engine back to back; the
    // ratio is the median of the rounds' ratios, so a slow stretch of the machine slows both sides of
    // one round rather than one side of the figure.
    const runs = Array.from({ length: target.rounds }, () => worker<MatchRun>(script, 'match', n))
    const r = runs[0] as MatchRun
    const engineMs = median(runs.map((x) => x.engineMs))
    const ratio = median(runs.map((x) => x.engineMs / x.baselineMs))
    const ratios = runs.map((x) => fmt(x.engineMs / x.baselineMs, 1)).join(', ')
    line(
      `match ${fmt(n)} × ${fmt(r.fileRows)}: engine, median of ${runs.length} rounds`,
      `${fmt(engineMs / 1000, 2)} s`,
      `target ≤ ${target.seconds} s; slowest ${fmt(Math.max(...runs.map((x) => x.engineMs)) / 1000, 2)} s`
    )
    line(
      `  bare hash join of the same references (baseline), median`,
      `${fmt(median(runs.map((x) => x.baselineMs)) / 1000, 2)} s`,
      `engine/baseline ${fmt(ratio, 1)}× (target ≤ 3×), median of the rounds' ${ratios}`
    )
    line(
      `  peak RSS (data, engine and result in one process), highest`,
      `${fmt(Math.max(...runs.map((x) => x.peakRssMb)))} MB`,
      target.rssMb ? `target ≤ ${fmt(target.rssMb)} MB` : ''
    )
    line(
      `  outcomes`,
      '',
      Object.entries(r.counts)
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(', ')
    )
  }
  // The statement proving itself: the same statement with its running balance and stated balances,
  // and without (the proof then has nothing to do), three rounds each, alternating, each in its own process.
  const plain: ImportRun[] = []
  const proved: ImportRun[] = []
  for (let round = 0; round < 3; round++) {
    plain.push(worker<ImportRun>(script, 'import', 1_000_000))
    proved.push(worker<ImportRun>(script, 'import-balances', 1_000_000))
  }
  const i = proved[0] as ImportRun
  const provedMs = median(proved.map((x) => x.importMs))
  const plainMs = median(plain.map((x) => x.importMs))
  line(
    `import a ${fmt(i.n)}-line CSV statement with its balances (${fmt(i.megabytes, 0)} MB): read, prove and store, median of 3`,
    `${fmt(provedMs / 1000, 2)} s`,
    `target ≤ 10 s; ${fmt(i.rows)} rows, ${i.status}, statement ${i.complete ? 'complete' : 'NOT complete'}`
  )
  line(
    `  the same statement without balances (nothing to prove), median of 3`,
    `${fmt(plainMs / 1000, 2)} s`,
    `the proof adds ${fmt(((provedMs - plainMs) / plainMs) * 100, 1)}% (target ≤ 10%); rounds ${proved.map((x) => fmt(x.importMs / 1000, 2)).join(', ')} against ${plain.map((x) => fmt(x.importMs / 1000, 2)).join(', ')} s`
  )
  line(
    `  papaparse alone on the same text (baseline), median`,
    `${fmt(median(proved.map((x) => x.baselineMs)) / 1000, 2)} s`,
    `import/baseline ${fmt(provedMs / median(proved.map((x) => x.baselineMs)), 1)}×`
  )
  line(`  peak RSS, highest`, `${fmt(Math.max(...proved.map((x) => x.peakRssMb)))} MB`)
}

// npm run bench -- e2e: `ledgerline reconcile` of a 1,000,000-line statement against 1,000,000 payments, from process start to report written, each phase beside its own baseline measured in the same run on the same data.
import { join } from 'node:path'
import { fmt, line, runScript, withCompiled } from './common'

interface E2eRun {
  n: number
  megabytes: number
  phases: { startMs: number; readMs: number; matchMs: number; storeMs: number; reportMs: number; totalMs: number; peakRssMb: number }
  baselines: {
    nodeMs: number
    papaparseMs: number
    lines: { rows: number; ms: number }
    join: { joined: number; ms: number }
    items: { rows: number; ms: number }
    csvWriteMs: number
  }
}

/** The size reconciled: a million unless LEDGERLINE_BENCH_E2E_LINES says otherwise (a quicker look while working). */
function size(): number {
  const asked = process.env['LEDGERLINE_BENCH_E2E_LINES']
  return asked ? Number(asked) : 1_000_000
}

const s = (msValue: number): string => `${fmt(msValue / 1000, 2)} s`

export function e2eBench(): void {
  withCompiled('e2e-worker.ts', (script) => {
    const n = size()
    console.log(
      `\nEnd to end: ledgerline reconcile of a ${fmt(n)}-line CSV statement against ${fmt(n)} payments, process start to report written (one run; the cache built first, untimed)`
    )
    const r = runScript<E2eRun>(script, [String(n), join(import.meta.dirname, '..')], `e2e ${n}`)
    const { phases: p, baselines: b } = r
    const ratio = (phase: number, base: number): string => `${fmt(phase / base, 1)}× (target ≤ 2×)`
    line(
      `the whole command (${fmt(r.megabytes, 1)} MB statement)`,
      s(p.totalMs),
      `target ≤ 20 s — ${p.totalMs <= 20_000 ? 'met' : 'NOT met'}`
    )
    line(`  start, open and check the cache`, s(p.startMs), `bare node ${s(b.nodeMs)}`)
    const readBase = b.papaparseMs + b.lines.ms
    line(
      `  read, prove and store the lines`,
      s(p.readMs),
      `papaparse ${s(b.papaparseMs)} + raw insert of the ${fmt(b.lines.rows)} lines ${s(b.lines.ms)}: ${ratio(p.readMs, readBase)}`
    )
    line(`  read both sides and match`, s(p.matchMs), `bare hash join ${s(b.join.ms)}: ${fmt(p.matchMs / b.join.ms, 0)}×`)
    line(
      `  store the items and totals`,
      s(p.storeMs),
      `raw insert of the same ${fmt(b.items.rows)} items ${s(b.items.ms)}: ${ratio(p.storeMs, b.items.ms)}`
    )
    line(`  write the report`, s(p.reportMs), `papaparse writing the same cells ${s(b.csvWriteMs)}: ${fmt(p.reportMs / b.csvWriteMs, 1)}×`)
    line(`  peak RSS of the command`, `${fmt(p.peakRssMb)} MB`, `target ≤ 1,536 MB — ${p.peakRssMb <= 1536 ? 'met' : 'NOT met'}`)
  })
}

// npm run bench -- decisions: each decision kind taken on a stored session of 100,000 and 1,000,000 items (and of 1,000,000 with two rules enabled, and with a rule that pairs as well), its 95th percentile with its ratio to a note (applied in place) in the same run; the target is p95 ≤ 100 ms for every kind at a million.
import { fmt, line, runScript, withCompiled } from './common'

interface DecisionsRun {
  n: number
  withRules: boolean
  pairing: boolean
  ruleEvents: number
  runMs: number
  kinds: Record<
    string,
    {
      samples: number
      inPlace: number
      p95Ms: number | null
      medianMs: number | null
      firstMs: number | null
      maxMs: number | null
      ratioToNote: number | null
    }
  >
  peakRssMb: number
}

export function decisionsBench(): void {
  withCompiled('decisions-worker.ts', (script) => {
    console.log('\nDecisions (a stored session as the reconcile bench derives it; each kind taken through the service as the app takes it)')
    for (const [n, samples, rules] of [
      [100_000, 20, ''],
      [1_000_000, 20, ''],
      [1_000_000, 20, 'rules'],
      [1_000_000, 20, 'pairing']
    ] as const) {
      const r = runScript<DecisionsRun>(script, [String(n), String(samples), rules], `decisions ${n}${rules ? ' with rules' : ''}`)
      const what = r.pairing
        ? `${fmt(n)} items, the two rules and one that pairs enabled (the run made ${fmt(r.ruleEvents)} rule events)`
        : r.withRules
          ? `${fmt(n)} items, two rules enabled (the run made ${fmt(r.ruleEvents)} rule events)`
          : `${fmt(n)} items`
      line(`${what}: a full run of the session (what a decision not made in place costs)`, `${fmt(r.runMs / 1000, 2)} s`)
      for (const [kind, k] of Object.entries(r.kinds)) {
        if (k.p95Ms === null) {
          line(`  ${kind}`, 'none to take')
          continue
        }
        const met = k.p95Ms <= 100
        line(
          `  ${kind}: p95 of ${k.samples} (${k.inPlace} in place)`,
          `${fmt(k.p95Ms, 1)} ms`,
          `${fmt(k.ratioToNote ?? 0, 1)}× a note${n === 1_000_000 ? `; target ≤ 100 ms — ${met ? 'met' : 'NOT met'}` : ''}; median ${fmt(k.medianMs ?? 0, 1)} ms, the first after the run ${fmt(k.firstMs ?? 0, 1)} ms, the slowest ${fmt(k.maxMs ?? 0, 1)} ms`
        )
      }
      line(`  peak RSS`, `${fmt(r.peakRssMb)} MB`)
    }
  })
}

// One decisions benchmark in a fresh process: a stored session of N records and N lines in a real cache (with two rules enabled when asked), then each decision kind taken several times through the service as the app takes it (kept as an event, applied in place or by a run), each timed; prints one JSON line.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openCache } from '../src/main/cache/open'
import { ReconService } from '../src/main/reconcile/service'
import { RuleStore } from '../src/main/reconcile/rules/store'
import type { Decision, ReconItem } from '../src/shared/reconcile'
import { monthInCache, rng } from './month'

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)] as number
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] as number
}

async function bench(n: number, samples: number, mode: string): Promise<object> {
  const withRules = mode === 'rules' || mode === 'pairing'
  const pairing = mode === 'pairing'
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-bench-decisions-'))
  try {
    const { cache, statement } = monthInCache(dir, n)
    const db = openCache(cache)
    const service = new ReconService(db, { user: 'bench' })
    const imported = await service.importStatement({ profileId: 'p', name: 'october.csv', bytes: readFileSync(statement), mapping: {} })
    if (imported.status !== 'imported') throw new Error(`the statement was not imported: ${imported.status}`)
    const session = service.createSession({
      profileId: 'p',
      name: 'October',
      source: 'payments',
      from: '2026-10-01',
      to: '2026-10-31',
      timeZone: 'UTC',
      fileIds: [imported.file.id]
    })
    if (withRules) {
      // The bank's charges classified (the run records a rule event for each), and one customer's transfers left out.
      const rules = new RuleStore(db, { user: 'bench' })
      rules.save('p', {
        name: 'bank-charges',
        match: 'all',
        conditions: [{ field: 'description', operator: 'contains', value: 'BANK CHARGE' }],
        action: { type: 'classify', as: 'bank_charge', reasonCode: 'bank_charge' }
      })
      rules.save('p', {
        name: 'ada-transfers',
        match: 'all',
        conditions: [{ field: 'description', operator: 'contains', value: 'ADA OBI' }],
        action: { type: 'leave_out', reason: 'paid to her own account' }
      })
      for (const name of ['bank-charges', 'ada-transfers']) rules.setEnabled('p', name, true)
      if (pairing) {
        // And transfers paired with the customer their line names: each name is many customers' here, so it pairs none, but
        // every decision in the pool counts every free record for it.
        rules.save('p', {
          name: 'transfers-by-name',
          match: 'all',
          conditions: [{ field: 'description', operator: 'contains', value: 'TRANSFER FROM' }],
          action: { type: 'pair', with: 'customer', pattern: 'TRANSFER FROM (.+) \\d+$' }
        })
        rules.setEnabled('p', 'transfers-by-name', true)
      }
    }
    let t = process.hrtime.bigint()
    await service.run(session.id)
    const runMs = ms(t)
    const ruleEvents = service.events(session.id).filter((e) => e.kind === 'rule').length
    const rand = rng(42)
    // A page of 50 items of an outcome at a random place, as the review shows them (reading thousands per pick only
    // made garbage for the timed decisions to collect).
    const items = (outcome: string): ReconItem[] => {
      const { total } = service.items(session.id, { outcome: outcome as never, limit: 1 })
      const offset = Math.floor(rand() * Math.max(0, total - 50))
      return service.items(session.id, { outcome: outcome as never, limit: 50, offset }).items
    }
    let moneyIn: ReconItem[] | null = null
    const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)] as T
    const kinds: Record<string, () => Decision | null> = {
      note: () => ({ kind: 'note', itemKey: pick(items('matched')).key, note: 'checked against the remittance' }),
      accept: () => {
        const s = items('suggested')
        return s.length > 0 ? { kind: 'accept', itemKey: pick(s).key } : null
      },
      reject: () => {
        const s = items('suggested')
        return s.length > 0 ? { kind: 'reject', itemKey: pick(s).key } : null
      },
      unmatch: () => ({ kind: 'unmatch', itemKey: pick(items('matched')).key }),
      match: () => {
        // A line of money in that no record matches (few: most lines left alone are charges), each matched once.
        moneyIn ??= service
          .items(session.id, { outcome: 'only_in_file' as never, limit: 5000 })
          .items.filter((i) => (i.file[0]?.amountMinor ?? 0) > 0)
        const [line] = moneyIn.splice(Math.floor(rand() * moneyIn.length), 1)
        const records = items('only_in_provider')
        return line && records.length > 0
          ? { kind: 'match', providerIds: [pick(records).provider[0]?.id as string], fileIds: [line.file[0]?.id as string] }
          : null
      },
      undo: () => ({ kind: 'undo' })
    }
    const timings: Record<string, { samples: number[]; inPlace: number }> = {}
    for (const [kind, make] of Object.entries(kinds)) {
      const entry = (timings[kind] = { samples: [] as number[], inPlace: 0 })
      for (let k = 0; k < samples; k++) {
        const decision = make()
        if (!decision) break
        t = process.hrtime.bigint()
        const { inPlace } = await service.decide(session.id, decision)
        entry.samples.push(ms(t))
        if (inPlace) entry.inPlace++
      }
    }
    db.close()
    const notes = timings['note']?.samples ?? []
    return {
      n,
      withRules,
      pairing,
      ruleEvents,
      runMs,
      kinds: Object.fromEntries(
        Object.entries(timings).map(([kind, { samples: s, inPlace }]) => [
          kind,
          {
            samples: s.length,
            inPlace,
            p95Ms: s.length > 0 ? p95(s) : null,
            medianMs: s.length > 0 ? median(s) : null,
            // The first of its kind after the run: its code not yet optimised, the pool's arrays maybe not yet gathered.
            firstMs: s[0] ?? null,
            maxMs: s.length > 0 ? Math.max(...s) : null,
            ratioToNote: s.length > 0 && notes.length > 0 ? p95(s) / p95(notes) : null
          }
        ])
      ),
      peakRssMb: process.resourceUsage().maxRSS / 1024
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const [n, samples] = process.argv.slice(2, 4).map(Number)
bench(n as number, samples as number, process.argv[4] ?? '')
  .then((result) => process.stdout.write(`${JSON.stringify(result)}\n`))
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(1)
  })

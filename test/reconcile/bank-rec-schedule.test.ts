// The schedule of reconciling items and the fee memo against the bank reconciliation they stand behind: whatever the items, each class's listed items and those counted below them add up to its line, and the fee memo adds up to every fee of the provider's records.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reconcilingSchedule } from '../../src/main/reconcile/bank-rec-schedule'
import { summarise } from '../../src/main/reconcile/totals'
import { bankReconciliations } from '../../src/shared/bank-reconciliation'
import { DEFAULT_SETTINGS, OUTCOMES, type ReconItem, type ReconSummary } from '../../src/shared/reconcile'
import { reconItem } from '../support/items'
import { propertyRuns } from '../support/property'

const side = fc.record({
  minor: fc.integer({ min: -5_000_000, max: 5_000_000 }),
  fees: fc.integer({ min: 0, max: 50_000 }),
  day: fc.integer({ min: 1, max: 30 }),
  currency: fc.constantFrom('NGN', 'NGN', 'GHS')
})
const drawnItem = fc.record({
  outcome: fc.constantFrom(...OUTCOMES),
  provider: fc.array(side, { maxLength: 3 }),
  file: fc.array(side, { maxLength: 3 }),
  resolved: fc.boolean(),
  leftOut: fc.boolean()
})

type Drawn = typeof drawnItem extends fc.Arbitrary<infer T> ? T : never

function itemsOf(drawn: Drawn[]): ReconItem[] {
  let n = 0
  // Items as the engine makes them: one-sided outcomes have one side; a line not read is one line, with any record it names.
  const shaped = drawn.map((d) => ({
    ...d,
    provider: ['only_in_file', 'duplicate_in_file'].includes(d.outcome) ? [] : d.provider,
    file: ['only_in_provider', 'pending_at_provider', 'duplicate_in_provider'].includes(d.outcome)
      ? []
      : d.outcome === 'not_read'
        ? d.file.slice(0, 1)
        : d.file
  }))
  return shaped
    .filter((d) => d.provider.length + d.file.length > 0 && (d.outcome !== 'not_read' || d.file.length === 1))
    .map((d) =>
      reconItem({
        key: `k${n++}`,
        outcome: d.outcome,
        provider: d.provider.map((p, i) => ({
          id: `p${n}-${i}`,
          reference: `REF-${n}-${i}`,
          serviceReference: null,
          date: `2026-11-${String(p.day).padStart(2, '0')}`,
          amountMinor: p.minor,
          feesMinor: p.fees,
          currency: p.currency,
          status: 'successful',
          channel: null,
          name: null
        })),
        file: d.file.map((f, i) => ({
          id: `f${n}-${i}`,
          fileId: 'nov',
          line: n * 4 + i,
          date: `2026-11-${String(f.day).padStart(2, '0')}`,
          reference: null,
          description: 'TRANSFER',
          counterparty: null,
          amountMinor: f.minor,
          currency: f.currency
        })),
        resolved: d.resolved || (d.outcome === 'not_read' && d.leftOut),
        reasonCode: d.outcome === 'not_read' && d.leftOut ? 'excluded' : null
      })
    )
}

describe('the schedule of reconciling items', () => {
  it("adds up, class by class, to the bank reconciliation's lines; the fee memo to every fee", () => {
    const session = { to: '2026-11-30', settings: DEFAULT_SETTINGS, files: [{ id: 'nov', name: 'nov.csv', pageStarts: null }] } as never
    fc.assert(
      fc.property(fc.array(drawnItem, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 4 }), (drawn, limit) => {
        const items = itemsOf(drawn)
        const totals = summarise(items, { settings: DEFAULT_SETTINGS, periodTo: '2026-11-30' }, [])
        const summary = {
          currencies: totals.currencies,
          statements: [],
          basis: null,
          lines: null,
          period: { from: '2026-11-01', to: '2026-11-30', timeZone: 'UTC' }
        } as unknown as Omit<ReconSummary, 'verdict'>
        const recs = bankReconciliations(summary)
        const schedule = reconcilingSchedule(session, items, limit)
        for (const rec of recs) {
          const classes = schedule.filter((k) => k.currency === rec.currency)
          for (const k of classes) {
            // Listed, counted below, and unlisted (matched with nothing to add): the class's amount and its items.
            expect(k.rows.length).toBeLessThanOrEqual(limit)
            expect(k.rows.reduce((s, r) => s + r.amountMinor, 0) + k.more.amountMinor).toBe(k.amountMinor)
            expect(k.rows.length + k.more.count + k.unlisted).toBe(k.count)
            const line = rec.lines.find((l) => l.kind === 'item' && l.label === k.label)
            // A class with nothing to add is not a line of the reconciliation (lines not read are, always).
            if (line) {
              expect(line.amountMinor, k.label).toBe(k.amountMinor)
              expect(line.count, k.label).toBe(k.count)
            } else expect(k.amountMinor, k.label).toBe(0)
          }
          // Rows oldest first.
          for (const k of classes) {
            const days = k.rows.map((r) => r.day ?? '9999')
            expect(days).toEqual([...days].sort())
          }
          // The fee memo: each class's fees, and all of them, add up to every fee of the provider's records in this currency.
          const fees = items
            .flatMap((i) => i.provider)
            .filter((p) => p.currency === rec.currency)
            .reduce((s, p) => s + p.feesMinor, 0)
          const memo = rec.lines.filter((l) => l.kind === 'memo' && l.label.startsWith("The provider's fees on"))
          const byClass = memo.filter((l) => !l.label.includes('all its records'))
          expect(byClass.reduce((s, l) => s + (l.amountMinor ?? 0), 0)).toBe(fees)
          if (byClass.length > 1) expect(memo.find((l) => l.label.includes('all its records'))?.amountMinor).toBe(fees)
        }
      }),
      propertyRuns(300)
    )
  })
})

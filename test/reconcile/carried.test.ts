// Carried-forward sides in the totals: whatever items hold records and lines brought forward from an earlier period, and whatever their outcome, the bank reconciliation still adds up to the closing balance this statement's own lines make, its own lines are the only ones counted as its lines, and the carried items are counted cleared or still open.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { summarise } from '../../src/main/reconcile/totals'
import { bankReconciliations } from '../../src/shared/bank-reconciliation'
import { DEFAULT_SETTINGS, stillOpen, type CarriedFrom, type ReconItem, type ReconSummary } from '../../src/shared/reconcile'
import { reconItem } from '../support/items'
import { propertyRuns } from '../support/property'

const OCTOBER: CarriedFrom = { sessionId: 's-oct', name: 'October', from: '2026-10-01', to: '2026-10-31', file: 'oct.csv' }

const side = fc.record({
  minor: fc.integer({ min: -5_000_000, max: 5_000_000 }),
  carried: fc.boolean(),
  day: fc.integer({ min: 1, max: 30 })
})
const item = fc.record({
  outcome: fc.constantFrom('matched', 'amount_differs', 'only_in_provider', 'pending_at_provider', 'only_in_file', 'suggested'),
  provider: fc.array(side, { maxLength: 3 }),
  file: fc.array(side, { maxLength: 3 }),
  resolved: fc.boolean()
})

describe('carried-forward sides in the totals', () => {
  it('leave the bank reconciliation adding up to the closing balance its own lines make, and count each carried item cleared or open', () => {
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 30 }), fc.integer({ min: 0, max: 10_000_000 }), (drawn, opening) => {
        let n = 0
        const items: ReconItem[] = drawn
          .filter((d) => d.provider.length + d.file.length > 0)
          .map((d) =>
            reconItem({
              key: `k${n++}`,
              outcome: d.outcome,
              provider: d.provider.map((p, i) => ({
                id: `p${n}-${i}`,
                reference: null,
                serviceReference: null,
                date: `2026-${p.carried ? '10' : '11'}-${String(p.day).padStart(2, '0')}`,
                amountMinor: p.minor,
                feesMinor: 0,
                currency: 'NGN',
                status: 'successful',
                channel: null,
                name: null,
                ...(p.carried ? { carried: OCTOBER } : {})
              })),
              file: d.file.map((f, i) => ({
                id: `f${n}-${i}`,
                fileId: f.carried ? 'oct' : 'nov',
                line: i + 2,
                date: `2026-${f.carried ? '10' : '11'}-${String(f.day).padStart(2, '0')}`,
                reference: null,
                description: null,
                counterparty: null,
                amountMinor: f.minor,
                currency: 'NGN',
                ...(f.carried ? { carried: OCTOBER } : {})
              })),
              resolved: d.resolved
            })
          )
        const own = items.flatMap((i) => i.file.filter((f) => !f.carried))
        const ownTotal = own.reduce((s, f) => s + f.amountMinor, 0)
        const totals = summarise(items, { settings: DEFAULT_SETTINGS, periodTo: '2026-11-30' }, [])
        const [c] = totals.currencies
        if (!c) return
        const summary = {
          currencies: totals.currencies,
          statements: [{ currency: 'NGN', opening: (opening / 100).toFixed(2), closing: ((opening + ownTotal) / 100).toFixed(2) }],
          basis: null,
          lines: null,
          period: { from: '2026-11-01', to: '2026-11-30', timeZone: 'UTC' }
        } as unknown as Omit<ReconSummary, 'verdict'>
        const [rec] = bankReconciliations(summary)
        // This statement's own lines are its lines; the carried ones are counted apart.
        expect(c.fileLines).toBe(own.length)
        expect(c.carried.lines).toBe(items.flatMap((i) => i.file).length - own.length)
        // Opening and every line added equal the closing balance the statement's own lines make: the difference left is 0.
        const added = (rec?.lines ?? []).filter((l) => l.kind === 'item' || (l.kind === 'balance' && l.label.includes('opening')))
        expect(added.reduce((s, l) => s + (l.amountMinor ?? 0), 0)).toBe(opening + ownTotal)
        expect(rec?.differenceMinor).toBe(0)
        const carriedItems = items.filter((i) => [...i.provider, ...i.file].some((s) => s.carried))
        expect(c.carried.items).toBe(carriedItems.length)
        expect(c.carried.open).toBe(carriedItems.filter(stillOpen).length)
      }),
      propertyRuns(300)
    )
  })
})

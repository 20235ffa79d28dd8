// Ageing per class: every open item of a class the bank reconciliation lists is in exactly one age bucket of its class (resolved ones in none), a one-sided item by its own amount and one with both sides by its difference.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { summarise } from '../../src/main/reconcile/totals'
import { AGEING_KINDS, agedAmountInWords, DEFAULT_SETTINGS, type AgeingKind, type Outcome } from '../../src/shared/reconcile'
import { reconItem } from '../support/items'
import { propertyRuns } from '../support/property'

const AGED_OUTCOMES = Object.values(AGEING_KINDS).flatMap((k) => k.outcomes) as Outcome[]
const BASIS = { settings: DEFAULT_SETTINGS, periodTo: '2026-10-31' }

const side = (n: number, minor: number, day: string) => ({
  provider: {
    id: `p${n}`,
    reference: null,
    serviceReference: null,
    date: day,
    amountMinor: minor,
    feesMinor: 0,
    currency: 'NGN',
    status: 'successful',
    channel: null,
    name: null
  },
  file: {
    id: `f${n}`,
    fileId: 'oct',
    line: n,
    date: day,
    reference: null,
    description: null,
    counterparty: null,
    amountMinor: minor,
    currency: 'NGN'
  }
})

describe('ageing per class', () => {
  it('ages an amount difference by its difference, and a line only in the file by its amount, each in its bucket', () => {
    const early = side(1, 10_000, '2026-08-15')
    const late = side(2, 500, '2026-10-30')
    const totals = summarise(
      [
        reconItem({ key: 'a', outcome: 'amount_differs', provider: [early.provider], file: [{ ...early.file, amountMinor: 9_000 }] }),
        reconItem({ key: 'b', outcome: 'only_in_file', provider: [], file: [late.file] }),
        reconItem({ key: 'c', outcome: 'suggested', provider: [late.provider], file: [late.file], resolved: true })
      ],
      BASIS,
      []
    )
    const ageing = totals.currencies[0]?.ageing
    // 15 August to 31 October: 77 days, 61–90; the difference is what the file shows beyond the provider.
    expect(ageing?.differences[3]).toEqual({ count: 1, minor: -1_000 })
    expect(ageing?.fileOnly[0]).toEqual({ count: 1, minor: 500 })
    // A resolved suggestion is no open item.
    expect(ageing?.toReview.every((b) => b.count === 0)).toBe(true)
  })

  it('puts every open item of an aged class in exactly one bucket of its class, and no resolved one anywhere', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            outcome: fc.constantFrom(...AGED_OUTCOMES, 'matched' as const),
            day: fc.integer({ min: 0, max: 200 }),
            resolved: fc.boolean(),
            both: fc.boolean()
          }),
          { minLength: 1, maxLength: 40 }
        ),
        (drawn) => {
          const items = drawn.map((d, n) => {
            const day = new Date(Date.UTC(2026, 9, 31) - d.day * 86_400_000).toISOString().slice(0, 10)
            const s = side(n, 1_000 + n, day)
            return reconItem({
              key: `k${n}`,
              outcome: d.outcome,
              provider: [s.provider],
              file: d.both ? [s.file] : [],
              resolved: d.resolved
            })
          })
          const ageing = summarise(items, BASIS, []).currencies[0]?.ageing
          for (const [kind, k] of Object.entries(AGEING_KINDS) as [AgeingKind, (typeof AGEING_KINDS)[AgeingKind]][]) {
            const open = items.filter((i) => !i.resolved && (k.outcomes as readonly Outcome[]).includes(i.outcome)).length
            expect(ageing?.[kind].reduce((n, b) => n + b.count, 0) ?? 0, kind).toBe(open)
          }
        }
      ),
      propertyRuns(200)
    )
  })

  it('says a class aged by its difference as a difference: a suggestion of the very amount is "difference NGN 0.00", not "NGN 0.00"', () => {
    const day = '2026-10-30'
    const pair = side(1, 5_000, day)
    const ageing = summarise([reconItem({ key: 'k1', outcome: 'suggested', provider: [pair.provider], file: [pair.file] })], BASIS, [])
      .currencies[0]?.ageing
    expect(ageing?.toReview[0]).toEqual({ count: 1, minor: 0 })
    expect(agedAmountInWords('toReview', 'NGN 0.00')).toBe('difference NGN 0.00')
    expect(agedAmountInWords('differences', 'NGN 1.00')).toBe('difference NGN 1.00')
    // One-sided classes are aged by their own amount, said plainly.
    for (const kind of ['pending', 'providerOnly', 'duplicates', 'fileOnly', 'notRead'] as const)
      expect(agedAmountInWords(kind, 'NGN 8.00')).toBe('NGN 8.00')
  })
})

// The Sandbox's generated year holds together whatever the seed: each month's statement adds up from its opening to its closing, the next opens where it closed, every payment is on exactly one line, and every line has its answer.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseMajor } from '../../src/shared/money'
import { statementYear } from '../../src/sandbox/year'
import { propertyRuns } from '../support/property'

describe('the generated year', () => {
  it('adds up, chains, and answers every line', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 2000, max: 2100 }), (seed, year) => {
        const y = statementYear({ seed, year, customers: 10, oneOffs: 3 })
        expect(y).toEqual(statementYear({ seed, year, customers: 10, oneOffs: 3 }))
        let previous: number | null = null
        for (const m of y.months) {
          const rows = m.csv.trimEnd().split('\n')
          const opening = parseMajor(rows[2]?.split(',')[1] ?? '', 'NGN')
          const closing = parseMajor(rows.at(-1)?.split(',')[1] ?? '', 'NGN')
          const lines = rows.slice(4, -1)
          if (previous !== null) expect(opening).toBe(previous)
          expect(opening + lines.reduce((n, l) => n + parseMajor(l.split(',').at(-1) ?? '', 'NGN'), 0)).toBe(closing)
          previous = closing
          expect(m.answers.map((a) => a.line)).toEqual(lines.map((_, k) => k + 5))
          const references = m.answers.filter((a) => a.kind === 'payment').map((a) => a.reference)
          expect(references.sort()).toEqual(m.payments.map((p) => p['reference'] as string).sort())
          for (const l of lines) expect(l.slice(0, 10) >= m.from && l.slice(0, 10) <= m.to).toBe(true)
        }
      }),
      propertyRuns(30)
    )
  })
})

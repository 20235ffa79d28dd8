// The compact stores of a statement's rows and of a CSV grid's cells give back every row exactly as it was pushed: any text (none, empty, any script, longer than a block), any amount, in order.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { StatementRow } from '../../src/main/reconcile/import/parsed-statement'
import { CompactRows } from '../../src/main/reconcile/import/grid-rows'
import { StatementRows } from '../../src/main/reconcile/import/statement-rows'
import { propertyRuns } from '../support/property'

const text = fc.option(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary', maxLength: 40 })), {
  nil: null
})

/** Rows given as a list, held as StatementRows. */
function statementRows(rows: Iterable<StatementRow>): StatementRows {
  const out = new StatementRows()
  for (const r of rows) out.push(r)
  return out.finish()
}

const row = fc.record<StatementRow>({
  id: fc.string({ minLength: 1, maxLength: 24 }),
  line: fc.integer({ min: 1, max: 2_000_000_000 }),
  date: fc.constantFrom('2026-10-01', '2026-10-02', '2026-10-31', '2026-11-01'),
  time: fc.option(fc.constantFrom('09:15', '23:59:59'), { nil: null }),
  amountMinor: fc.maxSafeInteger().map((n) => n * (n % 2 === 0 ? 1 : -1)),
  currency: fc.constantFrom('NGN', 'USD', 'KWD', 'JPY'),
  reference: text,
  description: text,
  counterparty: text
})

describe('statement rows held compactly', () => {
  it('gives back every row as it was pushed, by index, by slice and in order', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 600 }), (rows) => {
        const held = statementRows(rows)
        expect(held.length).toBe(rows.length)
        expect(held.all()).toEqual(rows)
        expect([...held]).toEqual(rows)
        expect(held.slice(3, 9)).toEqual(rows.slice(3, 9))
        rows.forEach((r, i) => {
          expect(held.idAt(i)).toBe(r.id)
          expect(held.currencyAt(i)).toBe(r.currency)
        })
        if (rows.length > 0) expect(held.at(-1)).toEqual(rows[rows.length - 1])
      }),
      propertyRuns(200)
    )
  })

  it('keeps texts that fill a block, straddle its end or are longer than one', () => {
    const long = 'é'.repeat(5_000_000) // more than a block of 4M characters
    const rows: StatementRow[] = []
    for (let i = 0; i < 20; i++)
      rows.push({
        id: `f:${i}`,
        line: i + 1,
        date: '2026-10-01',
        time: null,
        amountMinor: i,
        currency: 'NGN',
        reference: i % 7 === 3 ? long : `REF-${i}`,
        description: 'x'.repeat(700_000),
        counterparty: i % 2 === 0 ? '' : null
      })
    const held = statementRows(rows)
    for (let i = 0; i < rows.length; i++) expect(held.at(i)).toEqual(rows[i])
  })

  it('gives back even a lone surrogate (a damaged UTF-16 file) as it was', () => {
    const held = statementRows([
      {
        id: 'f:1',
        line: 1,
        date: '2026-10-01',
        time: null,
        amountMinor: 1,
        currency: 'NGN',
        reference: 'A\uD800B',
        description: null,
        counterparty: null
      }
    ])
    expect(held.at(0).reference).toBe('A\uD800B')
  })

  it('names a row that is not there', () => {
    const held = new StatementRows()
    expect(() => held.at(0)).toThrow(/No row 0 of 0/)
  })
})

describe('a CSV grid held compactly', () => {
  it('gives back every row of cells as it was pushed, any width, by index and by slice', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: 'grapheme', maxLength: 20 }), { maxLength: 9 }), { maxLength: 700 }), (rows) => {
        const held = new CompactRows()
        for (const r of rows) held.push(r)
        held.finish()
        expect(held.length).toBe(rows.length)
        expect(held.slice()).toEqual(rows)
        expect(held.slice(5, 50)).toEqual(rows.slice(5, 50))
        rows.forEach((r, i) => expect(held.at(i)).toEqual(r))
        expect(held.at(rows.length)).toBeUndefined()
        if (rows.length > 0) expect(held.at(-1)).toEqual(rows[rows.length - 1])
      }),
      propertyRuns(200)
    )
  })
})

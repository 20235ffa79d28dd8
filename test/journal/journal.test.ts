// The journal for the ledger: over random sessions (fees on any record, charges in any words, adjustments either way, carried lines), every entry balances, every file in every format reads back balanced entry by entry, and its fees, charges and adjustments tie to the summary's.
import fc from 'fast-check'
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { DEFAULT_MAP } from '../../src/main/journal/account-map'
import { journalOf } from '../../src/main/journal/entries'
import { journalFile, XERO_MAX_LINES } from '../../src/main/journal/formats'
import { JOURNAL_FORMATS, type JournalFormat } from '../../src/shared/journal'
import { summarise } from '../../src/main/reconcile/totals'
import { parseMajor } from '../../src/shared/money'
import { CHARGE_KINDS, DEFAULT_SETTINGS, type ChargeKind, type ReconItem, type SessionInfo } from '../../src/shared/reconcile'
import { AppError } from '../../src/main/errors'
import { reconItem } from '../support/items'
import { propertyRuns } from '../support/property'

const SESSION = { id: 'abcdef12-0000-0000-0000-000000000000', name: 'October', from: '2026-10-01', to: '2026-10-31' } as SessionInfo
const WORDS = [
  'SMS ALERT CHARGES',
  'VAT ON COMMISSION',
  'STAMP DUTY',
  'EMTL LEVY',
  'COT',
  'TRANSFER TO SUPPLIER',
  'ACCOUNT MAINTENANCE FEE',
  null
]

const drawn = fc.record({
  outcome: fc.constantFrom('matched', 'matched', 'only_in_provider', 'only_in_file', 'only_in_file', 'amount_differs', 'currency_differs'),
  currency: fc.constantFrom('NGN', 'GHS'),
  records: fc.array(fc.record({ minor: fc.integer({ min: 1, max: 9_000_000 }), fees: fc.integer({ min: 0, max: 50_000 }) }), {
    maxLength: 3
  }),
  lines: fc.array(
    fc.record({ minor: fc.integer({ min: -900_000, max: 900_000 }), words: fc.constantFrom(...WORDS), carried: fc.boolean() }),
    { maxLength: 2 }
  ),
  day: fc.integer({ min: 1, max: 31 }),
  resolved: fc.boolean()
})
const adjustment = fc.record({ currency: fc.constantFrom('NGN', 'GHS'), amountMinor: fc.integer({ min: -500_000, max: 500_000 }) })

/** Debits and credits per entry, as the format's file says them. */
function readBack(text: string, format: JournalFormat): Map<string, { debit: number; credit: number }> {
  const rows = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data
  const entries = new Map<string, { debit: number; credit: number }>()
  const add = (entry: string, debit: string | undefined, credit: string | undefined, currency: string): void => {
    const e = entries.get(entry) ?? { debit: 0, credit: 0 }
    e.debit += debit ? parseMajor(debit, currency) : 0
    e.credit += credit ? parseMajor(credit, currency) : 0
    entries.set(entry, e)
  }
  for (const r of rows) {
    if (format === 'csv') add(r.entry as string, r.debit, r.credit, r.currency as string)
    if (format === 'qbo') add(r['Journal No.'] as string, r.Debits, r.Credits, r.Currency as string)
    if (format === 'zoho') add(r['Journal Number'] as string, r.Debit, r.Credit, r.Currency as string)
    // Sage and Xero carry no currency: two decimals read alike in NGN and GHS.
    if (format === 'sage') add(r.Reference as string, r.Debit, r.Credit, 'NGN')
    if (format === 'xero') {
      const value = r['*Amount'] as string
      add(r['*Narration'] as string, value.startsWith('-') ? undefined : value, value.startsWith('-') ? value.slice(1) : undefined, 'NGN')
    }
  }
  return entries
}

describe('the journal', () => {
  it('balances entry by entry in every format, and ties its fees, charges and adjustments to the summary', () => {
    fc.assert(
      fc.property(fc.array(drawn, { minLength: 1, maxLength: 25 }), fc.array(adjustment, { maxLength: 3 }), (draws, adjustments) => {
        let n = 0
        const items: ReconItem[] = draws.map((d) => {
          n++
          const provider = d.outcome === 'only_in_file' ? [] : d.records
          const file = d.outcome === 'only_in_provider' ? [] : d.lines
          const day = `2026-10-${String(d.day).padStart(2, '0')}`
          return reconItem({
            key: `item-${n}`,
            outcome: d.outcome,
            provider: provider.map((p, i) => ({
              id: `p${n}-${i}`,
              reference: `PAY-${n}-${i}`,
              serviceReference: null,
              date: day,
              amountMinor: p.minor,
              feesMinor: p.fees,
              currency: d.currency,
              status: 'successful',
              channel: null,
              name: null
            })),
            file: file.map((f, i) => ({
              id: `f${n}-${i}`,
              fileId: 'oct',
              line: n * 3 + i,
              date: day,
              reference: null,
              description: f.words,
              counterparty: null,
              amountMinor: f.minor,
              currency: d.currency,
              ...(f.carried
                ? { carried: { sessionId: 's', name: 'September', from: '2026-09-01', to: '2026-09-30', file: 'sep.csv' } }
                : {})
            })),
            resolved: d.resolved
          })
        })
        const adj = adjustments.map((a, i) => ({ ...a, reason: `adjustment ${i}`, itemKey: null, by: 'me', at: '2026-11-01' }))
        const journal = journalOf({ session: SESSION, items, adjustments: adj, map: DEFAULT_MAP })
        const totals = summarise(items, { settings: DEFAULT_SETTINGS, periodTo: SESSION.to }, adj)
        for (const e of journal.entries) {
          expect(
            e.lines.reduce((s, l) => s + l.debitMinor, 0),
            e.number
          ).toBe(e.lines.reduce((s, l) => s + l.creditMinor, 0))
          expect(e.lines.every((l) => l.debitMinor >= 0 && l.creditMinor >= 0 && (l.debitMinor === 0) !== (l.creditMinor === 0))).toBe(true)
        }
        // Every figure ties to the summary's, currency by currency.
        for (const c of totals.currencies) {
          const t = journal.totals.find((x) => x.currency === c.currency)
          expect(t?.feesMinor ?? 0).toBe(c.outcomes.matched.feesMinor)
          for (const k of Object.keys(CHARGE_KINDS) as ChargeKind[]) expect(t?.charges[k] ?? 0, k).toBe(c.charges[k].minor)
          expect(t?.adjustmentsMinor ?? 0).toBe(c.adjustmentsMinor)
        }
        for (const format of JOURNAL_FORMATS) {
          let text: string
          try {
            text = journalFile(journal, format)
          } catch (error) {
            expect(format).toBe('xero')
            expect((error as AppError).code).toBe('journal_not_importable')
            continue
          }
          const back = readBack(text, format)
          expect(back.size, format).toBe(journal.entries.length)
          for (const [entry, { debit, credit }] of back) expect(debit, `${format} ${entry}`).toBe(credit)
          const booked = [...back.values()].reduce((s, e) => s + e.debit, 0)
          expect(booked, format).toBe(journal.totals.reduce((s, t) => s + t.debitMinor, 0))
        }
      }),
      propertyRuns(200)
    )
  })

  it('refuses a Xero file past the lines Xero takes, saying how many and what to do', () => {
    const items = Array.from({ length: XERO_MAX_LINES + 5 }, (_, n) =>
      reconItem({
        key: `k${n}`,
        outcome: 'only_in_file' as const,
        provider: [],
        file: [
          {
            id: `f${n}`,
            fileId: 'oct',
            line: n + 2,
            date: '2026-10-05',
            reference: null,
            description: 'SMS CHARGE',
            counterparty: null,
            amountMinor: -500,
            currency: 'NGN'
          }
        ],
        resolved: false,
        differenceMinor: -500
      })
    )
    const journal = journalOf({ session: SESSION, items, adjustments: [], map: DEFAULT_MAP })
    expect(() => journalFile(journal, 'xero')).toThrow(
      /has 306 lines; Xero takes up to 300 in one manual journal import\. Write it as --format csv/
    )
    expect(journalFile(journal, 'csv').trim().split('\r\n')).toHaveLength(XERO_MAX_LINES + 5 + 2)
  })
})

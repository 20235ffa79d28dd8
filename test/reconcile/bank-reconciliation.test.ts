// The bank reconciliation statement: opening + the provider's records ± each class of reconciling item = the closing balance the lines make, against the one stated; it foots to the cent.
import { beforeEach, describe, expect, it } from 'vitest'
import { summaryRows } from '../../src/main/reconcile/report'
import { buildSummary } from '../../src/main/reconcile/totals'
import type { ReconService } from '../../src/main/reconcile/service'
import { scenarioService, scenarioSession } from '../support/recon-session'
import { bankReconciliations } from '../../src/shared/bank-reconciliation'

let service: ReconService

beforeEach(() => {
  service = scenarioService([
    { n: 1, amount: 1000, day: '2026-10-29', fees: 15 }, // credited net of fees
    { n: 2, amount: 2500, day: '2026-10-29' }, // credited 100.00 short
    { n: 3, amount: 400, day: '2026-10-29' }, // not on the statement
    { n: 4, amount: 777.77, day: '2026-10-29', status: 'pending' }, // not yet due
    { n: 5, amount: 50, day: '2026-10-29', status: 'reversed' } // the money went back: left out
  ])
})

describe('the bank reconciliation statement', () => {
  it('foots to the cent from the opening balance to the closing balance the statement states', async () => {
    const csv = [
      'Date,Reference,Description,Debit,Credit,Balance',
      'Opening balance,,,,,"10,000.00"',
      '29/10/2026,PAY-0001,Card,,985.00,"10,985.00"',
      '29/10/2026,PAY-0002,Transfer,,"2,400.00","13,385.00"',
      '30/10/2026,,SMS ALERT CHARGES,52.50,,"13,332.50"',
      'Closing balance,,,,,"13,332.50"'
    ].join('\n')
    const s = await scenarioSession(service, csv, { name: 'oct.csv', from: '2026-10-29', to: '2026-10-30' })
    const input = service.reportInput(s.id, { name: 'Acme test', mode: 'test' })
    const summary = buildSummary(input)
    const [rec] = bankReconciliations(summary)
    expect(rec?.lines.map((l) => [l.label, l.count, l.amountMinor])).toEqual([
      ['Statement opening balance', null, 1_000_000],
      // Net of fees, as the statement shows the one pair with fees; the reversed payment is not among them.
      ["Provider's records for the period, as expected at the bank, net of the provider's fees", 4, 98_500 + 250_000 + 40_000 + 77_777],
      ['Pending at the provider: not yet due at the bank', 1, -77_777],
      ['Only at the provider: not on the statement', 1, -40_000],
      ['Amount differences', 1, -10_000],
      ['Only in the file: not at the provider', 1, -5_250],
      ['Closing balance as the lines add up', null, 1_333_250],
      ['Statement closing balance, as stated', null, 1_333_250],
      ['Difference left', null, 0],
      ["The provider's fees on matched records (to book as fee expense)", null, 1_500],
      // The SMS alert charges, only in the file, read as the bank's charge the journal books.
      ['Bank charges among the lines only in the file (to book)', 1, 5_250]
    ])
    // Every line but the results adds up to the closing balance the lines make.
    const added = (rec?.lines ?? []).filter((l) => l.kind === 'item' || (l.kind === 'balance' && l.label.includes('opening')))
    expect(added.reduce((sum, l) => sum + (l.amountMinor ?? 0), 0)).toBe(1_333_250)
    expect(rec?.differenceMinor).toBe(0)
    // The summary CSV carries it line by line.
    const rows = summaryRows(summary, input).filter((r) => r[0]?.kind === 'text' && r[0].value === 'bank_reconciliation')
    const left = rows.find((r) => (r[1] as { value: string }).value === 'Difference left')
    expect(left?.[8]).toEqual({ kind: 'text', value: 'nothing left' })
    // Nothing left over, but items to review: accounted for, and no more.
    expect(summary.verdict).toMatchObject({ accountedFor: true, complete: true, nothingLeft: false, exitCode: 1 })
  })

  it('says the difference is not checked when the statement states no balances', async () => {
    const s = await scenarioSession(service, 'Date,Reference,Amount\n29/10/2026,PAY-0002,2500.00\n', {
      name: 'ledger.csv',
      from: '2026-10-29',
      to: '2026-10-29'
    })
    const summary = buildSummary(service.reportInput(s.id, { name: 'Acme test', mode: 'test' }))
    const [rec] = bankReconciliations(summary)
    expect(rec?.differenceMinor).toBeNull()
    expect(rec?.lines.find((l) => l.kind === 'difference')).toMatchObject({
      label: 'Difference left: not checked, the statement does not state both balances',
      amountMinor: null
    })
    // Nothing proves every line was read: never "accounted for", never exit 0.
    expect(summary.verdict).toMatchObject({ accountedFor: false, complete: false, exitCode: 1 })
    expect(summary.verdict.currencies[0]?.why).toContain(
      'the statement does not state both an opening and a closing balance in NGN: nothing proves that every line was read'
    )
  })
})

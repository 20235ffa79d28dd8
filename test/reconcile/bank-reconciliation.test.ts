// The bank reconciliation statement: opening + the provider's records ± each class of reconciling item = the closing balance the lines make, against the one stated; it foots to the cent.
import { beforeEach, describe, expect, it } from 'vitest'
import { paymentRow } from '../../src/main/cache/api-rows'
import { openCache } from '../../src/main/cache/open'
import { CacheStore } from '../../src/main/cache/store'
import { buildSummary, summaryRows } from '../../src/main/reconcile/report'
import { ReconService } from '../../src/main/reconcile/service'
import { bankReconciliations } from '../../src/shared/bank-reconciliation'

let service: ReconService

beforeEach(() => {
  const db = openCache(':memory:')
  db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('test', 'Acme test', null, 'test', '2026-01-01')").run()
  const payment = (n: number, amount: number, status = 'successful', fees = 0) =>
    paymentRow({
      id: `id-${n}`,
      reference: `PAY-000${n}`,
      amount,
      currency: 'NGN',
      status,
      channel: 'card',
      totalFees: fees,
      createdAt: '2026-10-29T10:00:00Z'
    })
  new CacheStore(db).writePage('test', 'payments', [
    payment(1, 1000, 'successful', 15), // credited net of fees
    payment(2, 2500), // credited 100.00 short
    payment(3, 400), // not on the statement
    payment(4, 777.77, 'pending'), // not yet due
    payment(5, 50, 'reversed') // the money went back: left out
  ])
  let clock = Date.UTC(2026, 10, 1, 9)
  service = new ReconService(db, { now: () => new Date((clock += 1000)), user: 'ada' })
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
    const imported = await service.importStatement({
      profileId: 'test',
      name: 'oct.csv',
      bytes: Buffer.from(csv),
      mapping: { defaultCurrency: 'NGN' }
    })
    if (imported.status !== 'imported') throw new Error(imported.status)
    const s = service.createSession({
      profileId: 'test',
      name: 'Oct',
      source: 'payments',
      from: '2026-10-29',
      to: '2026-10-30',
      timeZone: 'UTC',
      fileIds: [imported.file.id]
    })
    await service.run(s.id)
    const input = service.reportInput(s.id, { name: 'Acme test', mode: 'test' })
    const summary = buildSummary(input)
    const [rec] = bankReconciliations(summary)
    expect(rec?.lines.map((l) => [l.label, l.count, l.amountMinor])).toEqual([
      ['Statement opening balance', null, 1_000_000],
      // Net of fees for the first (read so by the engine), gross for the rest; the reversed payment is not among them.
      ["Provider's records for the period, as expected at the bank", 4, 98_500 + 250_000 + 40_000 + 77_777],
      ['Pending at the provider: not yet due at the bank', 1, -77_777],
      ['Only at the provider: not on the statement', 1, -40_000],
      ['Amount differences', 1, -10_000],
      ['Only in the file: not at the provider', 1, -5_250],
      ['Closing balance as the lines add up', null, 1_333_250],
      ['Statement closing balance, as stated', null, 1_333_250],
      ['Difference left', null, 0]
    ])
    // Every line but the results adds up to the closing balance the lines make.
    const added = (rec?.lines ?? []).filter((l) => l.kind === 'item' || (l.kind === 'balance' && l.label.includes('opening')))
    expect(added.reduce((sum, l) => sum + (l.amountMinor ?? 0), 0)).toBe(1_333_250)
    expect(rec?.differenceMinor).toBe(0)
    // The summary CSV carries it line by line.
    const rows = summaryRows(summary, input).filter((r) => r[0]?.kind === 'text' && r[0].value === 'bank_reconciliation')
    expect(rows.map((r) => (r[1] as { value: string }).value).at(-1)).toBe('Difference left')
    expect(rows.at(-1)?.[8]).toEqual({ kind: 'text', value: 'nothing left' })
  })

  it('says the difference is not checked when the statement states no balances', async () => {
    const imported = await service.importStatement({
      profileId: 'test',
      name: 'ledger.csv',
      bytes: Buffer.from('Date,Reference,Amount\n29/10/2026,PAY-0002,2500.00\n'),
      mapping: { defaultCurrency: 'NGN' }
    })
    if (imported.status !== 'imported') throw new Error(imported.status)
    const s = service.createSession({
      profileId: 'test',
      name: 'L',
      source: 'payments',
      from: '2026-10-29',
      to: '2026-10-29',
      timeZone: 'UTC',
      fileIds: [imported.file.id]
    })
    await service.run(s.id)
    const [rec] = bankReconciliations(buildSummary(service.reportInput(s.id, { name: 'Acme test', mode: 'test' })))
    expect(rec?.differenceMinor).toBeNull()
    expect(rec?.lines.at(-1)).toMatchObject({
      label: 'Difference left: not checked, the statement does not state both balances',
      amountMinor: null
    })
  })
})

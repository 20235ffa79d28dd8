// Nothing read is lost: a statement line that cannot be read stays in the session as a not_read item, with the provider record it names beside it, until the user reads it by hand or leaves it out with a reason.
import { beforeEach, describe, expect, it } from 'vitest'
import { buildSummary } from '../../src/main/reconcile/totals'
import type { ReconService } from '../../src/main/reconcile/service'
import { scenarioService, scenarioSession } from '../support/recon-session'

let service: ReconService

/** Five lines, day first; line 5 (the fourth row) has a month-first date the other rows rule out. */
const STATEMENT = [
  'Date,Reference,Description,Debit,Credit',
  '28/10/2026,PAY-0001,Card,,"1,000.00"',
  '29/10/2026,PAY-0002,Card,,"2,500.00"',
  '30/10/2026,PAY-0003,Card,,400.00',
  '10/30/2026,PAY-0004,Card,,"1,409,040.84"',
  '31/10/2026,PAY-0005,Card,,600.00'
].join('\n')

beforeEach(() => {
  service = scenarioService([
    { n: 1, amount: 1000, day: '2026-10-28' },
    { n: 2, amount: 2500, day: '2026-10-29' },
    { n: 3, amount: 400, day: '2026-10-30' },
    { n: 4, amount: 1409040.84, day: '2026-10-30' },
    { n: 5, amount: 600, day: '2026-10-31' }
  ])
})

const session = () => scenarioSession(service, STATEMENT, { name: 'statement.csv', from: '2026-10-28', to: '2026-10-31' })

const summaryOf = (id: string) => buildSummary(service.reportInput(id, { name: 'Acme test', mode: 'test' }))

describe('a line that cannot be read', () => {
  it('is a not_read item with its line, text and reason, the payment it names beside it, and an exception', async () => {
    const s = await session()
    const items = service.items(s.id).items
    const notRead = items.find((i) => i.outcome === 'not_read')
    expect(notRead?.file).toEqual([
      expect.objectContaining({
        line: 5,
        amountMinor: 140_904_084,
        notRead: {
          text: '10/30/2026,PAY-0004,Card,,"1,409,040.84"'.replace(/"/g, ''),
          reason: expect.stringMatching(/10\/30\/2026.*DD\/MM\/YYYY.*\(column "Date"\)/),
          fixed: false,
          // The amount was read; the day was not (the item stands on the period's first day).
          dateRead: false,
          amountRead: true
        }
      })
    ])
    expect(notRead?.provider.map((p) => p.reference)).toEqual(['PAY-0004'])
    expect(notRead?.reasons[0]).toMatch(/^line 5 of statement\.csv could not be read: /)
    expect(notRead?.reasons[1]).toBe(`it names the provider's "PAY-0004"`)
    // Never reported as missing from the file.
    expect(items.some((i) => i.outcome === 'only_in_provider')).toBe(false)
    const summary = summaryOf(s.id)
    expect(summary.counts).toMatchObject({ matched: 4, not_read: 1 })
    expect(summary.exceptions).toBe(1)
  })

  it('is read by hand as an audit event, after which the line matches its payment', async () => {
    const s = await session()
    const key = service.items(s.id).items.find((i) => i.outcome === 'not_read')?.key as string
    await service.decide(s.id, { kind: 'fix', itemKey: key, date: '2026-10-30', amount: '1409040.84', currency: 'NGN' })
    const items = service.items(s.id).items
    expect(items.every((i) => i.outcome === 'matched')).toBe(true)
    const fixed = items.find((i) => i.provider[0]?.reference === 'PAY-0004')
    expect(fixed?.file[0]?.notRead?.fixed).toBe(true)
    expect(fixed?.reasons.at(-1)).toMatch(/^line 5 was read by hand: the file has "10\/30\/2026/)
    expect(summaryOf(s.id).exceptions).toBe(0)
    // The correction is in the trail, and undone the line is not read again.
    expect(service.events(s.id).map((e) => e.kind)).toContain('fix')
    await service.decide(s.id, { kind: 'undo' })
    expect(service.items(s.id).items.some((i) => i.outcome === 'not_read')).toBe(true)
  })

  it('is left out only with a reason, and then no longer an exception', async () => {
    const s = await session()
    const key = service.items(s.id).items.find((i) => i.outcome === 'not_read')?.key as string
    await expect(service.decide(s.id, { kind: 'exclude', itemKey: key, reason: '   ' })).rejects.toThrow()
    await service.decide(s.id, { kind: 'exclude', itemKey: key, reason: 'Posted in error and reversed by the bank on 2 November' })
    const item = service.items(s.id).items.find((i) => i.outcome === 'not_read')
    expect(item).toMatchObject({ resolved: true, reasonCode: 'excluded', note: 'Posted in error and reversed by the bank on 2 November' })
    expect(summaryOf(s.id).exceptions).toBe(0)
    // Any other item cannot be read by hand.
    const matched = service.items(s.id).items.find((i) => i.outcome === 'matched')?.key as string
    await expect(service.decide(s.id, { kind: 'fix', itemKey: matched, date: '2026-10-30', amount: '1', currency: 'NGN' })).rejects.toThrow(
      /Only a line that could not be read/
    )
  })
})

describe('the summary of a session with a line not read', () => {
  it('never says the difference is accounted for, and the CSV says which line is open', async () => {
    const s = await session()
    const input = service.reportInput(s.id, { name: 'Acme test', mode: 'test' })
    const { summaryRows } = await import('../../src/main/reconcile/report')
    const rows = summaryRows(buildSummary(input), input)
    const facts = Object.fromEntries(
      rows
        .filter((r) => r[0]?.kind === 'text' && (r[0].value === 'session' || r[0].value === 'verdict') && r[8] !== null)
        .map((r) => [(r[1] as { value: string }).value, String((r[8] as { value: string | number }).value)])
    )
    expect(facts).toMatchObject({ lines_not_read_open: '1', difference_accounted_for: 'no', nothing_left: 'no' })
    expect(facts['verdict']).toMatch(/^Not accounted for: 1 line not read: read each by hand or leave it out with a reason\.$/)
  })
})

describe("a session's statements", () => {
  it('lists each statement with its balances, breaks and open lines not read, complete only when all is checked', async () => {
    const s = await session()
    const [statement] = summaryOf(s.id).statements
    // The five-line statement states no balance: nothing to check, so it is not complete.
    expect(statement).toMatchObject({
      file: 'statement.csv',
      currency: 'NGN',
      opening: null,
      closing: null,
      linesRead: 4,
      notRead: [{ line: 5, text: '10/30/2026,PAY-0004,Card,,1,409,040.84', reason: expect.stringMatching(/10\/30\/2026/) }],
      balanceBreaks: [],
      complete: false,
      verdict: 'no balances to check; 1 line(s) not read'
    })
    const key = service.items(s.id).items.find((i) => i.outcome === 'not_read')?.key as string
    await service.decide(s.id, { kind: 'exclude', itemKey: key, reason: 'Reversed by the bank' })
    expect(summaryOf(s.id).statements[0]).toMatchObject({ notRead: [], verdict: 'no balances to check', complete: false })
  })

  it('is complete when its balances tie and every line is read, and names the break when one does not', async () => {
    const rows = [
      'Date,Reference,Description,Debit,Credit,Balance',
      'Opening balance,,,,,"1,000.00"',
      '28/10/2026,PAY-0001,Card,,"1,000.00","2,000.00"',
      '29/10/2026,PAY-0002,Card,,"2,500.00","4,500.00"',
      '31/10/2026,PAY-0005,Card,,600.00,"5,500.00"',
      'Closing balance,,,,,"5,500.00"'
    ]
    const s = await scenarioSession(service, rows.join('\n'), { name: 'with-balances.csv', from: '2026-10-28', to: '2026-10-31' })
    const [statement] = summaryOf(s.id).statements
    expect(statement).toMatchObject({
      opening: '1000.00',
      closing: '5500.00',
      balanceBreaks: [{ line: 5, expected: '5100.00', found: '5500.00', gap: '400.00' }],
      complete: false
    })
    expect(statement?.verdict).toMatch(/^does not tie/)
  })
})

describe('a line left out whose running balance proves it real', () => {
  it('is a reconciling item of its own, and the session is never said to be accounted for while its money is left over', async () => {
    // Line 3's amount cannot be read; the running balance shows it moved 2,500.00.
    const csv = [
      'Date,Reference,Description,Debit,Credit,Balance',
      'Opening balance,,,,,"10,000.00"',
      '28/10/2026,PAY-0001,Card,,"1,000.00","11,000.00"',
      '29/10/2026,PAY-0002,Card,,"2,5OO.00","13,500.00"',
      '30/10/2026,PAY-0003,Card,,400.00,"13,900.00"',
      'Closing balance,,,,,"13,900.00"'
    ].join('\n')
    const s = await scenarioSession(service, csv, { name: 'oct.csv', from: '2026-10-28', to: '2026-10-31' })
    const line = service.items(s.id).items.find((i) => i.outcome === 'not_read')
    await service.decide(s.id, { kind: 'exclude', itemKey: line?.key as string, reason: 'a duplicate, the bank says' })
    const summary = summaryOf(s.id)
    const { bankReconciliations } = await import('../../src/shared/bank-reconciliation')
    const [rec] = bankReconciliations(summary)
    // The line left out, with the payment it names: nothing of it is on the statement as read.
    expect(rec?.lines.find((l) => l.label.startsWith('Lines not read, left out with a reason'))).toMatchObject({
      count: 1,
      amountMinor: -250_000
    })
    const added = (rec?.lines ?? []).filter((l) => l.kind === 'item' || (l.kind === 'balance' && l.label.includes('opening')))
    expect(added.reduce((sum, l) => sum + (l.amountMinor ?? 0), 0)).toBe(rec?.lines.find((l) => l.kind === 'total')?.amountMinor)
    expect(rec?.differenceMinor).toBe(250_000)
    // Not accounted for, and the statement is not called complete: its line's amount was never read.
    expect(summary.verdict).toMatchObject({ accountedFor: false, complete: false, exitCode: 1 })
    expect(summary.verdict.headline).toBe(
      "Not accounted for: difference left NGN 2,500.00: the statement's balances do not follow from its lines."
    )
    expect(summary.statements[0]).toMatchObject({
      complete: false,
      verdict: expect.stringMatching(/1 line\(s\) left out whose amount was never read$/)
    })
    // Read by hand instead, with the amount the balance shows, it is accounted for.
    await service.decide(s.id, { kind: 'undo' })
    const again = service.items(s.id).items.find((i) => i.outcome === 'not_read')
    await service.decide(s.id, { kind: 'fix', itemKey: again?.key as string, date: '2026-10-29', amount: '2500.00', currency: 'NGN' })
    expect(summaryOf(s.id).verdict).toMatchObject({ accountedFor: true, complete: true })
  })
})

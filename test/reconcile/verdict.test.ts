// The one verdict: random statements (balances or none, lines that cannot be read), payments, periods and decisions; in no state does any output say "accounted for" or exit 0 while another shows money left, and never when the truth the statement was written from says otherwise.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { summaryRows } from '../../src/main/reconcile/report'
import { buildSummary, summaryOf } from '../../src/main/reconcile/totals'
import { AppError } from '../../src/main/errors'
import { bankReconciliations } from '../../src/shared/bank-reconciliation'
import { toMajorString } from '../../src/shared/money'
import { awaitsReading, isException, type Decision, type ReconSummary } from '../../src/shared/reconcile'
import { scenarioService, scenarioSession } from '../support/recon-session'
import { propertyRuns } from '../support/property'

const PROFILE = { name: 'Acme test', mode: 'test' }
const day = (d: number): string => `2026-10-${String(d).padStart(2, '0')}`
const ddmm = (d: number): string => `${String(d).padStart(2, '0')}-Oct-2026`
const major = (minor: number): string => toMajorString(Math.abs(minor), 'NGN')

/** What a statement line truly is: its day, the money it moved, and how it was written wrongly (its amount or its day unreadable). */
interface Truth {
  day: number
  minor: number
  broken: 'no' | 'amount' | 'date'
}

const payment = fc.record({
  minor: fc.integer({ min: 100, max: 5_000_000 }),
  fees: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5_000 })),
  pending: fc.boolean(),
  day: fc.integer({ min: 1, max: 31 })
})

const scenario = fc.array(payment, { minLength: 1, maxLength: 7 }).chain((payments) =>
  fc.record({
    payments: fc.constant(payments),
    lines: fc.array(
      fc.oneof(
        fc.record({
          kind: fc.constant('payment' as const),
          n: fc.integer({ min: 1, max: payments.length }),
          net: fc.boolean(),
          off: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: -500, max: 500 })),
          broken: fc.constantFrom('no' as const, 'no' as const, 'no' as const, 'amount' as const, 'date' as const)
        }),
        fc.record({
          kind: fc.constant('charge' as const),
          minor: fc.integer({ min: -20_000, max: -50 }),
          day: fc.integer({ min: 1, max: 31 }),
          broken: fc.constantFrom('no' as const, 'amount' as const)
        })
      ),
      { minLength: 1, maxLength: 9 }
    ),
    balances: fc.constantFrom('none', 'stated', 'running'),
    opening: fc.integer({ min: 0, max: 10_000_000 }),
    period: fc.tuple(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 0, max: 30 })),
    decisions: fc.array(
      fc.record({
        kind: fc.constantFrom('exclude', 'fix-true', 'fix-wrong', 'accept', 'reject', 'resolve', 'undo'),
        pick: fc.nat(20)
      }),
      { maxLength: 6 }
    )
  })
)

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never

/** The statement as a bank would write it, and the truth it was written from: each data line's file line, day and the amount it moved. */
function write(s: Scenario): { csv: string; truth: Map<number, Truth>; dataLines: number } {
  const rows: string[] = []
  if (s.balances === 'stated') rows.push(`Opening balance,,,,,${major(s.opening)}`)
  rows.push(`Date,Reference,Description,Debit,Credit${s.balances === 'running' ? ',Balance' : ''}`)
  const truth = new Map<number, Truth>()
  let balance = s.opening
  for (const l of s.lines) {
    const p = l.kind === 'payment' ? (s.payments[l.n - 1] as Scenario['payments'][number]) : null
    const minor = p
      ? (l.kind === 'payment' && l.net ? p.minor - p.fees : p.minor) + (l.kind === 'payment' ? l.off : 0)
      : (l as { minor: number }).minor
    const d = p ? p.day : (l as { day: number }).day
    balance += minor
    const amount = l.broken === 'amount' ? `${major(minor).replace('.', 'x')}` : major(minor)
    const date = l.broken === 'date' ? '31-Feb-2026' : ddmm(d)
    const reference = p ? `PAY-000${l.kind === 'payment' ? l.n : ''}` : ''
    const description = p ? 'Card' : 'SMS ALERT CHARGES'
    const cells = [date, reference, description, minor < 0 ? amount : '', minor >= 0 ? amount : '']
    if (s.balances === 'running') cells.push(`${balance < 0 ? '-' : ''}${major(balance)}`)
    rows.push(cells.join(','))
    truth.set(rows.length, { day: d, minor, broken: l.broken })
  }
  if (s.balances === 'stated') rows.push(`Closing balance,,,,,${balance < 0 ? `-${major(balance)}` : major(balance)}`)
  return { csv: rows.join('\n'), truth, dataLines: s.lines.length }
}

/** Every output that says something of the session, against every other, and against the truth. */
function checkOutputs(
  summary: ReconSummary,
  screen: ReconSummary,
  rows: ReturnType<typeof summaryRows>,
  known: { dataLines: number; unknownMoney: boolean; balances: string }
): void {
  const v = summary.verdict
  // The screen (stored totals, kept up to date decision by decision) and the report (summed from every item) say the same.
  expect(screen.verdict).toEqual(v)
  // The statements' lines are counted as the test wrote them.
  expect(summary.lines?.inStatements).toBe(known.dataLines)
  const fact = (name: string): string | undefined =>
    (
      rows.find((r) => r[0]?.kind === 'text' && r[0].value === 'verdict' && (r[1] as { value: string }).value === name)?.[8] as
        { value: string } | undefined
    )?.value
  expect(fact('difference_accounted_for')).toBe(v.accountedFor ? 'yes' : 'no')
  expect(fact('nothing_left')).toBe(v.nothingLeft ? 'yes' : 'no')
  // The bank reconciliation foots: its opening and every class add up to the closing balance the lines make.
  for (const rec of bankReconciliations(summary)) {
    const total = rec.lines.find((l) => l.kind === 'total')?.amountMinor
    const opening = rec.lines.find((l) => l.kind === 'balance' && l.label.includes('opening'))?.amountMinor ?? 0
    expect(rec.lines.filter((l) => l.kind === 'item').reduce((sum, l) => sum + (l.amountMinor ?? 0), opening)).toBe(total)
  }
  const moneyLeft =
    bankReconciliations(summary).some((r) => r.differenceMinor !== 0) ||
    summary.currencies.some((c) => c.unexplainedMinor !== 0) ||
    summary.notReadOpen > 0
  if (moneyLeft) expect(v.accountedFor).toBe(false)
  if (v.exitCode === 0) {
    expect(v.accountedFor && v.complete && v.nothingLeft).toBe(true)
    expect(summary.exceptions).toBe(0)
  }
  // Never yes against the truth: an amount the session does not know, or a statement that states no balances.
  if (known.unknownMoney || known.balances === 'none') expect(v.accountedFor).toBe(false)
}

describe('the one verdict', () => {
  it('never says yes while any output shows money left, nor against the truth the statement was written from', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const service = scenarioService(
          s.payments.map((p, k) => ({
            n: k + 1,
            amount: p.minor / 100,
            fees: p.fees / 100,
            day: day(p.day),
            ...(p.pending ? { status: 'pending' } : {})
          }))
        )
        const { csv, truth, dataLines } = write(s)
        const from = Math.min(s.period[0], 31)
        const to = Math.min(31, from + s.period[1])
        let session
        try {
          session = await scenarioSession(service, csv, { name: 'oct.csv', from: day(from), to: day(to) })
        } catch (error) {
          // Refused only when no line whose day can be read is dated in the period.
          expect(error).toBeInstanceOf(AppError)
          expect((error as AppError).code).toBe('period_outside_statement')
          expect([...truth.values()].some((t) => t.broken !== 'date' && t.day >= from && t.day <= to)).toBe(false)
          return
        }
        // Lines whose money the session does not know (their amount not read, or read by hand wrongly), by line.
        const unknown = new Map<number, number>()
        for (const [line, t] of truth) if (t.broken === 'amount') unknown.set(line, t.minor)
        const check = (): void => {
          const input = service.reportInput(session.id, PROFILE)
          const summary = buildSummary(input)
          const screen = summaryOf(service.session(session.id), PROFILE, service.totals(session.id))
          const unknownMoney = [...unknown.values()].some((m) => m !== 0)
          checkOutputs(summary, screen, summaryRows(summary, input), { dataLines, unknownMoney, balances: s.balances })
        }
        check()
        for (const d of s.decisions) {
          const items = service.items(session.id, { limit: 1000 }).items
          const notRead = items.filter(awaitsReading)
          const pickOf = <T>(list: T[]): T | undefined => list[d.pick % Math.max(1, list.length)]
          let decision: Decision | null = null
          const line = pickOf(notRead)
          if (d.kind === 'exclude' && line) decision = { kind: 'exclude', itemKey: line.key, reason: 'not ours' }
          if ((d.kind === 'fix-true' || d.kind === 'fix-wrong') && line) {
            const t = truth.get(line.file[0]?.line as number)
            if (t) {
              const minor = t.minor + (d.kind === 'fix-wrong' ? 1 : 0)
              decision = {
                kind: 'fix',
                itemKey: line.key,
                date: day(Math.max(from, Math.min(to, t.day))),
                amount: `${minor < 0 ? '-' : ''}${major(minor)}`,
                currency: 'NGN'
              }
              if (d.kind === 'fix-true') unknown.delete(line.file[0]?.line as number)
              else unknown.set(line.file[0]?.line as number, 1)
            }
          }
          const suggestion = pickOf(items.filter((i) => i.outcome === 'suggested' && i.decision === null))
          if (d.kind === 'accept' && suggestion) decision = { kind: 'accept', itemKey: suggestion.key }
          if (d.kind === 'reject' && suggestion) decision = { kind: 'reject', itemKey: suggestion.key }
          const exception = pickOf(items.filter((i) => isException(i.outcome) && !i.resolved && i.outcome !== 'not_read'))
          if (d.kind === 'resolve' && exception) decision = { kind: 'resolve', itemKey: exception.key, resolved: true }
          if (d.kind === 'undo') decision = { kind: 'undo' }
          if (decision === null) continue
          try {
            await service.decide(session.id, decision)
          } catch (error) {
            if (!(error instanceof AppError)) throw error
            continue
          }
          // An undo may take back a fix: what the session knows is then read from the file again.
          if (decision.kind === 'undo')
            for (const i of service.items(session.id, { limit: 1000 }).items)
              for (const f of i.file)
                if (f.notRead && !f.notRead.fixed && !f.notRead.amountRead && truth.has(f.line))
                  unknown.set(f.line, truth.get(f.line)?.minor as number)
          check()
        }
      }),
      propertyRuns(60)
    )
  }, 120_000)
})

describe('the verdict, case by case', () => {
  const STATEMENT = [
    'Date,Reference,Description,Amount,Balance',
    'Opening balance,,,,"10,000.00"',
    '28/10/2026,PAY-0001,Card,"1,000.00","11,000.00"',
    '29/10/2026,PAY-0002,Card,"2,500.00","13,500.00"',
    '31/10/2026,,SMS ALERT CHARGES,-52.50,"13,447.50"',
    'Closing balance,,,,"13,447.50"'
  ].join('\n')

  it('counts the lines outside a narrower period as a class of their own, and accounts for them', async () => {
    const service = scenarioService([
      { n: 1, amount: 1000, day: '2026-10-28' },
      { n: 2, amount: 2500, day: '2026-10-29' }
    ])
    const session = await scenarioSession(service, STATEMENT, { name: 'oct.csv', from: '2026-10-28', to: '2026-10-29' })
    const summary = buildSummary(service.reportInput(session.id, PROFILE))
    const [rec] = bankReconciliations(summary)
    expect(summary.lines).toMatchObject({
      inStatements: 3,
      outsidePeriod: [{ currency: 'NGN', count: 1, minor: -5_250, amountNotRead: 0 }]
    })
    expect(rec?.lines.find((l) => l.label.startsWith('Statement lines dated outside the period'))).toMatchObject({
      count: 1,
      amountMinor: -5_250
    })
    expect(rec?.differenceMinor).toBe(0)
    expect(summary.verdict).toMatchObject({ accountedFor: true, complete: true, nothingLeft: true, exitCode: 0 })
    expect(summary.verdict.headline).toBe(
      'Accounted for: every line of 1 statement is in an item or counted outside the period, each statement ties, the difference left is 0 and nothing is left to review.'
    )
  })

  it('warns, and never says yes, when most lines are in a currency none of the provider records is in', async () => {
    const service = scenarioService([{ n: 1, amount: 1000, day: '2026-10-28' }])
    const imported = await service.importStatement({
      profileId: 'test',
      name: 'ghs.csv',
      bytes: Buffer.from('Date,Reference,Amount\n28/10/2026,PAY-0001,"1,000.00"\n29/10/2026,PAY-0002,"2,500.00"\n'),
      mapping: { defaultCurrency: 'GHS' }
    })
    const session = service.createSession({
      profileId: 'test',
      name: 'Wrong currency',
      source: 'payments',
      from: '2026-10-28',
      to: '2026-10-29',
      timeZone: 'UTC',
      fileIds: imported.status === 'imported' ? [imported.file.id] : []
    })
    await service.run(session.id)
    const summary = buildSummary(service.reportInput(session.id, PROFILE))
    expect(summary.verdict.warnings).toEqual([
      "2 of the 2 lines are in a currency none of the provider's records is in (they are in NGN): check the statement's currency and the profile"
    ])
    expect(summary.verdict).toMatchObject({ accountedFor: false, exitCode: 1 })
  })
})

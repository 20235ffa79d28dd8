// A statement proves itself: opening + lines = closing, and each running balance follows from the one before; a break names its line, the balance expected and found, and the gap.
import { describe, expect, it } from 'vitest'
import { parseStatement } from '../../src/main/reconcile/import/read-file'

const HEAD = [
  'FIRST BANK',
  'Account number,0123456789',
  'Currency,NGN',
  'Opening balance,"1,000.00"',
  '',
  'Date,Reference,Debit,Credit,Balance'
]
/** Day, reference, debit, credit, balance; the column header is line 6, so the first row is line 7. */
const statement = (
  rows: string[],
  head = HEAD,
  tail = ['Closing balance,,,,"1,350.00"']
): Promise<Awaited<ReturnType<typeof parseStatement>>> =>
  parseStatement(Buffer.from([...head, ...rows, ...tail].join('\n')), 'statement.csv', {})

const ROWS = [
  '13/10/2026,PAY-0001,,100.00,"1,100.00"',
  '13/10/2026,PAY-0002,,200.00,"1,300.00"',
  '14/10/2026,FEE,50.00,,"1,250.00"',
  '15/10/2026,PAY-0003,,100.00,"1,350.00"'
]

describe('the statement proves itself', () => {
  it('ties: opening + lines = closing, every running balance follows, the account read from the header block', async () => {
    const { proof, skipped } = await statement(ROWS)
    expect(proof).toMatchObject({
      account: '0123456789',
      currency: 'NGN',
      openingMinor: 100_000,
      openingFrom: 'statement',
      closingMinor: 135_000,
      closingFrom: 'statement',
      linesRead: 4,
      runningBalances: 4,
      breaks: [],
      tieGapMinor: 0,
      complete: true,
      verdict: 'ties: opening NGN 1,000.00 + lines NGN 350.00 = closing NGN 1,350.00'
    })
    expect(skipped).toEqual(
      expect.arrayContaining([
        { line: 4, reason: 'opening balance (above the header row)' },
        { line: 11, reason: 'closing balance line' }
      ])
    )
  })

  it('finds one break where a line is missing: its line, the balance expected and found, and the gap (the missing amount)', async () => {
    const { proof } = await statement([ROWS[0], ROWS[2], ROWS[3]] as string[])
    expect(proof?.breaks).toEqual([{ line: 8, expectedMinor: 105_000, foundMinor: 125_000, gapMinor: 20_000 }])
    expect(proof?.complete).toBe(false)
    expect(proof?.verdict).toMatch(
      /^does not tie: opening NGN 1,000.00 \+ lines NGN 150.00 = NGN 1,150.00, but the closing balance is NGN 1,350.00 \(NGN 200.00 apart\)$/
    )
  })

  it('finds one break where a line is doubled: the gap is minus its amount', async () => {
    const { proof } = await statement([ROWS[0], ROWS[1], ROWS[1], ROWS[2], ROWS[3]] as string[])
    expect(proof?.breaks).toEqual([{ line: 9, expectedMinor: 150_000, foundMinor: 130_000, gapMinor: -20_000 }])
    expect(proof?.tieGapMinor).toBe(-20_000)
    expect(proof?.complete).toBe(false)
  })

  it('reads a statement listed newest first oldest first', async () => {
    const { proof } = await statement([...ROWS].reverse())
    expect(proof).toMatchObject({ newestFirst: true, breaks: [], tieGapMinor: 0, complete: true })
  })

  it('takes lines of one day in any order: a same-day reordering is no break', async () => {
    const { proof } = await statement([ROWS[1], ROWS[0], ROWS[2], ROWS[3]] as string[])
    expect(proof).toMatchObject({ breaks: [], complete: true })
    // Across days the order holds: the same swap over two days is a break.
    const swapped = await statement([(ROWS[1] as string).replace('13/10/2026', '14/10/2026'), ROWS[0], ROWS[2], ROWS[3]] as string[])
    expect(swapped.proof?.breaks[0]).toEqual({ line: 7, expectedMinor: 120_000, foundMinor: 130_000, gapMinor: 10_000 })
  })

  it('derives the balances from the running balance when none is stated, never calls that complete, and says when there are none at all', async () => {
    const derived = await statement(
      ROWS,
      HEAD.filter((l) => !l.startsWith('Opening')),
      []
    )
    expect(derived.proof).toMatchObject({
      openingMinor: 100_000,
      openingFrom: 'running balance',
      closingMinor: 135_000,
      closingFrom: 'running balance',
      tieGapMinor: 0,
      complete: false
    })
    expect(derived.proof?.verdict).toMatch(/; but the statement states neither balance .*: lines cut from its start or end would not show$/)
    // The same file cut after its second line chains just as well: only a stated balance could tell.
    const cut = await statement(
      ROWS.slice(0, 2),
      HEAD.filter((l) => !l.startsWith('Opening')),
      []
    )
    expect(cut.proof).toMatchObject({ tieGapMinor: 0, breaks: [], complete: false })
    // With both balances stated, it is complete; cut short, it is not.
    expect((await statement(ROWS)).proof).toMatchObject({ openingFrom: 'statement', closingFrom: 'statement', complete: true })
    expect((await statement(ROWS.slice(0, 2))).proof).toMatchObject({ complete: false })
    const bare = await parseStatement(Buffer.from('Date,Reference,Amount,Currency\n2026-10-01,PAY-1,5.00,NGN\n'), 'ledger.csv', {})
    expect(bare.proof).toMatchObject({ complete: false, verdict: 'no balances to check', openingMinor: null, closingMinor: null })
  })

  it('is never complete while a line is not read, and a line not read takes the amount its balance implies', async () => {
    const { proof, problems } = await statement([ROWS[0], '10/31/2026,PAY-0002,,200.00,"1,300.00"', ROWS[2], ROWS[3]] as string[])
    expect(problems.map((p) => p.line)).toEqual([8])
    expect(proof).toMatchObject({ breaks: [], tieGapMinor: 0, complete: false })
    expect(proof?.verdict).toMatch(/; 1 line\(s\) not read$/)
    // Its amount unreadable too: the balances imply it, so the statement still ties.
    const worse = await statement([ROWS[0], '10/31/2026,PAY-0002,,2x0.00,"1,300.00"', ROWS[2], ROWS[3]] as string[])
    expect(worse.proof).toMatchObject({ breaks: [], tieGapMinor: 0, complete: false })
  })

  it('never takes a dated "Balance b/f" line for a transaction', async () => {
    const { rows, proof } = await statement(
      ['13/10/2026,,,,"1,000.00"'.replace(',,,,', ',Balance b/f,,,'), ...ROWS],
      HEAD.filter((l) => !l.startsWith('Opening'))
    )
    expect(rows).toHaveLength(4)
    expect(proof).toMatchObject({ openingMinor: 100_000, openingFrom: 'statement', complete: true })
  })
})

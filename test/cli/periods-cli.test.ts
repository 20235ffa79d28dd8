// Month after month from the CLI: each session is of the account its statement states (or one --account names), October closed, November's opening tied to October's closing, a December that does not tie named with both figures, and the sessions listed by account in date order.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { readExcelCsv } from '../support/excel-csv'
import { cacheWithPayments, monthStatement } from '../support/month-statements'
import { HANG_LIMIT_MS } from '../support/wait'

let dir: string
let cache: string

const statement = (name: string, opening: string, lines: [string, string, string][], closing: string, account?: string): string =>
  monthStatement(dir, name, opening, lines, closing, account)

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-periods-'))
  cache = join(dir, 'cache.sqlite')
  cacheWithPayments(cache, [
    ['id-oct', 'INV-OCT', 12.5, 'successful', '2026-10-13T10:00:00Z'],
    ['id-nov', 'INV-NOV', 20, 'successful', '2026-11-05T10:00:00Z'],
    ['id-dec', 'INV-DEC', 7, 'successful', '2026-12-03T10:00:00Z'],
    ['id-jan', 'INV-JAN', 9, 'successful', '2027-01-04T10:00:00Z']
  ])
})

/** Reconciles a statement over a month and returns the session's id and what was said. */
async function reconcile(path: string, from: string, to: string, extra: string[] = []) {
  const run = await runCli([
    'reconcile',
    '--db',
    cache,
    '--against',
    path,
    '--from',
    from,
    '--to',
    to,
    '--out',
    `${path}.report.csv`,
    ...extra
  ])
  expect([0, 1], run.stderr).toContain(run.code)
  const id = /\(session ([0-9a-f-]+)\)/.exec(run.stdout)?.[1] as string
  return { id, out: run.stdout, code: run.code }
}

describe('periods of one account, month after month', { timeout: HANG_LIMIT_MS }, () => {
  it('ties each opening to the last closed closing and names a break, a gap and a statement of no account', async () => {
    const oct = await reconcile(
      statement(
        'oct.csv',
        '1000.00',
        [
          ['2026-10-13', 'inv-oct', '12.50'],
          ['2026-10-20', '', '-0.50']
        ],
        '1012.00'
      ),
      '2026-10-01',
      '2026-10-31'
    )
    expect(oct.out).toContain('Of account 0123456789 (NGN): no closed period of the account comes before it')
    // An open October ties nothing yet: only a closed period is the one before.
    const close = await runCli(['close', '--db', cache, '--session', oct.id])
    expect(close.code, close.stderr).toBe(0)

    const nov = await reconcile(
      statement('nov.csv', '1012.00', [['2026-11-05', 'INV-NOV', '20.00']], '1032.00'),
      '2026-11-01',
      '2026-11-30'
    )
    expect(nov.out).toContain(
      'Of account 0123456789 (NGN): follows "oct.csv against payments, 2026-10-01 to 2026-10-31"; its opening NGN 1,012.00 ties to that closing.'
    )
    expect(nov.out).not.toContain('CHAIN:')
    expect((await runCli(['close', '--db', cache, '--session', nov.id])).code).toBe(0)

    // December opens with another figure than November closed with, and starts a day late: both named, with both figures.
    const dec = await reconcile(statement('dec.csv', '999.00', [['2026-12-03', 'INV-DEC', '7.00']], '1006.00'), '2026-12-02', '2026-12-31')
    expect(dec.out).toContain('its opening does NOT tie to that closing (the figures below).')
    expect(dec.out).toContain(
      'CHAIN: The opening balance NGN 999.00 (dec.csv) does not tie to the closing balance NGN 1,032.00 of "nov.csv against payments, 2026-11-01 to 2026-11-30" (nov.csv): NGN 33.00 apart.'
    )
    expect(dec.out).toContain('CHAIN: No period of account 0123456789 holds 2026-12-01 to 2026-12-01, between "nov.csv')
    // December's own statement ties, but the chain does not: the verdict never says it is accounted for.
    expect(dec.code).toBe(1)
    expect(dec.out).toMatch(
      /Not accounted for: the opening balance NGN 999\.00 does not tie to the closing balance NGN 1,032\.00 of "nov\.csv against payments, 2026-11-01 to 2026-11-30"\./
    )
    expect(dec.out).toContain('WARNING: no period of the account holds 2026-12-01 to 2026-12-01, before this one')
    // The session's reports written again say the same.
    const report = await runCli(['report', '--db', cache, '--session', dec.id, '--out', join(dir, 'dec-again.csv')])
    expect(report.stdout).toContain('CHAIN: The opening balance NGN 999.00 (dec.csv) does not tie')
    // Lock dates: November is closed, so a period sharing its days is refused, and nothing of it is kept.
    const lateArgs = ['--from', '2026-11-15', '--to', '2026-12-05', '--out', join(dir, 'late.csv.report.csv')]
    const lateFile = statement('late.csv', '1032.00', [['2026-11-20', 'INV-NOV', '20.00']], '1052.00')
    const locked = await runCli(['reconcile', '--db', cache, '--against', lateFile, ...lateArgs])
    expect(locked.code, locked.stdout).toBe(2)
    expect(locked.stderr).toContain(
      '"late.csv against payments, 2026-11-15 to 2026-12-05" cannot be made: The period shares days with "nov.csv against payments, 2026-11-01 to 2026-11-30" of account 0123456789, which is closed: the days of a closed period are locked. Reopen that period with a reason to change anything dated in it.'
    )
    expect(JSON.parse((await runCli(['sessions', '--db', cache, '--json'])).stdout)).toHaveLength(3)
    // Reopened with a reason, November's days take a session over them again.
    const reopened = await runCli([
      'reopen',
      '--db',
      cache,
      '--session',
      nov.id,
      '--reason',
      'The bank sent a statement over its last days'
    ])
    expect(reopened.code, reopened.stderr).toBe(0)
    // A period held by another (still open) session of the account is no gap: November's days run on into a session over them.
    const late = await reconcile(
      statement('late.csv', '1032.00', [['2026-11-20', 'INV-NOV', '20.00']], '1052.00'),
      '2026-11-15',
      '2026-12-05'
    )
    expect(late.out).not.toContain('No period of account')
    expect(late.out).toContain(
      'CHAIN: This period shares 2026-11-15 to 2026-11-30 with "nov.csv against payments, 2026-11-01 to 2026-11-30" of the same account.'
    )
    // November closed again: nothing in the later session dated in its days is decided until it is reopened; what is dated after them is.
    expect((await runCli(['close', '--db', cache, '--session', nov.id])).code).toBe(0)
    const inNovember = readExcelCsv(`${lateFile}.report.csv`).find((r) => r.file_date === '2026-11-20')?.item_key as string
    const refusedNote = await runCli(['decide', '--db', cache, '--session', late.id, '--item', inNovember, 'note', 'seen'])
    expect(refusedNote.code).toBe(2)
    expect(refusedNote.stderr).toContain(
      'It is dated 2026-11-20, inside "nov.csv against payments, 2026-11-01 to 2026-11-30" of account 0123456789, which is closed'
    )

    // A statement that states no account: --account names it; another statement's account is never overridden.
    const jan = await reconcile(
      statement('jan.csv', '5.00', [['2027-01-04', 'INV-JAN', '9.00']], '14.00', ''),
      '2027-01-01',
      '2027-01-31',
      ['--account', 'GTB current']
    )
    expect(jan.out).toContain('Of account GTB current (NGN), as named: no closed period')
    const refused = await runCli([
      'reconcile',
      '--db',
      cache,
      '--against',
      join(dir, 'nov.csv'),
      '--account',
      '999',
      '--out',
      join(dir, 'x.csv')
    ])
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('holds no statement of account 999') })

    // The sessions by account, each account's periods in date order with how they chain.
    const list = await runCli(['sessions', '--db', cache])
    expect(list.code, list.stderr).toBe(0)
    const groups = list.stdout.split('\n').filter((l) => /^\S/.test(l))
    expect(groups).toEqual([
      'Books (LIVE), account 0123456789 (NGN): 4 periods',
      'Books (LIVE), account GTB current (NGN), as named: 1 period'
    ])
    const periods = list.stdout.split('\n').filter((l) => /^ {4}\d{4}-\d{2}-\d{2} to/.test(l))
    expect(periods.map((l) => l.trim().slice(0, 24))).toEqual([
      '2026-10-01 to 2026-10-31',
      '2026-11-01 to 2026-11-30',
      '2026-11-15 to 2026-12-05',
      '2026-12-02 to 2026-12-31',
      '2027-01-01 to 2027-01-31'
    ])
    const json = JSON.parse((await runCli(['sessions', '--db', cache, '--json'])).stdout) as {
      id: string
      account: { name: string | null }
      chain: { ties: boolean | null; said: string[] } | null
    }[]
    // November ties to October; all it has to say now is the later session over its last days.
    expect(json.find((s) => s.id === nov.id)?.chain).toMatchObject({
      ties: true,
      said: ['This period shares 2026-11-15 to 2026-11-30 with "late.csv against payments, 2026-11-15 to 2026-12-05" of the same account.']
    })
    expect(json.find((s) => s.id === dec.id)?.chain).toMatchObject({ ties: false })
    expect(json.find((s) => s.id === jan.id)?.account).toMatchObject({ name: 'GTB current', namedBy: 'user' })
  })
})

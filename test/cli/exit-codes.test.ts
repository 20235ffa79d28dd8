// The CLI's exit codes as the README gives them, path by path: every bad input the caller can give exits 2 with its reason in words (never a raw error); a reconciliation exits 0 only when it is accounted for with nothing left, else 1; and the commands that finish a session (sessions, report, match, undo, accept-all with its group suggestions, decide --json) say what they did.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { startSandbox } from '../../src/sandbox/server'
import { addPayment, runCli } from '../support/cli'
import { readExcelCsv } from '../support/excel-csv'

let dir: string
let cache: string
let statement: string
let sessionId: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-exit-codes-'))
  cache = join(dir, 'cache.sqlite')
  openCache(cache).close()
  addPayment(cache, { reference: 'INV-90', currency: 'NGN', createdAt: '2026-10-13T10:00:00Z', timeZone: 'UTC' })
  statement = join(dir, 'oct.csv')
  // One payment and a bank charge the provider cannot explain: exceptions remain (exit 1).
  writeFileSync(
    statement,
    'Currency;NGN;;\nOpening balance;0,00;;\nDate;Ref;Amount;Details\n13.10.2026;inv-90;12,50;card\n14.10.2026;;-0,50;sms\nClosing balance;12,00;;\n'
  )
  const run = await runCli(['reconcile', '--db', cache, '--against', statement, '--out', join(dir, 'report.csv'), '--json'])
  expect(run.code, run.stderr).toBe(1)
  sessionId = (JSON.parse(run.stdout) as { sessionId: string }).sessionId
})

describe('exit codes', () => {
  /** Every path of bad input the CLI has, and the words its refusal must hold. */
  const BAD_INPUT: [string, () => string[], RegExp][] = [
    ['an unknown command', () => ['frobnicate'], /unknown command "frobnicate"/],
    ['an unknown option', () => ['sessions', '--db', cache, '--colour'], /Unknown option '--colour'/],
    [
      'reconcile without a statement',
      () => ['reconcile', '--db', cache, '--out', join(dir, 'x.csv')],
      /reconcile needs --against STATEMENT/
    ],
    [
      'a statement that is not there',
      () => ['reconcile', '--db', cache, '--against', join(dir, 'gone.csv'), '--out', join(dir, 'x.csv')],
      /cannot read .*gone\.csv: no such file/
    ],
    [
      'a reversed period',
      () => ['reconcile', '--db', cache, '--against', statement, '--from', '2026-10-31', '--to', '2026-10-01', '--out', join(dir, 'x.csv')],
      /the first not after the second.*\[invalid_period\]/
    ],
    [
      'a period that holds none of the lines',
      () => ['reconcile', '--db', cache, '--against', statement, '--from', '2020-01-01', '--to', '2020-01-31', '--out', join(dir, 'x.csv')],
      /holds none of the lines of oct\.csv: they are dated 2026-10-13 to 2026-10-14.*\[period_outside_statement\]/
    ],
    [
      'a currency the statement contradicts',
      () => ['reconcile', '--db', cache, '--against', statement, '--currency', 'GHS', '--out', join(dir, 'x.csv')],
      /states its currency is NGN \(in its header block\), not the GHS given.*\[currency_conflict\]/
    ],
    [
      'a picture given as a statement',
      () => ['import', '--db', cache, join(dir, 'scan.png')],
      /scan\.png is a PNG image.*\[not_a_statement\]/
    ],
    [
      'a workbook cut short',
      () => ['import', '--db', cache, join(dir, 'cut.xlsx')],
      /cut\.xlsx is damaged: it has no zip directory at its end.*\[damaged_zip\]/
    ],
    [
      'its own report given back',
      () => ['import', '--db', cache, '--currency', 'NGN', join(dir, 'report.csv')],
      /one of Ledgerline's own reconciliation reports.*\[not_a_statement\]/
    ],
    [
      'an unknown session',
      () => ['decide', '--db', cache, '--session', 'no-such', '--item', 'X', 'accept'],
      /No reconciliation session no-such.*\[session_not_found\]/
    ],
    [
      'an unknown item',
      () => ['decide', '--db', cache, '--session', sessionId, '--item', 'ZZZZZZZZZZZZ', 'accept'],
      /no item "ZZZZZZZZZZZZ"/
    ],
    [
      'a report of an unknown session',
      () => ['report', '--db', cache, '--session', 'no-such', '--out', join(dir, 'x.csv')],
      /No reconciliation session no-such/
    ],
    ['a match of one item', () => ['match', '--db', cache, '--session', sessionId, '--item', 'X'], /match needs two or more --item KEY/],
    ['accept-all with no score', () => ['accept-all', '--db', cache, '--session', sessionId], /accept-all needs --min-score N/],
    ['a cache that is not there', () => ['sessions', '--db', join(dir, 'none.sqlite')], /there is no cache at .*none\.sqlite/],
    [
      'a base URL that is not one',
      () => ['profile', 'add', 'X', '--db', cache, '--base-url', 'not a url'],
      /is not a URL.*\[invalid_base_url\]/
    ],
    [
      'a pack that is not a zip',
      () => ['audit', 'verify', '--evidence', statement],
      /not an evidence pack Ledgerline wrote: it is not a readable zip.*\[not_a_pack\]/
    ]
  ]

  it.each(BAD_INPUT)('exits 2 for %s, saying why in words', async (_what, args, says) => {
    writeFileSync(join(dir, 'scan.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]))
    writeFileSync(join(dir, 'cut.xlsx'), Buffer.from('PK\u0003\u0004..xl/workbook.xml..'))
    const run = await runCli(args(), { LEDGERLINE_API_KEY: 'pk_test_x' })
    expect(run.code, run.stderr).toBe(2)
    expect(run.stderr).toMatch(says)
    expect(run.stderr).not.toMatch(/\n\s+at |TypeError|RangeError|Bug/)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('exits 2 for a session that is closed, and for nothing to undo', async () => {
    const other = await runCli([
      'reconcile',
      '--db',
      cache,
      '--against',
      statement,
      '--name',
      'Second',
      '--out',
      join(dir, 'second.csv'),
      '--json'
    ])
    const id = (JSON.parse(other.stdout) as { sessionId: string }).sessionId
    expect(await runCli(['undo', '--db', cache, '--session', id])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/no decision to undo.*\[nothing_to_undo\]/)
    })
    expect((await runCli(['close', '--db', cache, '--session', id])).code).toBe(0)
    expect(await runCli(['undo', '--db', cache, '--session', id])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/closed by .*reopen it.*\[session_closed\]/)
    })
  }, 60_000)
})

describe('a wrong key', () => {
  it('given with --base-url and no keychain at all, is said to be refused by the server, never a keychain problem (the key is not stored)', async () => {
    const sandbox = await startSandbox({ payments: 10, rateLimits: false })
    try {
      const run = await runCli(['sync', '--base-url', sandbox.baseUrl, '--db', join(dir, 'adhoc.sqlite')], {
        LEDGERLINE_API_KEY: 'sk_test_definitely-wrong',
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus'
      })
      expect(run.code).toBe(2)
      expect(run.stderr).toMatch(/the server refused the key of .* \(from LEDGERLINE_API_KEY\) \(invalid_credentials\)/)
      expect(run.stderr).not.toMatch(/keychain/)
    } finally {
      await sandbox.close()
    }
  })
})

describe('the commands that finish a session', () => {
  it('lists sessions, writes any session report, matches by hand, undoes, and decides with the items it left', async () => {
    const list = await runCli(['sessions', '--db', cache, '--json'])
    expect(list.code).toBe(0)
    const sessions = JSON.parse(list.stdout) as {
      id: string
      state: string
      currencies: string[]
      accounts: string[]
      verdict: string
      from: string
      to: string
    }[]
    expect(sessions.find((s) => s.id === sessionId)).toMatchObject({
      state: 'open',
      currencies: ['NGN'],
      from: '2026-10-13',
      to: '2026-10-14',
      verdict: 'Accounted for, but 1 item left to review.'
    })
    const text = await runCli(['sessions', '--db', cache])
    expect(text.stdout).toContain(`${sessionId}  oct.csv against payments, 2026-10-13 to 2026-10-14`)

    const report = await runCli([
      'report',
      '--db',
      cache,
      '--session',
      sessionId,
      '--out',
      join(dir, 'again.csv'),
      '--summary',
      join(dir, 'again-summary.csv')
    ])
    expect(report.code).toBe(1)
    expect(report.stdout).toMatch(/Accounted for, but 1 item left to review\./)
    const rows = readExcelCsv(join(dir, 'again.csv'))
    // Short keys: 12 characters, whatever the item.
    expect(rows.every((r) => /^[0-9A-Z]{12}$/.test(r['item_key'] as string))).toBe(true)
    const charge = rows.find((r) => r['outcome'] === 'only_in_file')?.['item_key'] as string
    const paid = rows.find((r) => r['outcome'] === 'matched')?.['item_key'] as string
    expect(readFileSync(join(dir, 'again-summary.csv'), 'utf8')).toContain('"verdict","difference_accounted_for",,,,,,,"yes"')

    // Unmatched, the payment and its line go back to one side each: the JSON carries the items they are in now.
    const unmatched = await runCli(['decide', '--db', cache, '--session', sessionId, '--item', paid, 'unmatch', '--json'])
    expect(unmatched.code).toBe(0)
    const after = JSON.parse(unmatched.stdout) as { item: unknown; items: { outcome: string; shortKey: string }[] }
    expect(after.item).toBeNull()
    expect(after.items.map((i) => i.outcome).sort()).toEqual(['only_in_file', 'only_in_provider'])
    // Matched again by hand from those two items.
    const [a, b] = after.items.map((i) => i.shortKey)
    const matched = await runCli(['match', '--db', cache, '--session', sessionId, '--item', a as string, '--item', b as string, '--json'])
    expect(matched.code, matched.stderr).toBe(0)
    expect((JSON.parse(matched.stdout) as { item: { outcome: string; decision: string } }).item).toMatchObject({
      outcome: 'matched',
      decision: 'manual'
    })
    const undone = await runCli(['undo', '--db', cache, '--session', sessionId])
    expect(undone).toMatchObject({ code: 0, stdout: expect.stringMatching(/^undo of event \d+ \(match\) recorded\./) })
    // The bank charge, resolved with a reason by its short key.
    const resolved = await runCli(['decide', '--db', cache, '--session', sessionId, '--item', charge, 'resolve', '--reason', 'bank_charge'])
    expect(resolved).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(new RegExp(`only_in_file: line 5 -NGN 0\\.50 \\(resolved\\).*\\[item ${charge}\\]`))
    })
    // Closed with its pack: the head kept with the sign-off is checked too; a pack rebuilt whole ends in another.
    const closed = await runCli(['close', '--db', cache, '--session', sessionId, '--evidence', join(dir, 'pack.zip')])
    const head = /ends in ([0-9a-f]{64})/.exec(closed.stdout)?.[1] as string
    expect(await runCli(['audit', 'verify', '--evidence', join(dir, 'pack.zip'), '--head', head])).toMatchObject({ code: 0 })
    const other = await runCli(['audit', 'verify', '--evidence', join(dir, 'pack.zip'), '--head', '0'.repeat(64)])
    expect(other).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(/not the 0{64} kept with the sign-off: this is not the pack that was signed off/)
    })
    // A dozen CLI processes, each starting TypeScript: given the time a loaded machine takes.
  }, 180_000)
})

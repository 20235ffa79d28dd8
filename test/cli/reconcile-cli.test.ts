// The real CLI reconciles a bank statement it has never seen against payments synced from the Sandbox, without a mapping file; exit codes like diff; audit verify.
import Database from 'better-sqlite3'
import ExcelJS from 'exceljs'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toMajorString } from '../../src/shared/money'
import { openCache } from '../../src/main/cache/open'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import { addPayment, runCli } from '../support/cli'
import { readExcelCsv } from '../support/excel-csv'

let sandbox: Sandbox
let dir: string
let db: string

interface Paid {
  reference: string
  amount_minor: number
  fees_minor: number
  status: string
  channel: string
  created_at: string
}

/** "1,234,567.89" from minor units. */
const withThousands = (minor: number): string => {
  const [whole, fraction] = toMajorString(minor, 'NGN').split('.') as [string, string]
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`
}
const dayFirst = (iso: string): string => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`

beforeAll(async () => {
  sandbox = await startSandbox({ payments: 400, rateLimits: false, strictSpec: true })
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-recon-cli-'))
  db = join(dir, 'cache.sqlite')
  const sync = await runCli(['sync', '--base-url', sandbox.baseUrl, '--resources', 'payments', '--no-pacing', '--db', db], {
    LEDGERLINE_API_KEY: sandbox.keys.test
  })
  if (sync.code !== 0) throw new Error(sync.stderr)
})
afterAll(() => sandbox.close())

describe('ledgerline reconcile', { timeout: 120_000 }, () => {
  it('reconciles an unseen bank statement: day-first dates, Debit and Credit, thousands, messy references, a mobile-money settlement net of fees, a bank charge', async () => {
    const cache = new Database(db, { readonly: true })
    const paid = cache
      .prepare(
        "select reference, amount_minor, coalesce(fees_minor, 0) as fees_minor, status, channel, created_at from payments where currency = 'NGN' order by created_at"
      )
      .all() as Paid[]
    cache.close()
    const successful = paid.filter((p) => p.status === 'successful')
    const momo = successful.filter((p) => p.channel === 'mobile_money').slice(0, 4)
    const single = successful.filter((p) => p.channel !== 'mobile_money')
    expect(momo.length).toBeGreaterThanOrEqual(2)
    const settlementDay = momo.reduce((d, p) => (p.created_at > d ? p.created_at : d), '').slice(0, 10)
    const lines: [string, string, string, string, string][] = single.map((p, i) => {
      const messy = i % 3 === 0 ? `  ${p.reference.toLowerCase()} ` : i % 3 === 1 ? p.reference.replace('-', ' - ') : ` ${p.reference}`
      return [p.created_at.slice(0, 10), messy, `NIP TRANSFER ${i}`, '', withThousands(p.amount_minor - p.fees_minor)]
    })
    const settlement = momo.reduce((s, p) => s + p.amount_minor - p.fees_minor, 0)
    lines.push([settlementDay, '', `MOMO SETTLEMENT ${settlementDay}`, '', withThousands(settlement)])
    lines.push([settlementDay, '', 'SMS ALERT CHARGES OCT', '1,050.00', ''])
    lines.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    const csv = [
      'FIRST EXAMPLE BANK PLC',
      'Customer statement',
      'Account,0011223344',
      '',
      'Txn Date,Value Date,Reference,Narration,Debit,Credit,Balance',
      ...lines.map(([day, ref, text, debit, credit]) => `${dayFirst(day)},${dayFirst(day)},${ref},${text},"${debit}","${credit}",`),
      ',,,Closing balance,,,"1,000,000.00"'
    ].join('\r\n')
    writeFileSync(join(dir, 'statement.csv'), csv)

    const run = await runCli([
      'reconcile',
      '--db',
      db,
      '--source',
      'payments',
      '--against',
      join(dir, 'statement.csv'),
      '--net-of-fees',
      '--out',
      join(dir, 'report.csv'),
      '--summary',
      join(dir, 'summary.csv'),
      '--xlsx',
      join(dir, 'report.xlsx'),
      '--json'
    ])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(1)
    const summary = JSON.parse(run.stdout) as {
      counts: Record<string, number>
      currencies: { currency: string; unexplainedMinor: number; fileTotalMinor: number }[]
      period: { from: string; to: string }
    }
    expect(summary.counts).toMatchObject({
      matched: single.length,
      suggested: 1,
      only_in_file: 1,
      amount_differs: 0,
      ambiguous: 0,
      duplicate_in_file: 0
    })
    expect(summary.currencies).toEqual([expect.objectContaining({ currency: 'NGN', unexplainedMinor: 0 })])

    const report = readExcelCsv(join(dir, 'report.csv'))
    const group = report.find((r) => r['outcome'] === 'suggested')
    expect(group?.['provider_reference']?.split(' + ').sort()).toEqual(momo.map((p) => p.reference).sort())
    expect(group?.['file_description']).toBe(`MOMO SETTLEMENT ${settlementDay}`)
    expect(report.find((r) => r['outcome'] === 'only_in_file')).toMatchObject({
      file_description: 'SMS ALERT CHARGES OCT',
      file_amount: '-1050.00'
    })
    const workbook = new ExcelJS.Workbook()
    await workbook.xlsx.readFile(join(dir, 'report.xlsx'))
    expect(workbook.getWorksheet('Items')?.rowCount).toBe(report.length + 1)

    const audit = await runCli(['audit', 'verify', '--db', db])
    expect(audit).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Audit trail intact: 1 session\(s\), 2 event\(s\)/) })
  })

  it('takes the days in the business time zone --time-zone names: a payment at 23:30 UTC is the next day in Lagos', async () => {
    const zoned = join(dir, 'zoned.sqlite')
    openCache(zoned).close()
    addPayment(zoned, { reference: 'INV-78', currency: 'NGN', createdAt: '2026-10-12T23:30:00Z', timeZone: 'UTC' })
    // A statement with its balances, so that everything matched can be said (exit 0).
    writeFileSync(
      join(dir, 'lagos.csv'),
      'Opening balance;0,00;;\nDate;Ref;Amount;Currency\n13.10.2026;inv-78;12,50;NGN\nClosing balance;12,50;;\n'
    )
    // In the profile's UTC the payment is on the 12th: outside the statement's day, read because the line may trail it, and said so.
    const utc = await runCli(['reconcile', '--db', zoned, '--against', join(dir, 'lagos.csv'), '--out', join(dir, 'utc.csv')])
    expect(utc).toMatchObject({ code: 0, stdout: expect.stringMatching(/2026-10-13 to 2026-10-13 in UTC[\s\S]*matched +1/) })
    expect(readFileSync(join(dir, 'utc.csv'), 'utf8')).toContain("the provider's record INV-78 is dated 2026-10-12, outside the period")
    const lagos = await runCli([
      'reconcile',
      '--db',
      zoned,
      '--against',
      join(dir, 'lagos.csv'),
      '--time-zone',
      'Africa/Lagos',
      '--out',
      join(dir, 'lagos-report.csv')
    ])
    expect(lagos).toMatchObject({
      code: 0,
      stderr: '',
      stdout: expect.stringMatching(/2026-10-13 to 2026-10-13 in Africa\/Lagos[\s\S]*matched +1/)
    })
    const inLagos = readFileSync(join(dir, 'lagos-report.csv'), 'utf8')
    // The record's day is the 13th there.
    expect(inLagos).not.toContain('2026-10-12')
    expect(inLagos).not.toContain('outside the period')
    const badZone = await runCli([
      'reconcile',
      '--db',
      zoned,
      '--against',
      join(dir, 'lagos.csv'),
      '--time-zone',
      'Mars/Olympus',
      '--out',
      join(dir, 'x.csv')
    ])
    expect(badZone).toMatchObject({ code: 2, stderr: expect.stringMatching(/--time-zone: "Mars\/Olympus" is not a time zone name/) })
  })

  it('exits 0 when everything matched, and 2 on bad input with the reason', async () => {
    const small = join(dir, 'small.sqlite')
    const make = new Database(small)
    make.close()
    // A cache with no records yet says to sync first.
    await runCli(['profile', 'list', '--db', small])
    writeFileSync(join(dir, 'ok.csv'), 'Date;Ref;Amount;Currency\n13.10.2026;inv-77;12,50;GHS\n')
    const empty = await runCli(['reconcile', '--db', small, '--against', join(dir, 'ok.csv'), '--out', join(dir, 'x.csv')])
    expect(empty).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^ledgerline: no profile in this cache holds any records yet; run ledgerline sync first/)
    })
    // A cache with one profile whose only payment the statement shows.
    addPayment(small, { reference: 'INV-77', currency: 'GHS', createdAt: '2026-10-13T10:00:00Z', timeZone: null })
    // Everything matched, but the file states no balance: nothing proves every line was read, so not exit 0.
    writeFileSync(join(dir, 'unproved.csv'), 'Date;Ref;Amount;Currency\n13.10.2026;inv-77;12,50;GHS\n')
    const unproved = await runCli(['reconcile', '--db', small, '--against', join(dir, 'unproved.csv'), '--out', join(dir, 'u.csv')])
    expect(unproved).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(
        /accounted for: NO[\s\S]*the statement does not state both an opening and a closing balance in GHS: nothing proves that every line was read/
      )
    })
    writeFileSync(
      join(dir, 'ok.csv'),
      'Opening balance;100,00;;\nDate;Ref;Amount;Currency\n13.10.2026;inv-77;12,50;GHS\nClosing balance;112,50;;\n'
    )
    const ok = await runCli(['reconcile', '--db', small, '--against', join(dir, 'ok.csv'), '--out', join(dir, 'ok-report.csv')])
    expect(ok.stderr).toBe('')
    expect(ok.code).toBe(0)
    expect(ok.stdout).toMatch(/matched +1/)
    expect(ok.stdout).toMatch(
      /Accounted for: every line of 1 statement is in an item, each statement ties, the difference left is 0 and nothing is left to review\./
    )
    // --plain: the same report for accounting software, pandas and SQL, and said not to be for Excel.
    const plain = await runCli(['reconcile', '--db', small, '--against', join(dir, 'ok.csv'), '--out', join(dir, 'plain.csv'), '--plain'])
    expect(plain.stdout).toMatch(/plain CSV for accounting software, pandas and SQL; not meant for Excel/)
    const plainText = readFileSync(join(dir, 'plain.csv'), 'utf8')
    expect(plainText.startsWith('"outcome_in_words"')).toBe(true)
    expect(plainText).not.toContain('="')
    expect(Papa.parse<Record<string, string>>(plainText, { header: true, skipEmptyLines: true }).data[0]).toMatchObject({
      outcome: 'matched',
      provider_reference: 'INV-77',
      file_reference: 'inv-77',
      file_line: '3'
    })

    writeFileSync(join(dir, 'ambiguous.csv'), 'Date;Ref;Amount;Currency\n01.02.2026;inv-77;12,50;GHS\n')
    const asked = await runCli(['reconcile', '--db', small, '--against', join(dir, 'ambiguous.csv'), '--out', join(dir, 'x.csv')])
    expect(asked.code).toBe(2)
    expect(asked.stderr).toMatch(/reads both as day\/month and as month\/day/)
    writeFileSync(join(dir, 'mapping.json'), '{"dateOrder":"sideways"}')
    const badMapping = await runCli([
      'reconcile',
      '--db',
      small,
      '--against',
      join(dir, 'ok.csv'),
      '--mapping',
      join(dir, 'mapping.json'),
      '--out',
      join(dir, 'x.csv')
    ])
    expect(badMapping).toMatchObject({ code: 2, stderr: expect.stringMatching(/--mapping .*mapping\.json: dateOrder: /) })
    // A line that cannot be read is an item of the session: exit 1, never "accounted for", until read by hand.
    writeFileSync(join(dir, 'bad-line.csv'), 'Date;Ref;Amount;Currency\n14.10.2026;inv-00;1,00;GHS\n10.31.2026;inv-77;12,50;GHS\n')
    const notRead = await runCli([
      'reconcile',
      '--db',
      small,
      '--against',
      join(dir, 'bad-line.csv'),
      '--from',
      '2026-10-13',
      '--to',
      '2026-10-14',
      '--out',
      join(dir, 'bad.csv'),
      '--json'
    ])
    expect(notRead.code).toBe(1)
    const badSummary = JSON.parse(notRead.stdout) as { sessionId: string; counts: Record<string, number>; notReadOpen: number }
    expect(badSummary).toMatchObject({ notReadOpen: 1, counts: expect.objectContaining({ not_read: 1, only_in_provider: 0 }) })
    const badRow = readExcelCsv(join(dir, 'bad.csv')).find((r) => r['outcome'] === 'not_read')
    // Its line and what was read of it; the day it did not read is left empty, not made up.
    expect(badRow).toMatchObject({ file_line: '3', file_date: '', file_amount: '12.50', provider_reference: 'INV-77' })
    const fixed = await runCli([
      'decide',
      '--db',
      small,
      '--session',
      badSummary.sessionId,
      '--item',
      badRow?.['item_key'] as string,
      'fix',
      '2026-10-13',
      '12.50',
      'GHS'
    ])
    expect(fixed).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(
        /^fix recorded\. matched: INV-77 GHS 12\.50, line 3 GHS 12\.50 \[item [0-9A-Z]{12}\]\. 1 item\(s\) left to review\.\n$/
      )
    })
    const badFix = await runCli(['decide', '--db', small, '--session', badSummary.sessionId, '--item', 'x', 'fix', '31/10/2026'])
    expect(badFix).toMatchObject({ code: 2, stderr: expect.stringMatching(/decide fix reads a line not read by hand: give its DAY/) })

    // An output whose folder is missing is refused before anything is read or stored.
    const sessions = (): number => {
      const db = new Database(small, { readonly: true })
      const n = (db.prepare('select count(*) as n from recon_sessions').get() as { n: number }).n
      db.close()
      return n
    }
    const before = sessions()
    for (const option of ['--out', '--summary', '--xlsx']) {
      const args = ['reconcile', '--db', small, '--against', join(dir, 'ok.csv'), '--out', join(dir, 'x.csv')]
      const noFolder = await runCli(
        option === '--out' ? [...args.slice(0, -2), '--out', join(dir, 'gone', 'x.csv')] : [...args, option, join(dir, 'gone', 'x')]
      )
      expect(noFolder).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(
          new RegExp(`^ledgerline: ${option}: the folder .*gone does not exist; create it first \\(nothing was done\\)\n$`)
        )
      })
    }
    expect(sessions()).toBe(before)
    // Commands that only read refuse a cache that is not there, and create nothing.
    const typo = join(dir, 'typo.sqlite')
    for (const args of [
      ['audit', 'verify'],
      ['search'],
      ['following'],
      ['decide', '--session', 's', '--item', 'k', 'accept'],
      ['close', '--session', 's']
    ]) {
      const refused = await runCli([...args, '--db', typo])
      expect(refused, args.join(' ')).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/^ledgerline: there is no cache at .*typo\.sqlite; check --db/)
      })
    }
    expect(existsSync(typo)).toBe(false)
    const missing = await runCli(['reconcile', '--db', small, '--against', join(dir, 'nope.csv'), '--out', join(dir, 'x.csv')])
    expect(missing).toMatchObject({ code: 2, stderr: 'ledgerline: cannot read ' + join(dir, 'nope.csv') + ': no such file\n' })
    writeFileSync(join(dir, 'mapping.json'), '{"dateOrder":"mdy"}')
    const answered = await runCli(['import', '--db', small, '--mapping', join(dir, 'mapping.json'), join(dir, 'ambiguous.csv')])
    expect(answered).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Imported ambiguous\.csv as file .*dates MM\/DD\/YYYY/) })
    // A statement without currencies: import names the currency of the payments it names, and --currency answers.
    writeFileSync(join(dir, 'no-currency.csv'), 'Date;Ref;Amount\n13.10.2026;inv-77;12,50\n')
    const noCurrency = await runCli(['import', '--db', small, '--preview', join(dir, 'no-currency.csv')])
    expect(noCurrency).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/names no currency .*\(defaultCurrency: GHS\)\n.*answer with --currency CUR/)
    })
    const withCurrency = await runCli(['import', '--db', small, '--preview', '--currency', 'GHS', join(dir, 'no-currency.csv')])
    expect(withCurrency).toMatchObject({ code: 0, stdout: expect.stringMatching(/^no-currency\.csv: 1 row,/) })
    // The preview says what the import will do: the rows as read, every line skipped and why, the balances, the lines not read.
    writeFileSync(
      join(dir, 'preview.csv'),
      'Bank of Tests\nOpening balance,100.00\nDate,Ref,Amount,Currency\n13/10/2026,inv-77,12.50,GHS\n10/31/2026,inv-78,1.00,GHS\nClosing balance,,113.50\n'
    )
    const preview = await runCli(['import', '--db', small, '--preview', join(dir, 'preview.csv')])
    expect(preview.code).toBe(1)
    expect(preview.stdout).toContain('First 1 row(s) as read:\n  line 4      2026-10-13               GHS 12.50  inv-77\n')
    expect(preview.stdout).toMatch(
      /Skipped, not transactions \(4\):\n  line 1 +above the header row\n  line 2 +opening balance \(above the header row\)\n  line 3 +header row\n  line 6 +closing balance line\n/
    )
    expect(preview.stdout).toMatch(/Balances: opening GHS 100\.00, closing GHS 113\.50\n/)
    expect(preview.stdout).toMatch(/The statement is not complete: .*1 line\(s\) not read\n/)
    expect(preview.stdout).toMatch(
      /Lines that will be not read \(1\), to read by hand or leave out in the session:\n  line 5 +.*10\/31\/2026.*\[10\/31\/2026,inv-78,1\.00,GHS\]/
    )

    // One edited audit row is found.
    const tamper = new Database(small)
    tamper.exec('DROP TRIGGER recon_events_append_only')
    tamper.prepare("update recon_events set payload = replace(payload, 'ok.csv', 'ok2.csv') where seq = 1").run()
    tamper.close()
    const audit = await runCli(['audit', 'verify', '--db', small])
    expect(audit.code).toBe(1)
    expect(audit.stdout).toMatch(/event 1: its content was changed after it was written \(session_created/)
  })

  it('refuses, with exit 2 and both sides named, a period that holds none of the lines, a currency the file contradicts, and its own report given back', async () => {
    const cache = join(dir, 'refusals.sqlite')
    openCache(cache).close()
    addPayment(cache, { reference: 'INV-90', currency: 'NGN', createdAt: '2026-10-13T10:00:00Z', timeZone: 'UTC' })
    const file = join(dir, 'refusals.csv')
    writeFileSync(
      file,
      'Currency;NGN;;\nOpening balance;0,00;;\nDate;Ref;Amount;Details\n13.10.2026;inv-90;12,50;card\nClosing balance;12,50;;\n'
    )
    const base = ['reconcile', '--db', cache, '--against', file, '--out', join(dir, 'refused.csv')]
    const sessions = (): number => {
      const read = new Database(cache, { readonly: true })
      const n = (read.prepare('select count(*) as n from recon_sessions').get() as { n: number }).n
      read.close()
      return n
    }
    const outside = await runCli([...base, '--from', '2020-01-01', '--to', '2020-01-31'])
    expect(outside).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /The period 2020-01-01 to 2020-01-31 holds none of the lines of refusals\.csv: they are dated 2026-10-13 to 2026-10-13\..*\[period_outside_statement\]/
      )
    })
    const reversed = await runCli([...base, '--from', '2026-10-31', '--to', '2026-10-01'])
    expect(reversed).toMatchObject({ code: 2, stderr: expect.stringMatching(/\[invalid_period\]/) })
    const currency = await runCli([...base, '--currency', 'GHS'])
    expect(currency).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/refusals\.csv states its currency is NGN \(in its header block\), not the GHS given/)
    })
    expect(sessions()).toBe(0)
    // Its own report, given back as a statement, is refused as what it is.
    const ok = await runCli([...base.slice(0, -1), join(dir, 'own-report.csv')])
    expect(ok.code).toBe(0)
    const own = await runCli([
      'reconcile',
      '--db',
      cache,
      '--against',
      join(dir, 'own-report.csv'),
      '--currency',
      'NGN',
      '--out',
      join(dir, 'x.csv')
    ])
    expect(own).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /own-report\.csv is one of Ledgerline's own reconciliation reports \(its items or its summary\), not a bank statement/
      )
    })
  })
})

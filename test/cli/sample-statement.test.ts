// The Sandbox's sample statement: written by the CLI for the Sandbox's own data, it reconciles against a synced Sandbox profile with exactly the differences it says it holds.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxSeed } from '../../src/sandbox/seed'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import { sampleStatement, type SampleDifference } from '../../src/sandbox/statement'
import { bankReconciliations } from '../../src/shared/bank-reconciliation'
import type { ReconSummary } from '../../src/shared/reconcile'
import { runCli } from '../support/cli'
import { readExcelCsv } from '../support/excel-csv'
import { CORPUS_PASSWORD, corpusPdf } from '../support/pdf-corpus'
import { lineWhere } from '../../src/shared/reconcile'

let sandbox: Sandbox
let dir: string
let db: string
const ZONE = 'Africa/Lagos'

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimits: false })
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-sample-'))
  db = join(dir, 'cache.sqlite')
  const sync = await runCli(['sync', '--base-url', sandbox.baseUrl, '--resources', 'payments', '--no-pacing', '--db', db], {
    LEDGERLINE_API_KEY: sandbox.keys.test,
    TZ: ZONE
  })
  if (sync.code !== 0) throw new Error(sync.stderr)
})
afterAll(() => sandbox.close())

describe('ledgerline sandbox statement', { timeout: 120_000 }, () => {
  it('writes a statement whose reconciliation shows exactly the differences it lists', async () => {
    const out = join(dir, 'statement.csv')
    const wrote = await runCli(['sandbox', 'statement', '--out', out, '--json'], { TZ: ZONE })
    expect(wrote.stderr).toBe('')
    expect(wrote.code).toBe(0)
    const told = JSON.parse(wrote.stdout) as { day: string; lines: number; differences: SampleDifference[]; timeZone: string }
    expect(told.timeZone).toBe(ZONE)
    expect(told.differences.map((d) => d.kind).sort()).toEqual([
      'amount-off',
      'bank-charge',
      'duplicate',
      'missing',
      'no-reference',
      'settlement'
    ])

    const run = await runCli(
      // No flags: the engine finds that the credits are net of fees itself.
      ['reconcile', '--db', db, '--source', 'payments', '--against', out, '--out', join(dir, 'report.csv'), '--json'],
      { TZ: ZONE }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(1)
    const summary = JSON.parse(run.stdout) as ReconSummary
    expect(summary.period).toMatchObject({ from: told.day, to: told.day, timeZone: ZONE })
    // The bank reconciliation statement foots: from the opening balance to the closing balance, nothing left.
    expect(bankReconciliations(summary).map((r) => [r.currency, r.differenceMinor])).toEqual([['NGN', 0]])
    // Exactly its six differences to review; pending payments are kept apart, reversed ones left out.
    expect(summary.exceptions).toBe(6)
    expect(summary.counts.pending_at_provider).toBeGreaterThan(0)
    // The statement proves itself: its opening balance, every running balance and its closing balance tie.
    expect(summary.statements).toEqual([
      expect.objectContaining({
        file: 'statement.csv',
        account: '0123456789',
        currency: 'NGN',
        opening: '1000000.00',
        linesRead: told.lines,
        notRead: [],
        balanceBreaks: [],
        complete: true
      })
    ])
    const report = readExcelCsv(join(dir, 'report.csv'))
    const byReference = (reference: string): Record<string, string>[] =>
      report.filter((r) => (r['provider_reference'] ?? '').split(' + ').includes(reference))
    const of = (kind: SampleDifference['kind']): SampleDifference => told.differences.find((d) => d.kind === kind) as SampleDifference

    expect(byReference(of('missing').references[0] as string).map((r) => r['outcome'])).toEqual(['only_in_provider'])
    expect(byReference(of('amount-off').references[0] as string).map((r) => r['outcome'])).toEqual(['amount_differs'])
    expect(byReference(of('no-reference').references[0] as string)).toEqual([
      expect.objectContaining({ outcome: 'suggested', file_reference: '' })
    ])
    const settlement = of('settlement')
    const group = byReference(settlement.references[0] as string)
    expect(group.map((r) => r['outcome'])).toEqual(['suggested'])
    expect(group[0]?.['provider_reference']?.split(' + ').sort()).toEqual([...settlement.references].sort())
    const duplicates = report.filter((r) => r['outcome'] === 'duplicate_in_file')
    expect(duplicates).toHaveLength(1)
    expect(duplicates[0]?.['file_reference']?.replace(/[^A-Z0-9]/gi, '').toUpperCase()).toBe(
      of('duplicate').references[0]?.replace(/-/g, '')
    )
    expect(report.filter((r) => r['outcome'] === 'only_in_file')).toEqual([
      expect.objectContaining({ file_description: 'SMS ALERT CHARGES', file_amount: '-52.50' })
    ])
    // Nothing else is off: every other line of the statement is matched, nothing is ambiguous.
    const fileLines = told.lines
    const matchedLines = report.filter((r) => r['outcome'] === 'matched').length
    expect(summary.counts['ambiguous'] ?? 0).toBe(0)
    expect(summary.counts['currency_differs'] ?? 0).toBe(0)
    expect(matchedLines).toBe(fileLines - 1 /* short */ - 1 /* no reference */ - 1 /* settlement */ - 1 /* twice */ - 1 /* charge */)

    // The CLI finishes the job: the suggestions accepted, the rest resolved with a reason, the session closed.
    const session = ['--db', db, '--session', summary.sessionId]
    for (const row of report.filter((r) => r['outcome'] !== 'matched' && r['outcome'] !== 'pending_at_provider')) {
      const decided =
        row['outcome'] === 'suggested'
          ? await runCli(['decide', ...session, '--item', row['item_key'] as string, 'accept'])
          : await runCli(['decide', ...session, '--item', row['item_key'] as string, 'resolve', '--reason', 'investigated'])
      expect(decided.code, decided.stderr).toBe(0)
      expect(decided.stdout).toMatch(/recorded\. .* item\(s\) left to review\.\n$/)
    }
    // The pack's folder is checked before the session is closed.
    const nowhere = await runCli(['close', ...session, '--evidence', join(dir, 'gone', 'pack.zip')])
    expect(nowhere).toMatchObject({ code: 2, stderr: expect.stringMatching(/--evidence: the folder .*gone does not exist/) })
    const closed = await runCli(['close', ...session, '--evidence', join(dir, 'pack.zip')])
    expect(closed.code, closed.stderr).toBe(0)
    expect(closed.stdout).toMatch(/read-only until reopened\. 0 item\(s\) left to review\./)
    const head = /Its audit trail ends in ([0-9a-f]{64})/.exec(closed.stdout)?.[1]
    expect(head).toBeDefined()
    const verified = await runCli(['audit', 'verify', '--evidence', join(dir, 'pack.zip')])
    expect(verified).toMatchObject({ code: 0, stdout: expect.stringContaining(`its audit trail ends in ${head}`) })
    // Closed already (as after a close stopped before its pack): --evidence writes that close's pack and changes nothing.
    const again = await runCli(['close', ...session, '--evidence', join(dir, 'pack-again.zip')])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toMatch(/was already closed \(.* by .*\); nothing changed\.\nEvidence pack: .*pack-again\.zip/)
    expect(/Its audit trail ends in ([0-9a-f]{64})/.exec(again.stdout)?.[1]).toBe(head)
    expect((await runCli(['close', ...session])).code).toBe(2)
    const refused = await runCli(['decide', ...session, '--item', report[0]?.['item_key'] as string, 'note', 'too late'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/closed/)
    const noReason = await runCli(['reopen', ...session])
    expect(noReason).toMatchObject({ code: 2, stderr: expect.stringMatching(/reopen needs --reason TEXT/) })
    expect((await runCli(['reopen', ...session, '--reason', 'bank corrected a line'])).code).toBe(0)
  })

  it.each(['xls', 'pdf', 'mt940', 'camt053'] as const)(
    'writes the sample as %s, which reconciles with the same six differences and proves itself',
    async (format) => {
      const out = join(dir, `statement.${format}`)
      const wrote = await runCli(['sandbox', 'statement', '--format', format, '--out', out, '--json'], { TZ: ZONE })
      expect(wrote.code, wrote.stderr).toBe(0)
      const told = JSON.parse(wrote.stdout) as { format: string; lines: number; differences: SampleDifference[]; pageStarts?: number[] }
      expect(told.format).toBe(format)
      const run = await runCli(
        ['reconcile', '--db', db, '--source', 'payments', '--against', out, '--out', join(dir, `report-${format}.csv`), '--json'],
        { TZ: ZONE }
      )
      expect(run.stderr).toBe('')
      const summary = JSON.parse(run.stdout) as ReconSummary
      expect(summary.exceptions).toBe(6)
      expect(summary.statements).toEqual([expect.objectContaining({ account: '0123456789', linesRead: told.lines, complete: true })])
      // Each difference is on the line of this file the CLI named.
      const report = readExcelCsv(join(dir, `report-${format}.csv`))
      const charge = told.differences.find((d) => d.kind === 'bank-charge') as SampleDifference
      expect(report.filter((r) => r['outcome'] === 'only_in_file').map((r) => r['file_line'])).toEqual([
        format === 'pdf' ? lineWhere(charge.line as number, told.pageStarts) : String(charge.line)
      ])
    }
  )

  it('opens a protected PDF with --password-file, refuses it without (exit 2), and never prints the password', async () => {
    const pdf = corpusPdf({ password: CORPUS_PASSWORD })
    const file = join(dir, 'protected.pdf')
    writeFileSync(file, pdf.bytes)
    const without = await runCli(['import', '--db', db, '--preview', file])
    expect(without.code).toBe(2)
    expect(without.stderr).toMatch(/protected\.pdf is protected by a password.*\[pdf_password_required\]/)
    const wrongFile = join(dir, 'wrong.txt')
    writeFileSync(wrongFile, 'Ledger-2025!\n')
    const wrong = await runCli(['import', '--db', db, '--preview', '--password-file', wrongFile, file])
    expect(wrong).toMatchObject({ code: 2, stderr: expect.stringMatching(/not right.*\[pdf_password_wrong\]/) })
    const passwordFile = join(dir, 'password.txt')
    writeFileSync(passwordFile, `${CORPUS_PASSWORD}\r\n`)
    const opened = await runCli(['import', '--db', db, '--preview', '--password-file', passwordFile, file])
    expect(opened.code, opened.stderr).toBe(0)
    expect(opened.stdout).toMatch(/The statement is complete/)
    expect(opened.stdout).toMatch(/page 2, line 2 +column headers repeated \(page 2\)/)
    for (const out of [without, wrong, opened]) expect(out.stdout + out.stderr).not.toContain(CORPUS_PASSWORD)
    const missing = await runCli(['import', '--db', db, '--password-file', join(dir, 'nope.txt'), file])
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/cannot read the password file .*nope\.txt: no such file/) })
  })

  it('refuses a file that is no statement with one line naming what it is (exit 2), and imports one account of several', async () => {
    const png = join(dir, 'statement.csv.png')
    writeFileSync(png, Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex'))
    const refused = await runCli(['import', '--db', db, png])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^ledgerline: statement\.csv\.png is a PNG image.*Export the statement .* \[not_a_statement\]\n$/)
    const sta = join(import.meta.dirname, '../fixtures/statements/two-accounts-pages.sta')
    const preview = await runCli(['import', '--db', db, '--preview', sta])
    expect(preview.code, preview.stderr).toBe(0)
    expect(preview.stdout).toMatch(/holds 2 statements/)
    expect(preview.stdout).toMatch(/== account GH0099887766 GHS, 2026-03-01 to 2026-03-01 ==/)
    const one = await runCli(['import', '--db', db, '--account', 'GH0099887766', '--json', sta])
    expect(one.code, one.stderr).toBe(0)
    expect(JSON.parse(one.stdout)).toMatchObject({
      status: 'imported',
      format: 'mt940',
      account: 'GH0099887766',
      rows: 1,
      fileIds: [expect.any(String)]
    })
    const none = await runCli(['import', '--db', db, '--account', '42', sta])
    expect(none).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/holds no statement of account 42; it holds: 0123456789, GH0099887766/)
    })
  })

  it('is the same for the same seed, and explains what it cannot do', async () => {
    const a = sampleStatement(sandboxSeed(), { timeZone: ZONE })
    expect(sampleStatement(sandboxSeed(), { timeZone: ZONE }).csv).toBe(a.csv)
    expect(sampleStatement(sandboxSeed({ seed: 7 }), { timeZone: ZONE }).csv).not.toBe(a.csv)
    expect(() => sampleStatement(sandboxSeed(), { timeZone: 'Mars/Olympus' })).toThrow(/Unknown time zone "Mars\/Olympus"/)
    expect(() => sampleStatement(sandboxSeed({ payments: 5 }), { timeZone: ZONE })).toThrow(
      /too few NGN payments on 2026-1\d-\d\d for a sample statement|no successful NGN payments/
    )
    const usage = await runCli(['sandbox', 'statement'])
    expect(usage).toMatchObject({ code: 2, stderr: 'ledgerline: sandbox statement needs --out FILE\n' })
  })
})

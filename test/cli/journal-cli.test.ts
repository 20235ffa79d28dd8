// The journal from the CLI: refused for a session not closed; from a closed one, in every ledger's format, balanced entry by entry, with the profile's account map once set, and its fees and charges the figures the summary CSV states.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Papa from 'papaparse'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseMajor } from '../../src/shared/money'
import { runCli } from '../support/cli'
import { readExcelCsv } from '../support/excel-csv'
import { cacheWithPayments, monthStatement } from '../support/month-statements'
import { HANG_LIMIT_MS } from '../support/wait'

let dir: string
let cache: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-journal-'))
  cache = join(dir, 'cache.sqlite')
  cacheWithPayments(cache, [
    ['id-a', 'INV-A', 100, 'successful', '2026-10-13T10:00:00Z', 1.5],
    ['id-b', 'INV-B', 200, 'successful', '2026-10-14T10:00:00Z', 3]
  ])
})

describe('the journal from the CLI', { timeout: HANG_LIMIT_MS }, () => {
  it('books a closed session’s fees and charges in each ledger’s format, balanced, with the map’s codes, tied to the summary', async () => {
    const statement = monthStatement(
      dir,
      'oct.csv',
      '1000.00',
      [
        ['2026-10-13', 'INV-A', '98.50'],
        ['2026-10-14', 'INV-B', '197.00'],
        ['2026-10-20', '', '-4.00'],
        ['2026-10-21', 'VAT ON SMS', '-0.30'],
        ['2026-10-22', 'STAMP DUTY', '-50.00'],
        ['2026-10-23', 'TRF TO SUPPLIER', '-10.00']
      ],
      '1231.20'
    )
    const summaryFile = join(dir, 'summary.csv')
    const run = await runCli([
      'reconcile',
      '--db',
      cache,
      '--against',
      statement,
      '--from',
      '2026-10-01',
      '--to',
      '2026-10-31',
      '--out',
      join(dir, 'items.csv'),
      '--summary',
      summaryFile
    ])
    expect([0, 1], run.stderr).toContain(run.code)
    const id = /\(session ([0-9a-f-]+)\)/.exec(run.stdout)?.[1] as string
    const journal = (format: string, out = join(dir, `journal.${format}.csv`)) =>
      runCli(['journal', '--db', cache, '--session', id, '--format', format, '--out', out])

    const open = await journal('xero')
    expect(open).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'Close the session "oct.csv against payments, 2026-10-01 to 2026-10-31" first: a journal books what was signed off. [session_open]'
      )
    })
    expect((await runCli(['close', '--db', cache, '--session', id])).code).toBe(0)

    const words = await journal('csv')
    expect(words.code, words.stderr).toBe(0)
    expect(words.stdout).toContain("The provider's fees on matched records: NGN 4.50 (ties to the summary)")
    expect(words.stdout).toContain('Bank charges on the statement: NGN 4.00')
    expect(words.stdout).toContain('VAT on bank charges on the statement: NGN 0.30')
    expect(words.stdout).toContain('Stamp duty on the statement: NGN 50.00')
    expect(words.stdout).toContain("NOTE: 1 debit line(s) only in the file do not read as the bank's charges")
    expect(words.stdout).toContain('NOTE: the profile has no account map yet')

    const map = await runCli([
      'journal',
      'map',
      '--db',
      cache,
      '--profile',
      'Books',
      '--set',
      'fees=6100',
      '--set',
      'bank=1010',
      '--set',
      'clearing=1150',
      '--set',
      'bank_charges=6110',
      '--set',
      'vat=2200',
      '--set',
      'stamp_duty=6120',
      '--tax-rate',
      'No VAT'
    ])
    expect(map.code, map.stderr).toBe(0)
    expect(map.stdout).toMatch(/fees +6100 +The provider's fees \(expense\)/)
    const wrong = await runCli(['journal', 'map', '--db', cache, '--profile', 'Books', '--set', 'feez=1'])
    expect(wrong).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('The account map has no "feez": its accounts are fees, bank_charges')
    })

    // The summary CSV's own figures: the fees on matched records and each kind of charge.
    const summary = readExcelCsv(summaryFile)
    const stated = (label: string): number =>
      parseMajor(summary.find((r) => r.section === 'bank_reconciliation' && r.name === label)?.difference ?? 'NaN', 'NGN')
    expect(stated("The provider's fees on matched records (to book as fee expense)")).toBe(450)
    expect(stated('Bank charges among the lines only in the file (to book)')).toBe(400)
    expect(stated('VAT on bank charges among the lines only in the file (to book)')).toBe(30)
    expect(stated('Stamp duty among the lines only in the file (to book)')).toBe(5000)

    for (const format of ['xero', 'qbo', 'zoho', 'sage', 'csv']) {
      const out = await journal(format)
      expect(out.code, `${format}: ${out.stderr}`).toBe(0)
      expect(out.stdout).not.toContain('no account map yet')
      const rows = Papa.parse<Record<string, string>>(readFileSync(join(dir, `journal.${format}.csv`), 'utf8'), {
        header: true,
        skipEmptyLines: true
      }).data
      const codes = new Set(rows.map((r) => r['*AccountCode'] ?? r['Account Name'] ?? r.Account ?? r['Ledger Account'] ?? r.account_code))
      expect([...codes].sort(), format).toEqual(['1010', '1150', '2200', '6100', '6110', '6120'])
      const signed = rows.map((r) =>
        r['*Amount'] !== undefined
          ? parseMajor(r['*Amount'], 'NGN')
          : parseMajor(r.Debits || r.Debit || r.debit || '0', 'NGN') - parseMajor(r.Credits || r.Credit || r.credit || '0', 'NGN')
      )
      // Balanced, and the debits to the fee account are the summary's fees.
      expect(
        signed.reduce((s, v) => s + v, 0),
        format
      ).toBe(0)
      const feeRows = rows.filter((r) => Object.values(r).includes('6100'))
      expect(
        feeRows.reduce((s, r) => s + signed[rows.indexOf(r)]!, 0),
        format
      ).toBe(450)
    }
    expect(readFileSync(join(dir, 'journal.xero.csv'), 'utf8')).toContain(',31/10/2026,')
    expect(readFileSync(join(dir, 'journal.xero.csv'), 'utf8')).toContain(',No VAT,')
  })
})

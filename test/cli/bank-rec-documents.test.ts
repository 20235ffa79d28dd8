// The documents an auditor files, read back as an auditor's tools read them: the bank reconciliation statement as a PDF, the workbook laid out for people and the summary CSV carry the same figures, line for line; the workbook's headings are bold, its item sheets frozen and filtered, its numbers numbers and its outcomes words (the codes and ids last); the evidence pack files the PDF too.
import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { readPdfText } from '../../src/main/reconcile/import/pdf'
import { moneyText, parseMajor } from '../../src/shared/money'
import { runCli } from '../support/cli'
import { readExcelCsv } from '../support/excel-csv'
import { cacheWithPayments, monthStatement } from '../support/month-statements'
import { HANG_LIMIT_MS } from '../support/wait'

let dir: string
let cache: string
let session: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-documents-'))
  cache = join(dir, 'cache.sqlite')
  cacheWithPayments(cache, [
    ['id-a', 'INV-A', 1250, 'successful', '2026-10-13T10:00:00Z', 18.75],
    ['id-b', 'INV-B', 3000, 'successful', '2026-10-20T10:00:00Z', 45],
    ['id-p', 'INV-P', 500, 'pending', '2026-10-22T10:00:00Z', 7.5],
    ['id-q', 'INV-Q', 800, 'successful', '2026-10-25T10:00:00Z', 12],
    ['id-n', 'INV-N', 10, 'successful', '2026-11-03T10:00:00Z'],
    ['id-m', 'INV-M', 25, 'successful', '2026-11-05T10:00:00Z']
  ])
  const statement = monthStatement(
    dir,
    'october.csv',
    '100000.00',
    [
      ['2026-10-13', 'INV-A', '1250.00'],
      ['2026-10-21', 'INV-B', '3000.00'],
      ['2026-10-28', '', '-52.50']
    ],
    '104197.50'
  )
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
    join(dir, 'first.csv')
  ])
  expect([0, 1], run.stderr).toContain(run.code)
  session = /\(session ([0-9a-f-]+)\)/.exec(run.stdout)?.[1] as string
  const close = await runCli(['close', '--db', cache, '--session', session, '--evidence', join(dir, 'pack.zip')])
  expect(close.code, close.stderr).toBe(0)
  const report = await runCli([
    'report',
    '--db',
    cache,
    '--session',
    session,
    '--summary',
    join(dir, 'summary.csv'),
    '--xlsx',
    join(dir, 'report.xlsx'),
    '--pdf',
    join(dir, 'statement.pdf')
  ])
  expect([0, 1], report.stderr).toContain(report.code)
  expect(report.stdout).toContain(`bank reconciliation statement: ${join(dir, 'statement.pdf')}`)
}, HANG_LIMIT_MS)

/** The summary's bank reconciliation lines: label, currency, count and amount as the CSV states them. */
const bankRecRows = (): { label: string; currency: string; count: string; amount: string }[] =>
  readExcelCsv(join(dir, 'summary.csv'))
    .filter((r) => r.section === 'bank_reconciliation')
    .map((r) => ({ label: r.name as string, currency: r.currency as string, count: r.count as string, amount: r.difference as string }))

/** Every line of a PDF as its text reads left to right. */
async function pdfLines(bytes: Uint8Array): Promise<string[]> {
  const text = await readPdfText(bytes, 'statement.pdf')
  return text.lines.map((l) =>
    l.pieces
      .map((p) => p.text)
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim()
  )
}

/** A cell's figure: a formula's cached result, else its value (ExcelJS reads a cached 0 as no result; the file's own <v> is checked apart). */
const figure = (cell: ExcelJS.Cell | undefined): unknown => {
  const value = cell?.value
  return value !== null && typeof value === 'object' && 'formula' in value ? (value.result ?? 0) : value
}

async function workbook(): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.readFile(join(dir, 'report.xlsx'))
  return book
}

describe('the documents an auditor files', { timeout: HANG_LIMIT_MS }, () => {
  it('carries the summary CSV figures line for line in the PDF and the workbook', async () => {
    const rows = bankRecRows()
    // Opening, the provider's records, classes, the total, the stated closing, the difference, memos: at least these.
    expect(rows.map((r) => r.label)).toEqual(
      expect.arrayContaining([
        'Statement opening balance',
        'Closing balance as the lines add up',
        'Statement closing balance, as stated',
        'Difference left'
      ])
    )
    expect(rows.some((r) => r.label.startsWith('Only at the provider'))).toBe(true)
    const lines = await pdfLines(readFileSync(join(dir, 'statement.pdf')))
    const sheet = (await workbook()).getWorksheet('Reconciliation') as ExcelJS.Worksheet
    const sheetRows = new Map<string, ExcelJS.Row>()
    sheet.eachRow((row) => sheetRows.set(String(row.getCell(1).value ?? ''), row))
    for (const r of rows) {
      const money = r.amount === '' ? '' : moneyText(parseMajor(r.amount, r.currency), r.currency)
      // The PDF: the label's first words begin a line that ends in the count and the amount.
      const shown = lines.find((l) => l.startsWith(r.label.slice(0, 28)) && (money === '' || l.endsWith(money)))
      expect(shown, `${r.label} ${money} in the PDF`).toBeDefined()
      if (r.count !== '') expect(shown).toContain(` ${Number(r.count).toLocaleString('en-US')} `)
      // The workbook: the same label, the count and the amount as numbers.
      const row = sheetRows.get(r.label)
      expect(row, `${r.label} in the workbook`).toBeDefined()
      if (r.count !== '') expect(row?.getCell(2).value).toBe(Number(r.count))
      if (r.amount !== '') expect(figure(row?.getCell(3))).toBe(Number(r.amount))
    }
    // The fee expense to book: the same figure in all three.
    const fees = readExcelCsv(join(dir, 'summary.csv')).find((r) => r.section === 'fees' && r.name === 'matched')
    expect(fees?.difference).toBe('63.75')
    expect(lines.some((l) => l.startsWith("The provider's fees on matched records") && l.endsWith('NGN 63.75'))).toBe(true)
    expect(sheetRows.get("The provider's fees on matched records (to book as fee expense)")?.getCell(3).value).toBe(63.75)
    // The fees on every record of the period, whatever its class: the pending payment's too, and all of them together.
    expect(readExcelCsv(join(dir, 'summary.csv')).find((r) => r.section === 'fees' && r.name === 'pending_at_provider')?.difference).toBe(
      '7.50'
    )
    const all = rows.find((r) => r.label.startsWith("The provider's fees on all its records"))
    expect(all?.amount).toBe('83.25')
    // The sheet adds up as it is read: the closing the lines make is a SUM of the lines above it, the difference the stated closing less it.
    const made = sheetRows.get('Closing balance as the lines add up')?.getCell(3).value as ExcelJS.CellFormulaValue
    expect(made.formula).toMatch(/^SUM\(C\d+:C\d+\)$/)
    const difference = sheetRows.get('Difference left')?.getCell(3).value as ExcelJS.CellFormulaValue
    expect(difference.formula).toMatch(/^C\d+-C\d+$/)
    // Every formula carries its figure, for a reader that does not calculate.
    const xml = await (await JSZip.loadAsync(readFileSync(join(dir, 'report.xlsx')))).file('xl/worksheets/sheet1.xml')?.async('string')
    expect(xml?.match(/<f>[^<]*<\/f>/g)?.length).toBe(2)
    expect(xml).not.toMatch(/<f>[^<]*<\/f>(?!<v>-?\d)/)
  })

  it("lists each class's items in a schedule that adds up to the class, in the PDF and the workbook", async () => {
    const rows = bankRecRows()
    const lines = await pdfLines(readFileSync(join(dir, 'statement.pdf')))
    const at = lines.indexOf('Schedule of reconciling items')
    expect(at).toBeGreaterThan(0)
    const schedule = lines.slice(at)
    // The payment never on the statement, the bank's charge and the payment a day late in arriving are each a row with its amount.
    expect(schedule.some((l) => l.includes('INV-Q') && l.endsWith('-NGN 800.00'))).toBe(true)
    expect(schedule.some((l) => l.includes('INV-P') && l.includes('open'))).toBe(true)
    expect(schedule.some((l) => /line \d+ of october\.csv/.test(l) && l.endsWith('-NGN 52.50'))).toBe(true)
    const sheet = (await workbook()).getWorksheet('Reconciling items') as ExcelJS.Worksheet
    const byClass = new Map<string, number>()
    sheet.eachRow((row, n) => {
      if (n > 1) byClass.set(String(row.getCell(2).value), (byClass.get(String(row.getCell(2).value)) ?? 0) + Number(row.getCell(10).value))
    })
    expect(byClass.size).toBeGreaterThan(1)
    // Each class's rows add up to its line of the reconciliation (matched items with no difference are not listed).
    for (const [label, total] of byClass) {
      const line = rows.find((r) => r.label === label)
      expect(line, label).toBeDefined()
      expect(Math.round(total * 100)).toBe(Math.round(Number(line?.amount) * 100))
    }
  })

  it('puts in the PDF the entity, account, period, each statement’s proof, the files with their SHA-256 and the sign-off', async () => {
    const summary = readExcelCsv(join(dir, 'summary.csv'))
    const text = (await pdfLines(readFileSync(join(dir, 'statement.pdf')))).join('\n')
    expect(text).toContain('Bank reconciliation statement')
    expect(text).toMatch(/Entity Books \(live mode\)/)
    expect(text).toContain('account 0123456789 (NGN)')
    expect(text).toContain('2026-10-01 to 2026-10-31')
    expect(text).toMatch(/Opening NGN 100,000\.00; closing NGN 104,197\.50/)
    for (const f of summary.filter((r) => r.section === 'file')) expect(text).toContain(`SHA-256 ${f.value}`)
    expect(text).toMatch(/Prepared by \S+/)
    expect(text).toMatch(/Reviewed by _+ Date _+/)
    expect(text).toMatch(/Audit trail up to the close: \d+ events/)
    expect(text).not.toContain('DRAFT')
    expect(text).toContain(summary.find((r) => r.name === 'verdict')?.value as string)
  })

  it('lays the workbook out for people: bold headings, frozen and filtered item sheets, numbers as numbers, outcomes in words and the ids last', async () => {
    const book = await workbook()
    expect(book.worksheets.map((s) => s.name)).toEqual(['Reconciliation', 'Reconciling items', 'Summary', 'Items'])
    const reconciliation = book.getWorksheet('Reconciliation') as ExcelJS.Worksheet
    expect(reconciliation.getCell('A1').font?.bold).toBe(true)
    expect(reconciliation.getColumn(1).width).toBeGreaterThan(40)
    for (const name of ['Reconciling items', 'Summary', 'Items']) {
      const sheet = book.getWorksheet(name) as ExcelJS.Worksheet
      // Printed fitted to the page's width, with the heading row on every page.
      expect(sheet.pageSetup, name).toMatchObject({ fitToPage: true, fitToWidth: 1, printTitlesRow: '1:1' })
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
      expect(sheet.autoFilter, name).toBeTruthy()
      expect(sheet.getRow(1).getCell(1).font?.bold, name).toBe(true)
      expect(sheet.getColumn(2).width, name).toBeGreaterThan(8)
    }
    const items = book.getWorksheet('Items') as ExcelJS.Worksheet
    const headings = (items.getRow(1).values as string[]).slice(1)
    expect(headings[0]).toBe('Outcome')
    // What software keys on comes last: the outcome's code, the item key, the record and row ids.
    expect(headings.slice(-4)).toEqual(['Outcome code', 'Item key', 'Provider record ids', 'Statement row ids'])
    const column = (heading: string): number => headings.indexOf(heading) + 1
    const charge = items.getRows(2, items.rowCount - 1)?.find((r) => r.getCell(column('Outcome code')).value === 'only_in_file')
    expect(charge?.getCell(column('Outcome')).value).toBe('Only in the file')
    expect(charge?.getCell(column('Line')).value).toBe(7)
    expect(charge?.getCell(column('Statement amount')).value).toBe(-52.5)
    const summary = book.getWorksheet('Summary') as ExcelJS.Worksheet
    const open = summary.getRows(2, summary.rowCount - 1)?.find((r) => r.getCell(2).value === 'exceptions_open')
    expect(typeof open?.getCell(9).value).toBe('number')
  })

  it('files the PDF in the evidence pack, bound by the close like its other files', async () => {
    const zip = await JSZip.loadAsync(readFileSync(join(dir, 'pack.zip')))
    const pdf = await zip.file('bank-reconciliation.pdf')?.async('uint8array')
    expect(pdf).toBeDefined()
    const lines = await pdfLines(pdf as Uint8Array)
    expect(lines.some((l) => l.startsWith('Difference left'))).toBe(true)
    // The pack's statement (written as the session closed) and one written after the close name the same trail, the one the close binds, and its last hash.
    const trail = (text: string[]): string => {
      const at = text.findIndex((l) => l.startsWith('Audit trail up to the close:'))
      return `${text[at]?.slice(0, 50)} ${text.slice(at + 1).find((l) => /^[0-9a-f]{64}$/.test(l))}`
    }
    expect(trail(lines)).toMatch(/^Audit trail up to the close: \d+ events, .* [0-9a-f]{64}$/)
    expect(trail(await pdfLines(readFileSync(join(dir, 'statement.pdf'))))).toBe(trail(lines))
    const verify = await runCli(['audit', 'verify', '--evidence', join(dir, 'pack.zip')])
    expect(verify.code, verify.stdout + verify.stderr).toBe(0)
    // Written again from the closed session, the pack is the same files (the PDF included) byte for byte.
    const again = await runCli(['close', '--db', cache, '--session', session, '--evidence', join(dir, 'again.zip')])
    expect(again.code, again.stderr).toBe(0)
    const second = await JSZip.loadAsync(readFileSync(join(dir, 'again.zip')))
    expect(await second.file('bank-reconciliation.pdf')?.async('base64')).toBe(await zip.file('bank-reconciliation.pdf')?.async('base64'))
  })

  it('writes the reports people read in the locale asked for, keeps ISO days in the CSVs, and writes a pack again in the locale of its close', async () => {
    const statement = monthStatement(dir, 'november.csv', '104197.50', [['2026-11-03', 'INV-N', '10.00']], '104207.50')
    const nigeria = { LEDGERLINE_LOCALE: 'en-NG' }
    const run = await runCli(
      [
        'reconcile',
        '--db',
        cache,
        '--against',
        statement,
        '--from',
        '2026-11-01',
        '--to',
        '2026-11-30',
        '--out',
        join(dir, 'nov.csv'),
        '--summary',
        join(dir, 'nov-summary.csv')
      ],
      nigeria
    )
    expect([0, 1], run.stderr).toContain(run.code)
    const november = /\(session ([0-9a-f-]+)\)/.exec(run.stdout)?.[1] as string
    // The CLI says its days as the user writes them; the files for software keep ISO days.
    expect(run.stdout).toContain('01/11/2026 to 30/11/2026')
    expect(run.stdout).not.toMatch(/(?<![\w-])2026-11-01(?![\w-])/)
    const facts = readExcelCsv(join(dir, 'nov-summary.csv'))
    expect(facts.find((r) => r.name === 'period_from')?.value).toBe('2026-11-01')
    expect(readExcelCsv(join(dir, 'nov.csv')).find((r) => r.provider_reference === 'INV-M')?.provider_date).toBe('2026-11-05')

    const closed = await runCli(['close', '--db', cache, '--session', november, '--evidence', join(dir, 'nov-pack.zip')], nigeria)
    expect(closed.code, closed.stderr).toBe(0)
    const packed = async (name: string): Promise<Uint8Array> =>
      (await (await JSZip.loadAsync(readFileSync(join(dir, name)))).file('bank-reconciliation.pdf')?.async('uint8array')) as Uint8Array
    const first = await packed('nov-pack.zip')
    const text = (await pdfLines(first)).join('\n')
    expect(text).toContain('Period 01/11/2026 to 30/11/2026 (UTC)')
    expect(text).toMatch(/Status Closed \d\d\/\d\d\/\d{4}, \d\d:\d\d \(UTC\) by /)
    // Written again by someone in another locale: the pack of that close, byte for byte, still in its close's locale.
    const again = await runCli(['close', '--db', cache, '--session', november, '--evidence', join(dir, 'nov-again.zip')], {
      LEDGERLINE_LOCALE: 'en-US'
    })
    expect(again.code, again.stderr).toBe(0)
    expect(Buffer.from(await packed('nov-again.zip')).equals(Buffer.from(first))).toBe(true)
    // A report written now follows the locale asked for now.
    const us = await runCli(['report', '--db', cache, '--session', november, '--pdf', join(dir, 'nov-us.pdf')], {
      LEDGERLINE_LOCALE: 'en-US'
    })
    expect(us.code, us.stderr).not.toBe(2)
    expect((await pdfLines(readFileSync(join(dir, 'nov-us.pdf')))).join('\n')).toContain('Period 11/01/2026 to 11/30/2026 (UTC)')
  })
})

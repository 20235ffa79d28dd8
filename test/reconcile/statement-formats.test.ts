// Statements as banks deliver them: the format known by content, every statement of a file, MT940/CAMT/OFX/QIF quirks, XLS and every sheet, the sample in each format proving itself, and any bytes or cut file giving a clear message.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AppError } from '../../src/main/errors'
import { parseStatementFile } from '../../src/main/reconcile/import/statement'
import { sniffStatement } from '../../src/main/reconcile/import/sniff'
import { sampleStatement } from '../../src/main/sandbox/statement'
import { sampleStatementFile } from '../../src/main/sandbox/statement-formats'
import { sandboxSeed } from '../../src/main/sandbox/seed'
import { SAMPLE_FORMATS } from '../../src/shared/reconcile'

const CORPUS = join(import.meta.dirname, '../fixtures/statements')
const read = (name: string): Buffer => readFileSync(join(CORPUS, name))

describe('what a file is, by its content', () => {
  const refused = (bytes: Uint8Array, name: string): string => {
    try {
      sniffStatement(bytes, name)
    } catch (error) {
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).code).toBe('not_a_statement')
      return (error as Error).message
    }
    throw new Error(`${name} was taken for a statement`)
  }

  it('names images, archives, documents and empty files, and says what to export instead', () => {
    expect(refused(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 'statement.csv')).toMatch(
      /statement\.csv is a PNG image.*Export the statement/
    )
    expect(refused(Buffer.alloc(0), 'statement.csv')).toMatch(/empty file/)
    expect(refused(Buffer.from('\r\n\r\n  \n'), 'x.csv')).toMatch(/empty/)
    expect(refused(Buffer.from('PK\u0003\u0004....word/document.xml....'), 'x.xlsx')).toMatch(/Word document/)
    expect(refused(Buffer.from('PK\u0003\u0004....something/else.txt'), 'x.xlsx')).toMatch(/zip archive that is not an Excel workbook/)
    expect(refused(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]), 'scan.pdf')).toMatch(/JPEG image.*no OCR/)
    expect(refused(Buffer.from('<?xml version="1.0"?><invoice/>'), 'x.xml')).toMatch(/neither CAMT/)
    expect(refused(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]), 'x.csv')).toMatch(/gzip archive/)
  })

  it('knows each format whatever the file is named', () => {
    expect(sniffStatement(read('two-accounts-pages.sta'), 'a.csv')).toBe('mt940')
    expect(sniffStatement(read('batch-pending.xml'), 'a.txt')).toBe('camt')
    expect(sniffStatement(read('shared-fitid-two-accounts.ofx'), 'a.csv')).toBe('ofx')
    expect(sniffStatement(read('opening.qif'), 'a.csv')).toBe('qif')
    expect(sniffStatement(Buffer.from('Date,Amount\n2026-01-01,5\n'), 'a.xls')).toBe('csv')
    expect(sniffStatement(Buffer.from('%PDF-1.4\n...'), 'a.csv')).toBe('pdf')
    expect(sniffStatement(Buffer.from(':20:X\r\n:25:123\r\n:61:260301C1,00NTRFNONREF\r\n'), 'a.txt')).toBe('mt940')
    expect(sniffStatement(Buffer.from('<html><body><table><tr><td>Date</td></tr></table></body></html>'), 'a.xls')).toBe('xls')
  })
})

describe('MT940', () => {
  it('reads one statement per account, pages chained, reversals, references and :86: details, NONREF never a reference', async () => {
    const [ngn, ghs, ...rest] = await parseStatementFile(read('two-accounts-pages.sta'), 'two-accounts-pages.sta')
    expect(rest).toEqual([])
    expect(ngn?.format).toBe('mt940')
    expect(ngn?.label).toBe('account 0123456789 NGN, 2026-03-01 to 2026-03-04')
    expect(ngn?.rows.map((r) => [r.line, r.date, r.amountMinor, r.reference, r.counterparty])).toEqual([
      [6, '2026-03-01', 25_000_000, 'PAY-0001', 'ACME LTD'],
      [8, '2026-03-02', -107_500, null, null],
      // RC: a credit reversed is money out; the reference comes from ?20 EREF+.
      [11, '2026-03-03', -500_000, 'TST-777', 'JOHN DOE'],
      [20, '2026-03-04', 10_000, 'ABC123', null],
      [22, '2026-03-04', 10_000, 'ABC123', null]
    ])
    expect(ngn?.rows[1]?.description).toBe('SMS ALERT CHARGES MARCH')
    expect(ngn?.rows[2]?.description).toContain('Reversal')
    // Two identical lines of one file are both kept, told apart by their occurrence.
    expect(new Set(ngn?.rows.map((r) => r.id)).size).toBe(5)
    expect(ngn?.rows[4]?.id).toMatch(/#1$/)
    expect(ngn?.proof).toMatchObject({ complete: true, openingMinor: 100_000_000, closingMinor: 124_412_500, breaks: [] })
    expect(ghs?.account).toBe('GH0099887766')
    expect(ghs?.proof).toMatchObject({ currency: 'GHS', openingMinor: -1000, closingMinor: 0, complete: true })
  })

  it('books an entry date (MMDD) in the year nearest its value date, across the new year either way', async () => {
    const text = [
      ':20:STMT',
      ':25:0123456789',
      ':28C:1/1',
      ':60F:C251231NGN100,00',
      // Valued 31 December 2025, booked 2 January: 2026.
      ':61:2512310102C10,00NTRFREF1',
      // Valued 2 January 2026, booked 30 December: 2025.
      ':61:2601021230D5,00NTRFREF2',
      ':62F:C260102NGN105,00',
      '-'
    ].join('\r\n')
    const [s] = await parseStatementFile(Buffer.from(text), 'x.sta')
    expect(s?.rows.map((r) => [r.date, r.amountMinor])).toEqual([
      ['2026-01-02', 1000],
      ['2025-12-30', -500]
    ])
  })

  it('finds a page that opens on another balance than the last closed on, and never calls it complete', async () => {
    const text = read('two-accounts-pages.sta').toString('utf8').replace(':60M:C260303NGN1243925,00', ':60M:C260303NGN1243900,00')
    const [ngn] = await parseStatementFile(Buffer.from(text), 'x.sta')
    expect(ngn?.proof?.complete).toBe(false)
    expect(ngn?.proof?.breaks[0]).toMatchObject({ line: 20, gapMinor: -2500 })
    expect(ngn?.skipped.some((s) => s.line === 19 && /not the 1243925.00/.test(s.reason))).toBe(true)
  })

  it('keeps a :61: line it cannot read as a line not read, with its text and why', async () => {
    const text = read('two-accounts-pages.sta').toString('utf8').replace(':61:2603020302D1075,00NCHGNONREF', ':61:2603020302DX1075.00')
    const [ngn] = await parseStatementFile(Buffer.from(text), 'x.sta')
    expect(ngn?.problems).toHaveLength(1)
    expect(ngn?.problems[0]).toMatchObject({ line: 8 })
    expect(ngn?.problems[0]?.message).toMatch(/:61: line/)
    expect(ngn?.problems[0]?.text).toContain('SMS ALERT CHARGES')
    expect(ngn?.proof?.complete).toBe(false)
  })

  it('reads Windows-1252 text when it is not UTF-8', async () => {
    const text =
      ':20:X\r\n:25:123456\r\n:60F:C260301EUR0,00\r\n:61:260301C5,00NTRFNONREF\r\n:86:Caf\u00e9 M\u00fcller\r\n:62F:C260301EUR5,00\r\n'
    const [s] = await parseStatementFile(Buffer.from(text, 'latin1'), 'x.sta')
    expect(s?.rows[0]?.description).toBe('Café Müller')
    expect(s?.encoding).toBe('windows-1252')
  })
})

describe('CAMT.053', () => {
  it('splits a batch into its transactions with their own amounts, lists a pending entry apart and proves the balances', async () => {
    const [s, ...rest] = await parseStatementFile(read('batch-pending.xml'), 'batch-pending.xml')
    expect(rest).toEqual([])
    expect(s?.format).toBe('camt')
    expect(s?.rows.map((r) => [r.date, r.amountMinor, r.reference, r.counterparty])).toEqual([
      ['2026-03-02', 10_000, 'PAY-1', 'Ama'],
      // TxAmt in the account's currency, never the instructed USD amount; the foreign amount is kept in words.
      ['2026-03-02', 20_000, 'PAY-2', null],
      ['2026-03-03', -6_000, null, null]
    ])
    expect(s?.rows[1]?.description).toContain('instructed USD 15.00')
    expect(s?.rows[1]?.description).toContain('INS-2')
    expect(s?.skipped.map((k) => k.reason)).toEqual([
      expect.stringMatching(/^batch of 2 transactions/),
      expect.stringMatching(/^pending, not yet booked: 999.00 GHS/)
    ])
    expect(s?.proof).toMatchObject({ account: 'GH12BANK0000123456', openingMinor: 100_000, closingMinor: 124_000, complete: true })
  })

  it('keeps each entry its own bank id and text when the whole file is one line', async () => {
    const entry = (ref: string, amount: string): string =>
      `<Ntry><Amt Ccy="GHS">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-03-02</Dt></BookgDt><AcctSvcrRef>${ref}</AcctSvcrRef></Ntry>`
    const xml =
      '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Acct><Id><IBAN>GH1</IBAN></Id><Ccy>GHS</Ccy></Acct>' +
      `${entry('B1', '50.00')}${entry('B2', '50.00')}${entry('B3', '5O.00')}</Stmt></BkToCstmrStmt></Document>`
    const [s] = await parseStatementFile(Buffer.from(xml), 'one-line.xml')
    // Two payments of the same amount on the same day, told apart by the bank's ids (not as one line listed twice).
    expect(s?.rows).toHaveLength(2)
    expect(s?.rows[0]?.id).not.toBe(s?.rows[1]?.id)
    expect(s?.rows.every((r) => !r.id.includes('#'))).toBe(true)
    expect(s?.problems).toHaveLength(1)
    expect(s?.problems[0]?.text).toContain('<AcctSvcrRef>B3</AcctSvcrRef>')
    expect(s?.problems[0]?.text).not.toContain('B2')
  })

  it('says when a batch does not add up to its entry', async () => {
    const text = read('batch-pending.xml').toString('utf8').replace('<Amt Ccy="GHS">100.00</Amt>', '<Amt Ccy="GHS">90.00</Amt>')
    const [s] = await parseStatementFile(Buffer.from(text), 'x.xml')
    expect(s?.skipped.some((k) => /transactions add to 290.00, the entry says 300.00/.test(k.reason))).toBe(true)
    expect(s?.proof?.complete).toBe(false)
  })
})

describe('OFX', () => {
  it('reads 1.x SGML with unclosed tags, several accounts, the charset, and a charge sharing its payment FITID', async () => {
    const [ngn, usd] = await parseStatementFile(read('shared-fitid-two-accounts.ofx'), 'x.ofx')
    expect(ngn?.label).toBe('account 0123456789 NGN, 2026-03-01 to 2026-03-04')
    expect(ngn?.rows.map((r) => [r.date, r.amountMinor, r.reference, r.counterparty])).toEqual([
      ['2026-03-01', 25_000_000, 'PAY-0001', 'ACME LTD'],
      ['2026-03-01', -5_375, null, 'NIP charge & VAT']
    ])
    expect(ngn?.rows[0]?.description).toBe('Invoice 42 Café')
    expect(ngn?.rows[0]?.id).not.toBe(ngn?.rows[1]?.id)
    expect(ngn?.proof).toMatchObject({ closingMinor: 24_994_625, openingMinor: null, complete: false })
    expect(usd?.rows.map((r) => [r.amountMinor, r.currency])).toEqual([[1250, 'USD']])
  })

  it('reads 2.x XML', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?><?OFX OFXHEADER="200" VERSION="220"?>
<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>KES</CURDEF><BANKACCTFROM><ACCTID>42</ACCTID></BANKACCTFROM>
<BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20260302</DTPOSTED><TRNAMT>-10.00</TRNAMT><FITID>1</FITID><MEMO>M-Pesa fee</MEMO></STMTTRN></BANKTRANLIST>
<LEDGERBAL><BALAMT>90.00</BALAMT><DTASOF>20260302</DTASOF></LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`
    const [s] = await parseStatementFile(Buffer.from(xml), 'x.ofx')
    expect(s?.rows.map((r) => [r.date, r.amountMinor, r.currency, r.description])).toEqual([['2026-03-02', -1000, 'KES', 'M-Pesa fee']])
  })
})

describe('QIF', () => {
  it('reads its records with the opening balance, asking the currency it never states', async () => {
    const [asked] = await parseStatementFile(read('opening.qif'), 'x.qif')
    expect(asked?.questions.map((q) => q.field)).toEqual(['defaultCurrency'])
    const [s] = await parseStatementFile(read('opening.qif'), 'x.qif', { defaultCurrency: 'NGN' })
    expect(s?.rows.map((r) => [r.line, r.date, r.amountMinor, r.reference])).toEqual([
      [7, '2026-03-02', -107_500, null],
      [12, '2026-03-13', 25_000_000, 'PAY-0001']
    ])
    expect(s?.proof?.openingMinor).toBe(100_000)
  })
})

describe('the sample statement in every format', () => {
  const sample = sampleStatement(sandboxSeed({ seed: 3, payments: 1500 }), { timeZone: 'Africa/Lagos' })
  it.each(SAMPLE_FORMATS)('%s reads back to the same lines, each difference on its line', async (format) => {
    const file = sampleStatementFile(sample, format)
    const statements = await parseStatementFile(file.bytes, file.name, format === 'qif' ? { defaultCurrency: 'NGN' } : {})
    expect(statements).toHaveLength(1)
    const [s] = statements
    expect(s?.problems).toEqual([])
    expect(s?.rows.map((r) => r.amountMinor)).toEqual(sample.entries.map((e) => e.amountMinor))
    expect(s?.rows.map((r) => r.date)).toEqual(sample.entries.map((e) => e.day))
    // Only OFX (no opening balance) and QIF (no closing) cannot prove themselves.
    expect(s?.proof?.complete).toBe(format !== 'ofx' && format !== 'qif')
    const lines = new Set(s?.rows.map((r) => r.line))
    for (const d of file.differences) if (d.line !== null) expect(lines.has(d.line), `${format}: ${d.kind} on line ${d.line}`).toBe(true)
  })

  it('reads every sheet of a workbook and keeps the one holding the statement', async () => {
    const file = sampleStatementFile(sample, 'xls')
    const [s] = await parseStatementFile(file.bytes, 'export.xls')
    expect(s?.format).toBe('xls')
    expect(s?.sheet).toBe('Transactions')
    expect(s?.label).toBe('sheet Transactions')
    expect(s?.proof?.account).toBe('0123456789')
  })
})

describe('bad bytes', () => {
  /** Every failure is one AppError with a code and a message; nothing else escapes. */
  const settle = async (bytes: Uint8Array, name: string): Promise<void> => {
    try {
      const statements = await parseStatementFile(bytes, name)
      expect(statements.length).toBeGreaterThan(0)
    } catch (error) {
      expect(error, String(error)).toBeInstanceOf(AppError)
      expect((error as AppError).message.length).toBeGreaterThan(10)
    }
  }

  it('refuses a CSV that opens a quote it never closes with one message (a file of one quote mark, found by the fuzz below)', async () => {
    await expect(parseStatementFile(Buffer.from('"'), 'quote.csv')).rejects.toMatchObject({
      code: 'malformed_csv',
      message: expect.stringMatching(/could not be read as CSV: Quoted field unterminated/)
    })
    await settle(Uint8Array.from([34]), 'random.bin')
  })

  it('never crashes on random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => settle(bytes, 'random.bin')),
      { numRuns: 300 }
    )
  })

  const sample = sampleStatement(sandboxSeed({ seed: 5, payments: 600 }), { timeZone: 'UTC' })
  const files = [
    ...SAMPLE_FORMATS.map((f) => sampleStatementFile(sample, f)),
    ...['two-accounts-pages.sta', 'batch-pending.xml', 'shared-fitid-two-accounts.ofx', 'opening.qif'].map((name) => ({
      name,
      bytes: read(name)
    }))
  ]
  it.each(files.map((f) => [f.name, f] as const))('never crashes on %s cut short at any point', async (_name, file) => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: file.bytes.length - 1 }), async (at) => settle(file.bytes.subarray(0, at), file.name)),
      { numRuns: 40 }
    )
  })
})

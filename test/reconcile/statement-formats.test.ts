// Statements as banks deliver them: the format known by content, every statement of a file, MT940/CAMT/OFX/QIF quirks, XLS and every sheet, the sample in each format proving itself, and any bytes or cut file giving a clear message.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AppError } from '../../src/main/errors'
import { parseStatementFile } from '../../src/main/reconcile/import/read-file'
import { sniffStatement } from '../../src/main/reconcile/import/sniff'
import { sampleStatement } from '../../src/sandbox/statement'
import { sampleStatementFile } from '../../src/sandbox/statement-formats'
import { sandboxSeed } from '../../src/sandbox/seed'
import { SAMPLE_FORMATS } from '../../src/shared/reconcile'
import { propertyRuns } from '../support/property'

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
    expect(ngn?.rows.all().map((r) => [r.line, r.date, r.amountMinor, r.reference, r.counterparty])).toEqual([
      [6, '2026-03-01', 25_000_000, 'PAY-0001', 'ACME LTD'],
      [8, '2026-03-02', -107_500, null, null],
      // RC: a credit reversed is money out; the reference comes from ?20 EREF+.
      [11, '2026-03-03', -500_000, 'TST-777', 'JOHN DOE'],
      [20, '2026-03-04', 10_000, 'ABC123', null],
      [22, '2026-03-04', 10_000, 'ABC123', null]
    ])
    expect(ngn?.rows.all()[1]?.description).toBe('SMS ALERT CHARGES MARCH')
    expect(ngn?.rows.all()[2]?.description).toContain('Reversal')
    // Two identical lines of one file are both kept, told apart by their occurrence.
    expect(new Set(ngn?.rows.all().map((r) => r.id)).size).toBe(5)
    expect(ngn?.rows.all()[4]?.id).toMatch(/#1$/)
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
    expect(s?.rows.all().map((r) => [r.date, r.amountMinor])).toEqual([
      ['2026-01-02', 1000],
      ['2025-12-30', -500]
    ])
  })

  // As ING, Knab and old Rabobank files write them (from other projects' test statements): a type code padded with a
  // space, a whole amount with no comma, a point for the decimal comma. A balance it cannot read is named, never dropped.
  it('reads the :61: lines and balances real banks write off the standard, and names a balance it cannot read', async () => {
    const mt940 = (...lines: string[]): Uint8Array => Buffer.from([':20:STMT', ':25:0123456789', ':28C:1/1', ...lines, '-'].join('\r\n'))
    const [s] = await parseStatementFile(
      mt940(':60F:C100721EUR000000000100.00', ':61:100722D25,03NOV NONREF', ':61:1007220722C500NTRFNONREF//B4E07', ':62F:C100722EUR574,97'),
      'x.sta'
    )
    expect(s?.rows.all().map((r) => [r.date, r.amountMinor, r.reference])).toEqual([
      ['2010-07-22', -2503, null],
      ['2010-07-22', 50000, null]
    ])
    expect(s?.proof).toMatchObject({ openingMinor: 10000, closingMinor: 57497, complete: true })
    const [bad] = await parseStatementFile(mt940(':60F:C100721EUR1.000,00', ':61:100722X25,03NTRF', ':62F:C100722EUR', '-'), 'x.sta')
    expect(bad?.proof?.complete).toBe(false)
    expect(bad?.proof?.balanceProblems?.map((p) => p.message)).toEqual([
      'the opening balance (:60F:) "C100721EUR1.000,00" does not read as C or D, date, currency and amount',
      'the closing balance (:62F:) "C100722EUR" does not read as C or D, date, currency and amount'
    ])
    // A stray character that breaks a :61: tag (found by the mutation property): the line is counted and named, never
    // read as text of the :86: before it.
    for (const broken of [':6<1:', '<:61:', ':<2h 61:']) {
      const [s2] = await parseStatementFile(
        mt940(
          ':60F:C100721EUR100,00',
          ':61:100722D25,03NTRFNONREF',
          ':86:first',
          `${broken}100722C5,00NTRFNONREF`,
          ':86:second',
          ':62F:C100722EUR79,97'
        ),
        'x.sta'
      )
      expect(s2?.rows.all().map((r) => r.amountMinor)).toEqual([-2503])
      expect(s2?.problems.map((p) => [p.line, p.code])).toEqual([[7, 'malformed_line']])
      expect(s2?.problems[0]?.message).toMatch(/holds a :61: transaction, but its tag does not start the line/)
    }
    expect(bad?.problems[0]).toMatchObject({
      code: 'malformed_line',
      message: expect.stringMatching(/The :61: line has no debit\/credit mark \(C, D, RC or RD\) after its date: "X25,03NTRF"/)
    })
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
    expect(s?.rows.all()[0]?.description).toBe('Café Müller')
    expect(s?.encoding).toBe('windows-1252')
  })
})

describe('CAMT.053', () => {
  it('splits a batch into its transactions with their own amounts, lists a pending entry apart and proves the balances', async () => {
    const [s, ...rest] = await parseStatementFile(read('batch-pending.xml'), 'batch-pending.xml')
    expect(rest).toEqual([])
    expect(s?.format).toBe('camt')
    expect(s?.rows.all().map((r) => [r.date, r.amountMinor, r.reference, r.counterparty])).toEqual([
      ['2026-03-02', 10_000, 'PAY-1', 'Ama'],
      // TxAmt in the account's currency, never the instructed USD amount; the foreign amount is kept in words.
      ['2026-03-02', 20_000, 'PAY-2', null],
      ['2026-03-03', -6_000, null, null]
    ])
    expect(s?.rows.all()[1]?.description).toContain('instructed USD 15.00')
    expect(s?.rows.all()[1]?.description).toContain('INS-2')
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
    expect(s?.rows.all()[0]?.id).not.toBe(s?.rows.all()[1]?.id)
    expect(s?.rows.all().every((r) => !r.id.includes('#'))).toBe(true)
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
    expect(ngn?.rows.all().map((r) => [r.date, r.amountMinor, r.reference, r.counterparty])).toEqual([
      ['2026-03-01', 25_000_000, 'PAY-0001', 'ACME LTD'],
      ['2026-03-01', -5_375, null, 'NIP charge & VAT']
    ])
    expect(ngn?.rows.all()[0]?.description).toBe('Invoice 42 Café')
    expect(ngn?.rows.all()[0]?.id).not.toBe(ngn?.rows.all()[1]?.id)
    expect(ngn?.proof).toMatchObject({ closingMinor: 24_994_625, openingMinor: null, complete: false })
    expect(usd?.rows.all().map((r) => [r.amountMinor, r.currency])).toEqual([[1250, 'USD']])
  })

  it('reads 2.x XML', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?><?OFX OFXHEADER="200" VERSION="220"?>
<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>KES</CURDEF><BANKACCTFROM><ACCTID>42</ACCTID></BANKACCTFROM>
<BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20260302</DTPOSTED><TRNAMT>-10.00</TRNAMT><FITID>1</FITID><MEMO>M-Pesa fee</MEMO></STMTTRN></BANKTRANLIST>
<LEDGERBAL><BALAMT>90.00</BALAMT><DTASOF>20260302</DTASOF></LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`
    const [s] = await parseStatementFile(Buffer.from(xml), 'x.ofx')
    expect(s?.rows.all().map((r) => [r.date, r.amountMinor, r.currency, r.description])).toEqual([
      ['2026-03-02', -1000, 'KES', 'M-Pesa fee']
    ])
  })
})

describe('QIF', () => {
  it('reads its records with the opening balance, asking the currency it never states', async () => {
    const [asked] = await parseStatementFile(read('opening.qif'), 'x.qif')
    expect(asked?.questions.map((q) => q.field)).toEqual(['defaultCurrency'])
    const [s] = await parseStatementFile(read('opening.qif'), 'x.qif', { defaultCurrency: 'NGN' })
    expect(s?.rows.all().map((r) => [r.line, r.date, r.amountMinor, r.reference])).toEqual([
      [7, '2026-03-02', -107_500, null],
      [12, '2026-03-13', 25_000_000, 'PAY-0001']
    ])
    expect(s?.proof?.openingMinor).toBe(100_000)
  })

  it('reads a two-digit year after "/" from 1980 to 2079 and after an apostrophe as 20xx: 10/11/97 is 1997, never 2097', async () => {
    const qif = (date: string): Uint8Array => Buffer.from(`!Type:Bank\nD${date}\nT-6.19\nPPhone bill\n^\n`)
    const day = async (date: string): Promise<string | undefined> =>
      (await parseStatementFile(qif(date), 'x.qif', { defaultCurrency: 'USD', dateOrder: 'mdy' }))[0]?.rows.all()[0]?.date
    expect(await day('10/11/97')).toBe('1997-10-11')
    expect(await day('6/1/94')).toBe('1994-06-01')
    expect(await day('1/ 5/26')).toBe('2026-01-05')
    expect(await day("1/ 5'24")).toBe('2024-01-05')
    expect(await day('12/31/1999')).toBe('1999-12-31')
  })

  it('refuses a QIF file of an investment account only, saying what it is', async () => {
    const invst = Buffer.from("!Type:Invst\nD1/ 5'24\nNBuy\nYACME\nI10.00\nQ5\nT50.00\n^\n")
    await expect(parseStatementFile(invst, 'broker.qif', { defaultCurrency: 'USD' })).rejects.toMatchObject({
      code: 'not_a_statement',
      message: expect.stringMatching(
        /^broker\.qif is a QIF file of an investment account \(!Type:Invst\), with no bank, cash or card transaction, not a bank statement/
      )
    })
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
    expect(s?.rows.all().map((r) => r.amountMinor)).toEqual(sample.entries.map((e) => e.amountMinor))
    expect(s?.rows.all().map((r) => r.date)).toEqual(sample.entries.map((e) => e.day))
    // Only OFX (no opening balance) and QIF (no closing) cannot prove themselves.
    expect(s?.proof?.complete).toBe(format !== 'ofx' && format !== 'qif')
    const lines = new Set(s?.rows.all().map((r) => r.line))
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
      message: expect.stringMatching(
        /could not be read as CSV: no line of it reads as a row \(line 1: A quote opens in this line and is not closed\)/
      )
    })
    await settle(Uint8Array.from([34]), 'random.bin')
  })

  it('never crashes on random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => settle(bytes, 'random.bin')),
      propertyRuns(300)
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
  // 40 whole reads of a statement (a PDF's take a few seconds on a loaded machine): a time limit for work, not for speed.
  it.each(files.map((f) => [f.name, f] as const))(
    'never crashes on %s cut short at any point',
    async (_name, file) => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: file.bytes.length - 1 }), async (at) => settle(file.bytes.subarray(0, at), file.name)),
        propertyRuns(40)
      )
    },
    300_000
  )
})

/** The Sandbox's own sample in a format, as text to change as the files were. */
const sampleText = (format: 'csv' | 'ofx' | 'mt940' | 'camt053' | 'qif'): { text: string; lines: number } => {
  const sample = sampleStatement(sandboxSeed({ seed: 2, payments: 900 }), { timeZone: 'UTC' })
  return { text: sampleStatementFile(sample, format).bytes.toString('latin1'), lines: sample.entries.length }
}
const readText = (text: string, name: string, given = {}): Promise<Awaited<ReturnType<typeof parseStatementFile>>> =>
  parseStatementFile(Buffer.from(text, 'latin1'), name, given)
const accounted = (s: { rows: { length: number }; problems: { line: number }[] } | undefined): number =>
  (s?.rows.length ?? 0) + new Set(s?.problems.map((p) => p.line)).size

describe('what a file holds is never dropped or altered in silence', () => {
  it("OFX: a file with no bank statement says what it is: the bank's error reply with its code, or an investment statement", async () => {
    const ofx = (body: string): Uint8Array =>
      Buffer.from(
        `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS></SONRS></SIGNONMSGSRSV1>${body}</OFX>`
      )
    await expect(
      parseStatementFile(
        ofx(
          '<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>2000<SEVERITY>ERROR<MESSAGE>General Server Error</STATUS></STMTTRNRS></BANKMSGSRSV1>'
        ),
        'reply.ofx'
      )
    ).rejects.toMatchObject({
      code: 'no_statement',
      message:
        'reply.ofx is the bank\'s OFX error reply, with no statement in it (code 2000: "General Server Error"): download the statement again.'
    })
    // A damaged CURDEF ("<NGN") is no currency: its lines are not read for it, and nothing throws.
    const [odd] = await parseStatementFile(
      ofx(
        '<BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF><NGN<BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261001<TRNAMT>-5.00<FITID>1</STMTTRN></BANKTRANLIST><LEDGERBAL><BALAMT>-5.00<DTASOF>20261001</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1>'
      ),
      'odd.ofx'
    )
    expect(odd?.proof).toMatchObject({
      complete: false,
      verdict: 'its currency "<NGN" is not an ISO 4217 code: its balances are not checked'
    })
    expect(odd?.problems.map((p) => p.code)).toEqual(['unknown_currency'])
    await expect(
      parseStatementFile(
        ofx('<INVSTMTMSGSRSV1><INVSTMTTRNRS><INVSTMTRS><CURDEF>USD</INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1>'),
        'broker.ofx'
      )
    ).rejects.toMatchObject({
      code: 'no_statement',
      message: expect.stringMatching(/^broker\.ofx is an OFX investment account statement \(INVSTMTRS\)/)
    })
  })

  it('CAMT: an entry that states no status, or one no standard has, is a line not read: booked or pending is never guessed', async () => {
    const { text, lines } = sampleText('camt053')
    const first = text.indexOf('<Sts><Cd>BOOK</Cd></Sts>')
    const second = text.indexOf('<Sts><Cd>BOOK</Cd></Sts>', first + 1)
    const changed = text.slice(0, first) + text.slice(first + 24, second) + '<Sts><Cd>DONE</Cd></Sts>' + text.slice(second + 24)
    const [s] = await readText(changed, 'x.xml')
    expect(s?.rows).toHaveLength(lines - 2)
    expect(s?.problems.map((p) => [p.code, p.message])).toEqual([
      ['malformed_line', 'The entry states no status (Sts): whether it is booked or pending is not known.'],
      ['malformed_line', 'The entry\'s status "DONE" is none of BOOK, PDNG, INFO or FUTR: whether it is booked is not known.']
    ])
    expect(s?.proof?.complete).toBe(false)
  })

  it('OFX: a lost </BANKTRANLIST> costs neither a line nor the closing balance after the list', async () => {
    const { text, lines } = sampleText('ofx')
    const [whole] = await readText(text, 'x.ofx')
    const [s] = await readText(text.replace('</BANKTRANLIST>', ''), 'x.ofx')
    expect(s?.rows).toHaveLength(lines)
    expect(s?.proof?.closingMinor).toBe(whole?.proof?.closingMinor)
    expect(s?.proof?.closingMinor).not.toBeNull()
  })

  it("OFX: a line with a CURRENCY aggregate is in that currency; one with ORIGCURRENCY was converted to the account's", async () => {
    const { text } = sampleText('ofx')
    const first = text.indexOf('</STMTTRN>')
    const second = text.indexOf('</STMTTRN>', first + 1)
    const changed =
      text.slice(0, first) +
      '<CURRENCY><CURRATE>1500<CURSYM>USD</CURRENCY>' +
      text.slice(first, second) +
      '<ORIGCURRENCY><CURRATE>1500<CURSYM>USD</ORIGCURRENCY>' +
      text.slice(second)
    const [s] = await readText(changed, 'x.ofx')
    const [one, two, three] = s?.rows ?? []
    expect([one?.currency, two?.currency, three?.currency]).toEqual(['USD', 'NGN', 'NGN'])
    expect(two?.description).toMatch(/original currency USD$/)
    expect(one?.description ?? '').not.toMatch(/original currency/)
  })

  it('OFX: a raw "<" in a memo, or a lost </STMTTRN>, costs no transaction after it', async () => {
    const { text, lines } = sampleText('ofx')
    for (const changed of [text.replace('<MEMO>', '<MEMO>Refund <3 days <2h '), text.replace('</STMTTRN>', '')]) {
      const [s] = await readText(changed, 'x.ofx')
      expect(s?.rows).toHaveLength(lines)
      expect(s?.problems).toEqual([])
    }
    // A damaged <STMTTRN> tag: its transaction is a line not read, found by its <TRNAMT>.
    const [broken] = await readText(text.replace('<STMTTRN>', '<STM"TTRN>'), 'x.ofx')
    expect(accounted(broken)).toBe(lines)
    expect(broken?.problems[0]?.message).toMatch(/This <TRNAMT> is in no transaction Ledgerline could read/)
  })

  it('OFX: amounts follow the one rule: a comma before three digits in NGN groups thousands; in a three-decimal currency it is not read', async () => {
    const ofx = (currency: string, amount: string): string =>
      `OFXHEADER:100\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>${currency}<BANKACCTFROM><ACCTID>1</BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20261001<TRNAMT>${amount}<FITID>A</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`
    for (const [amount, minor] of [
      ['12,340', 1_234_000],
      ['1,000', 100_000],
      ['12,345', 1_234_500],
      ['12,34', 1234]
    ] as const)
      expect((await readText(ofx('NGN', amount), 'x.ofx'))[0]?.rows.all()[0]?.amountMinor, amount).toBe(minor)
    const [kwd] = await readText(ofx('KWD', '12,345'), 'x.ofx')
    expect(kwd?.rows.all()).toEqual([])
    expect(kwd?.problems[0]?.message).toMatch(/reads both as thousands and as 3 decimals in KWD: it is not read, never guessed/)
    // An entity outside Unicode is kept as written, never an error.
    expect(
      (await readText(ofx('NGN', '5.00').replace('<FITID>A', '<FITID>A<MEMO>&#x110000; x'), 'x.ofx'))[0]?.rows.all()[0]?.description
    ).toBe('&#x110000; x')
  })

  it('CSV: a quote opened and never closed swallows no line after it', async () => {
    const { text, lines } = sampleText('csv')
    const rows = text.split('\r\n')
    rows[20] = `${rows[20]},"`
    const [s] = await readText(rows.join('\r\n'), 'x.csv')
    expect(accounted(s)).toBe(lines)
    expect(s?.problems).toEqual([
      expect.objectContaining({
        line: 21,
        code: 'malformed_line',
        message: expect.stringMatching(/^A quote opens in this line and is not closed/)
      })
    ])
    expect(s?.proof?.complete).toBe(false)
  })

  it('CSV: a line ending in a bare "\\n" among "\\r\\n" lines is a line of its own, never swallowed into the one above (found by the mutation property)', async () => {
    const { text, lines } = sampleText('csv')
    const rows = text.split('\r\n')
    // A stray character between a header's "\r" and its "\n": papaparse left to choose read the next line into the header's last cell.
    const header = rows.findIndex((r) => r.startsWith('Txn Date'))
    rows[header] = `${rows[header]}\r<`
    const mixed = rows.join('\r\n').replace('\r<\r\n', '\r<\n')
    const [s] = await readText(mixed, 'x.csv')
    expect(accounted(s)).toBe(lines)
    expect(s?.rows).toHaveLength((await readText(text, 'x.csv'))[0]?.rows.length as number)
    // A file of "\r" line ends alone still reads line by line.
    const [old] = await readText(text.replaceAll('\r\n', '\r'), 'x.csv')
    expect(old?.rows.length).toBe(s?.rows.length)
    expect(old?.proof?.complete).toBe(true)
  })
  it('a balance in another currency than its statement is no balance of it: CAMT, MT940', async () => {
    const camt = sampleText('camt053').text
    const [sek] = await readText(camt.replace(/(<Cd>CLBD<\/Cd><\/CdOrPrtry><\/Tp><Amt Ccy=")NGN/, '$1SEK'), 'x.xml')
    expect(sek?.proof).toMatchObject({ complete: false, closingMinor: null })
    expect(sek?.proof?.balanceProblems?.[0]?.message).toBe(
      "the closing balance is in SEK, the statement's currency is NGN: it is not this statement's balance"
    )
    const mt = sampleText('mt940').text
    const [usd] = await readText(mt.replace(/:62F:([CD]\d{6})NGN/, ':62F:$1USD'), 'x.sta')
    expect(usd?.proof?.complete).toBe(false)
    expect(usd?.proof?.balanceProblems?.[0]?.message).toMatch(/the closing balance \(:62F:\) is in USD, the statement's currency is NGN/)
    // An entry in USD on an NGN statement: not read.
    const [entry] = await readText(camt.replace(/(<Ntry><NtryRef>3<\/NtryRef><Amt Ccy=")NGN/, '$1USD'), 'x.xml')
    expect(entry?.problems[0]?.message).toMatch(/The entry's amount is in USD, the statement's currency is NGN/)
  })

  it('CAMT: an entry with no or another CdtDbtInd is not read as a credit; bytes that are not UTF-8 are said so', async () => {
    const camt = sampleText('camt053').text
    const [none] = await readText(
      camt.replace(/(<Ntry><NtryRef>2<\/NtryRef><Amt Ccy="NGN">[\d.]+<\/Amt>)<CdtDbtInd>CRDT<\/CdtDbtInd>/, '$1'),
      'x.xml'
    )
    expect(none?.problems[0]?.message).toMatch(/The entry states no CdtDbtInd: whether it is money in or out cannot be read/)
    const [other] = await readText(
      camt.replace(/(<Ntry><NtryRef>2<\/NtryRef><Amt Ccy="NGN">[\d.]+<\/Amt><CdtDbtInd>)CRDT/, '$1XXXX'),
      'x.xml'
    )
    expect(other?.problems[0]?.message).toMatch(/CdtDbtInd "XXXX" is neither CRDT nor DBIT/)
    const bytes = Buffer.from(camt, 'latin1')
    const at = bytes.indexOf('<Ustrd>') + 7
    bytes[at] = 0xe9
    const [latin] = await parseStatementFile(bytes, 'x.xml')
    expect(latin?.encodingHow).toMatch(/1 byte\(s\) are not UTF-8 \(the first on line \d+\) and were read as Windows-1252/)
    expect(latin?.rows.all().some((r) => r.description?.includes('é'))).toBe(true)
  })

  it('QIF: an !Account list or AutoSwitch header is set aside, and the opening balance stays the opening balance', async () => {
    const { text, lines } = sampleText('qif')
    const headed = `!Option:AutoSwitch\r\n!Account\r\nNChecking\r\nTBank\r\n^\r\n!Clear:AutoSwitch\r\n${text}`
    const [s] = await readText(headed, 'x.qif', { defaultCurrency: 'NGN', dateOrder: 'mdy' })
    expect(s?.rows).toHaveLength(lines)
    expect(s?.proof?.openingMinor).toBe(1_000_000_00)
    expect(s?.skipped).toContainEqual({ line: 3, reason: 'account record "Checking" (Bank), not a transaction' })
  })

  it('Excel: an error value or an uncomputed formula in an amount is a line not read; two columns of one name are asked about', async () => {
    const { zipSync, strToU8 } = await import('fflate')
    const sheet = (cells: string): Uint8Array =>
      strToU8(
        `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Date</t></is></c><c r="B1" t="inlineStr"><is><t>Amount</t></is></c><c r="C1" t="inlineStr"><is><t>Amount</t></is></c><c r="D1" t="inlineStr"><is><t>Reference</t></is></c></row>${cells}</sheetData></worksheet>`
      )
    const workbook = (cells: string): Uint8Array =>
      zipSync({
        '[Content_Types].xml': strToU8('<Types/>'),
        '_rels/.rels': strToU8(
          '<Relationships><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        ),
        'xl/workbook.xml': strToU8('<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'),
        'xl/_rels/workbook.xml.rels': strToU8(
          '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
        ),
        'xl/worksheets/sheet1.xml': sheet(cells)
      })
    const row = (r: number, amount: string): string =>
      `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>2026-10-0${r}</t></is></c>${amount}<c r="D${r}" t="inlineStr"><is><t>R-${r}</t></is></c></row>`
    const file = workbook(
      row(2, '<c r="B2" t="e"><v>#REF!</v></c>') + row(3, '<c r="B3"><f>SUM(X1:X2)</f></c>') + row(4, '<c r="B4"><v>12.5</v></c>')
    )
    const [asked] = await parseStatementFile(file, 'x.xlsx', { defaultCurrency: 'NGN' })
    expect(asked?.questions[0]?.message).toMatch(/The header names "Amount" more than once; say which column holds what/)
    const [s] = await parseStatementFile(file, 'x.xlsx', {
      defaultCurrency: 'NGN',
      columns: { date: 'Date', amount: 'Amount', reference: 'Reference' }
    })
    expect(s?.rows.all().map((r) => r.amountMinor)).toEqual([1250])
    expect(s?.problems.map((p) => [p.line, p.message])).toEqual([
      [2, '"#REF!" is not an amount.'],
      [3, '"=SUM(X1:X2) (a formula with no value: open the file in Excel and save it)" is not an amount.']
    ])
  })

  it('refuses a file, or a workbook part, larger than the limit, before reading it', async () => {
    const { zipSync, strToU8 } = await import('fflate')
    const bomb = zipSync({ 'xl/workbook.xml': strToU8('<workbook/>'), 'xl/worksheets/sheet1.xml': new Uint8Array(8 * 1024 * 1024) })
    await expect(parseStatementFile(bomb, 'bomb.xlsx', {}, { maxBytes: 1024 * 1024 })).rejects.toMatchObject({
      code: 'file_too_large',
      message: expect.stringMatching(/bomb.xlsx: its part xl\/worksheets\/sheet1.xml would inflate to 8 MB, more than the 1 MB/)
    })
    await expect(parseStatementFile(Buffer.alloc(2 * 1024 * 1024, 'a'), 'big.csv', {}, { maxBytes: 1024 * 1024 })).rejects.toMatchObject({
      code: 'file_too_large',
      message: expect.stringMatching(/^big.csv is 2 MB, more than the 1 MB Ledgerline reads of one file/)
    })
  })
})

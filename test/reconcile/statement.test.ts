// Statements as banks and ledgers write them: encodings, separators, header blocks, totals lines, amount and date forms, mappings, problems on their line and column.
import fc from 'fast-check'
import ExcelJS from 'exceljs'
import iconv from 'iconv-lite'
import { describe, expect, it } from 'vitest'
import { parseGrid } from '../../src/main/reconcile/import/grid-reader'
import { headerSignature } from '../../src/main/reconcile/import/mapping'
import { EMPTY_MAPPING } from '../../src/main/reconcile/import/parsed-statement'
import { parseStatement } from '../../src/main/reconcile/import/read-file'
import { rowContentId } from '../../src/main/reconcile/import/row-ids'
import { parseAmountBody, readAmountText } from '../../src/main/reconcile/import/amounts'
import { dayNumber } from '../../src/main/reconcile/import/dates'
import { normaliseReference, referenceCandidates, referenceTokens } from '../../src/main/reconcile/references'
import { propertyRuns } from '../support/property'

const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8')
const amounts = async (text: string, mapping = {}): Promise<number[]> =>
  (await parseStatement(utf8(text), 's.csv', { defaultCurrency: 'NGN', ...mapping })).rows.all().map((r) => r.amountMinor)

describe('reading a statement', () => {
  const bank = [
    'FIRST EXAMPLE BANK PLC',
    'Statement of account,,,,',
    'Account number:,0011223344,,,',
    '',
    'Txn Date,Value Date,Reference,Narration,Debit,Credit,Balance',
    '02/10/2026,02/10/2026,,Opening balance,,,"10,000.00"',
    '02/10/2026,03/10/2026, pay-ref-0001 ,Transfer from Ada,,"1,500.00","11,500.00"',
    '13/10/2026,14/10/2026,PAY-REF-0002,Card payment,,"2,250.50","13,750.50"',
    '15/10/2026,15/10/2026,,SMS ALERT CHARGES,52.50,,"13,698.00"',
    ',,,Total,52.50,"3,750.50",',
    'Generated on 01/11/2026'
  ].join('\r\n')

  it('skips the bank header block, balance and totals lines, and maps columns from header synonyms', async () => {
    const s = await parseStatement(utf8(bank), 'bank.csv', { defaultCurrency: 'NGN' })
    expect(s.headerLine).toBe(5)
    expect(s.mapping.columns).toEqual({
      date: 'Value Date',
      reference: 'Reference',
      debit: 'Debit',
      credit: 'Credit',
      description: 'Narration',
      balance: 'Balance'
    })
    expect(s.rows.all().map((r) => [r.line, r.date, r.amountMinor, r.reference])).toEqual([
      [7, '2026-10-03', 150000, 'pay-ref-0001'],
      [8, '2026-10-14', 225050, 'PAY-REF-0002'],
      [9, '2026-10-15', -5250, null]
    ])
    expect(s.skipped.map((k) => k.line)).toEqual([1, 2, 3, 5, 6, 10, 11])
    expect(s.skipped.find((k) => k.line === 6)?.reason).toBe('opening balance line')
    // The statement proves itself as far as it states: the opening line, every running balance, the account from the
    // header block; its closing balance is only the last running balance, so a file cut after any line would tie too.
    expect(s.proof).toMatchObject({ account: '0011223344', openingMinor: 1_000_000, closingMinor: 1_369_800, breaks: [], complete: false })
    expect(s.proof?.verdict).toMatch(
      /; but the statement does not state its closing balance \(taken from its last running balance\): lines cut from its end would not show$/
    )
    expect(s.numberForm).toBe('1,234.56')
    expect(s.dateForm).toBe('DD/MM/YYYY')
    expect(s.problems).toEqual([])
  })

  it.each([
    ['UTF-8 with BOM', (t: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(t, 'utf8')]), 'utf-8'],
    ['UTF-16LE with BOM', (t: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(t, 'utf-16le')]), 'utf-16le'],
    ['UTF-16BE with BOM', (t: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(t, 'utf-16be')]), 'utf-16be'],
    ['UTF-16LE without BOM', (t: string) => iconv.encode(t, 'utf-16le'), 'utf-16le'],
    ['Windows-1252', (t: string) => iconv.encode(t, 'windows-1252'), 'windows-1252']
  ])('reads %s and keeps accented names', async (_name, encode, encoding) => {
    const text =
      'Date;Référence;Libellé;Montant\n2026-10-02;FAC-0001;Café Müller Œuvre;1.234,56\n2026-10-03;FAC-0002;Crème brûlée € 5;-12,00\n'
    const s = await parseStatement(encode(text), 'fr.csv', { defaultCurrency: 'EUR' })
    expect(s.encoding).toBe(encoding)
    expect(s.separator).toBe(';')
    expect(s.rows.all().map((r) => [r.amountMinor, r.description])).toEqual([
      [123456, 'Café Müller Œuvre'],
      [-1200, 'Crème brûlée € 5']
    ])
  })

  it.each([
    [',', 'date,amount,description\n2026-10-01,"1,234.56",a\n'],
    [';', 'date;amount;description\n2026-10-01;1.234,56;a\n'],
    ['\t', 'date\tamount\tdescription\n2026-10-01\t1 234,56\ta\n'],
    ['|', 'date|amount|description\n2026-10-01|1234.56|a\n']
  ])('detects the separator %j', async (separator, text) => {
    const s = await parseStatement(utf8(text), 's.csv', { defaultCurrency: 'NGN' })
    expect(s.separator).toBe(separator)
    expect(s.rows.all()[0]?.amountMinor).toBe(123456)
  })

  it('keeps a real transaction whose words look like a balance or a total line, and still takes the balance lines as balances', async () => {
    const s = await parseStatement(
      utf8(
        [
          'Date,Description,Reference,Debit,Credit,Balance',
          ',Opening balance,,,,"1,000.00"',
          '16/03/2026,TOTAL ENERGIES LEKKI FUEL,POS1,"5,000.00",,"-4,000.00"',
          '17/03/2026,BALANCE TRANSFER FROM SAVINGS,TRF2,,"10,000.00","6,000.00"',
          '18/03/2026,Closing balance adjustment fee,CHG3,50.00,,"5,950.00"',
          '19/03/2026,Sub-total Stores Ltd payment,INV4,,"1,000.00","6,950.00"',
          '31/03/2026,Closing balance as at 31 March,,,,"6,950.00"'
        ].join('\n')
      ),
      's.csv',
      { defaultCurrency: 'NGN' }
    )
    expect(s.rows.all().map((r) => [r.line, r.amountMinor, r.description])).toEqual([
      [3, -500_000, 'TOTAL ENERGIES LEKKI FUEL'],
      [4, 1_000_000, 'BALANCE TRANSFER FROM SAVINGS'],
      [5, -5_000, 'Closing balance adjustment fee'],
      [6, 100_000, 'Sub-total Stores Ltd payment']
    ])
    expect(s.skipped).toEqual([
      { line: 1, reason: 'header row' },
      { line: 2, reason: 'opening balance line' },
      { line: 7, reason: 'closing balance line' }
    ])
    expect(s.proof).toMatchObject({ openingMinor: 100_000, closingMinor: 695_000, complete: true })
    // A balance line that states its balance in the amount column (no balance column) is still a balance, not a transaction.
    const amountOnly = await parseStatement(
      utf8(['Date,Description,Amount', '01/03/2026,Balance brought forward from February,"1,000.00"', '16/03/2026,Fuel,-50.00'].join('\n')),
      's.csv',
      { defaultCurrency: 'NGN' }
    )
    expect(amountOnly.rows.all().map((r) => r.amountMinor)).toEqual([-5_000])
    expect(amountOnly.proof?.openingMinor).toBe(100_000)
  })

  it('signs its first rows as they are (what a saved preset is matched by), though the reader lets each row go once read', () => {
    const rows = [['Date', 'Amount', 'Narration'], ...Array.from({ length: 60 }, (_, i) => ['2026-10-01', `${i + 1}.00`, `LINE ${i}`])]
    const parsed = parseGrid(
      { rows: rows.map((r) => [...r]), lines: rows.map((_, i) => i + 1), separator: null, sheet: 'Sheet1' },
      { name: 's.xlsx', sha256: '', size: 0, encoding: null, encodingHow: null },
      { ...EMPTY_MAPPING, columns: {}, defaultCurrency: 'NGN' }
    )
    expect(parsed.rows.length).toBe(60)
    expect(parsed.rowSignatures).toEqual(rows.slice(0, 50).map((r) => headerSignature(r)))
  })

  it('reads every common amount form exactly, with the form it chose', async () => {
    const dot =
      'date,amount\n2026-10-01,"1,234.56"\n2026-10-02,"(1,234.56)"\n2026-10-03,1234.56-\n2026-10-04,NGN 1234.56\n2026-10-05,"₦1,000.00"\n2026-10-06,"-0.01"\n2026-10-07,12\n2026-10-08,"1,000,000.10 CR"\n2026-10-09,"500.00 DR"\n'
    expect(await amounts(dot)).toEqual([123456, -123456, -123456, 123456, 100000, -1, 1200, 100000010, -50000])
    const comma = 'date;amount\n2026-10-01;1.234,56\n2026-10-02;1 234,56\n2026-10-03;-0,5\n2026-10-04;1.000.000\n'
    const s = await parseStatement(utf8(comma), 's.csv', { defaultCurrency: 'EUR' })
    expect(s.rows.all().map((r) => r.amountMinor)).toEqual([123456, 123456, -50, 100000000])
    expect(s.numberForm).toBe('1 234,56')
    // A currency code in the amount cell gives the row its currency, and exponents are the currency's.
    const codes = await parseStatement(utf8('date,amount\n2026-10-01,JPY 1500\n2026-10-02,KWD 1.250\n2026-10-03,"1,234.50 GHS"\n'), 's.csv')
    expect(codes.rows.all().map((r) => [r.currency, r.amountMinor])).toEqual([
      ['JPY', 1500],
      ['KWD', 1250],
      ['GHS', 123450]
    ])
  })

  it('exact from text: no float drift on large or many-decimal amounts', () => {
    expect(parseAmountBody('90,071,992,547,409.91', '.', 'NGN')).toBe(9007199254740991)
    expect(() => parseAmountBody('90,071,992,547,409.92', '.', 'NGN')).toThrow(/too large/)
    expect(() => parseAmountBody('1.234', '.', 'NGN')).toThrow(/decimal place/)
    expect(() => parseAmountBody('12,34,567.00', '.', 'NGN')).toThrow(/groups its digits/)
    // Lakh groups are how rupees and taka are written.
    expect(parseAmountBody('1,23,45,678.90', '.', 'INR')).toBe(1234567890)
    expect(parseAmountBody('12,345.00', '.', 'INR')).toBe(1234500)
    expect(() => parseAmountBody('1,23,4567.00', '.', 'INR')).toThrow(/groups its digits/)
    expect(readAmountText('(₦1,234.56)')).toMatchObject({ body: '1,234.56', negative: true, currency: 'NGN' })
    expect(readAmountText('R 1 234,56')).toMatchObject({ body: '1 234,56', negative: false, currency: 'ZAR' })
    expect(readAmountText('R-50.00')).toMatchObject({ body: '50.00', negative: true, currency: 'ZAR' })
    expect(readAmountText('US$ 5.00')).toMatchObject({ body: '5.00', currency: 'USD' })
    expect(readAmountText('KShs 1,000')).toMatchObject({ body: '1,000', currency: 'KES' })
    expect(readAmountText('$12.00')).toMatchObject({ body: '12.00', currency: null })
    // A typeset minus (U+2212) or an en dash is a minus.
    expect(readAmountText('\u22121,234.56')).toMatchObject({ body: '1,234.56', negative: true })
    expect(readAmountText('\u201312.00')).toMatchObject({ body: '12.00', negative: true })
  })

  it('reads signed amounts, separate debit and credit columns, and a DR/CR indicator column', async () => {
    expect(await amounts('date,amount\n2026-10-01,-5.00\n2026-10-02,5.00\n')).toEqual([-500, 500])
    expect(await amounts('date,withdrawal,deposit\n2026-10-01,5.00,\n2026-10-02,,7.00\n2026-10-03,-3.00,\n')).toEqual([-500, 700, -300])
    expect(await amounts('date,money out,money in\n2026-10-01,5.00,\n2026-10-02,,7.00\n')).toEqual([-500, 700])
    const indicator = await parseStatement(
      utf8('date,amount,DR/CR,details\n2026-10-01,5.00,DR,fee\n2026-10-02,7.00,CR,in\n2026-10-03,7.00,X,odd\n'),
      's.csv',
      { defaultCurrency: 'NGN' }
    )
    expect(indicator.mapping.columns.indicator).toBe('DR/CR')
    expect(indicator.rows.all().map((r) => r.amountMinor)).toEqual([-500, 700])
    expect(indicator.problems).toEqual([
      {
        line: 4,
        column: 'DR/CR',
        code: 'invalid_indicator',
        message: expect.stringMatching(/"X" is neither debit/),
        // The line is kept as the file has it, with what could be read: not its amount, whose direction is not known.
        text: '2026-10-03,7.00,X,odd',
        read: { date: '2026-10-03', amountMinor: null, currency: 'NGN', reference: null, description: 'odd' }
      }
    ])
    // An indicator column is found by its values when its header is in no list (a German bank's "Soll/Haben" of DR/CR, or S/H).
    const byValues = await parseStatement(
      utf8('Datum;Betrag;Kennung;Buchungstext\n2026-10-01;5,00;DR;Gebühr\n2026-10-02;7,00;CR;Zahlung\n'),
      's.csv',
      { defaultCurrency: 'EUR' }
    )
    expect(byValues.mapping.columns.indicator).toBe('Kennung')
    expect(byValues.rows.all().map((r) => r.amountMinor)).toEqual([-500, 700])
    const german = await parseStatement(
      utf8('Datum;Betrag;S/H;Buchungstext\n2026-10-01;5,00;S;Gebühr\n2026-10-02;7,00;H;Zahlung\n'),
      's.csv',
      { defaultCurrency: 'EUR' }
    )
    expect(german.rows.all().map((r) => r.amountMinor)).toEqual([-500, 700])
    // A "Type" column of words is no indicator; the DR/CR column beside it is.
    const typed = await parseStatement(
      utf8('date,type,amount,dir,details\n2026-10-01,POS,5.00,DR,fee\n2026-10-02,Transfer,7.00,CR,in\n'),
      's.csv',
      { defaultCurrency: 'NGN' }
    )
    expect(typed.mapping.columns.indicator).toBe('dir')
    expect(typed.rows.all().map((r) => r.amountMinor)).toEqual([-500, 700])
    // A column of "-" placeholders is no indicator.
    const dashes = await parseStatement(utf8('date,amount,note,details\n2026-10-01,5.00,-,fee\n2026-10-02,7.00,-,in\n'), 's.csv', {
      defaultCurrency: 'NGN'
    })
    expect(dashes.mapping.columns.indicator).toBeUndefined()
    expect(dashes.rows.all().map((r) => r.amountMinor)).toEqual([500, 700])
    // A Lithuanian bank's export (from another project's test files): D/K for debit and credit, "Valiuta" its currency, its
    // dated opening and closing balance lines ("Likutis pradžiai", "Likutis pabaigai") balances, never transactions.
    const lithuanian = await parseStatement(
      utf8(
        [
          '"Data","Paaiškinimai","Suma","Valiuta","D/K"',
          '"2012-01-01","Likutis pradžiai","2123.82","EUR","K"',
          '"2012-01-02","PIRKINYS 14.34","14.34","EUR","D"',
          '"2012-01-03","Įmoka","50.00","EUR","K"',
          '"2012-01-31","Likutis pabaigai","2159.48","EUR","K"'
        ].join('\n')
      ),
      's.csv',
      {}
    )
    expect(lithuanian.mapping.columns).toMatchObject({ indicator: 'D/K', currency: 'Valiuta' })
    expect(lithuanian.rows.all().map((r) => [r.amountMinor, r.currency])).toEqual([
      [-1434, 'EUR'],
      [5000, 'EUR']
    ])
    expect(lithuanian.proof).toMatchObject({ openingMinor: 212_382, closingMinor: 215_948, complete: true })
    const overdrawn = await parseStatement(
      utf8(
        [
          'Data,Paaiškinimai,Suma,Valiuta,D/K',
          '2012-01-01,Likutis pradžiai,10.00,EUR,D',
          '2012-01-02,Įmoka,50.00,EUR,K',
          '2012-01-31,Likutis pabaigai,40.00,EUR,K'
        ].join('\n')
      ),
      's.csv',
      {}
    )
    expect(overdrawn.proof).toMatchObject({ openingMinor: -1000, closingMinor: 4000, complete: true })
  })

  it('settles the date order by every row: one 13/10 makes the file day-first, 10/13 month-first', async () => {
    const dayFirst = await parseStatement(utf8('date,amount\n01/02/2026,1\n13/10/2026,1\n'), 's.csv', { defaultCurrency: 'NGN' })
    expect(dayFirst.rows.all().map((r) => r.date)).toEqual(['2026-02-01', '2026-10-13'])
    expect(dayFirst.dateForm).toBe('DD/MM/YYYY')
    const monthFirst = await parseStatement(utf8('date,amount\n01/02/2026,1\n10/13/2026,1\n'), 's.csv', { defaultCurrency: 'NGN' })
    expect(monthFirst.rows.all().map((r) => r.date)).toEqual(['2026-01-02', '2026-10-13'])
    expect(monthFirst.dateForm).toBe('MM/DD/YYYY')
  })

  it('asks about a file whose dates stay ambiguous, and reads it once answered', async () => {
    const text = 'date,amount\n01/02/2026,1\n03/04/2026,1\n'
    const asked = await parseStatement(utf8(text), 's.csv', { defaultCurrency: 'NGN' })
    expect(asked.rows.all()).toEqual([])
    expect(asked.questions).toEqual([expect.objectContaining({ field: 'dateOrder', choices: ['dmy', 'mdy'] })])
    const answered = await parseStatement(utf8(text), 's.csv', { defaultCurrency: 'NGN', dateOrder: 'mdy' })
    expect(answered.rows.all().map((r) => r.date)).toEqual(['2026-01-02', '2026-03-04'])
  })

  it('reads ISO, named-month and timed dates', async () => {
    const s = await parseStatement(
      utf8('date,amount\n2026-10-01T14:05:09Z,1\n02-Oct-2026,1\n3 Oct 2026 09:15,1\n2026/10/04 2:05 PM,1\n20261005,1\n'),
      's.csv',
      { defaultCurrency: 'NGN' }
    )
    expect(s.rows.all().map((r) => [r.date, r.time])).toEqual([
      ['2026-10-01', '14:05:09'],
      ['2026-10-02', null],
      ['2026-10-03', '09:15:00'],
      ['2026-10-04', '14:05:00'],
      ['2026-10-05', null]
    ])
    expect(s.dateForm).toBe('YYYY-MM-DD and DD-MMM-YYYY and YYYYMMDD')
    expect((await parseStatement(utf8('date,amount\n31-Oct-2026,1\n01-Nov-2026,1\n'), 's.csv', { defaultCurrency: 'NGN' })).dateForm).toBe(
      'DD-MMM-YYYY'
    )
    expect((await parseStatement(utf8('date;amount\nOct 31, 2026;1\nNov 2, 2026;1\n'), 's.csv', { defaultCurrency: 'NGN' })).dateForm).toBe(
      'MMM DD, YYYY'
    )
    expect((await parseStatement(utf8('date,amount\n13/10/2026,1\n'), 's.csv', { defaultCurrency: 'NGN' })).dateForm).toBe('DD/MM/YYYY')
  })

  it('names each bad row with its line, column and what is wrong; the good rows are kept', async () => {
    const s = await parseStatement(
      utf8(
        'Date,Amount,Currency\n2026-10-01,5.00,NGN\n2026-13-01,5.00,NGN\n2026-10-03,five,NGN\n2026-10-04,5.00,XXX\n2026-10-05,1.001,NGN\n'
      ),
      's.csv'
    )
    expect(s.rows.all().map((r) => r.line)).toEqual([2])
    expect(s.problems.map((p) => [p.line, p.column, p.code])).toEqual([
      [3, 'Date', 'invalid_date'],
      [4, 'Amount', 'invalid_amount'],
      [5, 'Currency', 'unknown_currency'],
      [6, 'Amount', 'too_many_decimals']
    ])
  })

  it('asks for a currency when the file names none, for columns it cannot find, and reports a mapping naming a missing column', async () => {
    expect((await parseStatement(utf8('date,amount\n2026-10-01,5\n'), 's.csv')).questions.map((q) => q.field)).toEqual(['defaultCurrency'])
    expect((await parseStatement(utf8('when,what\nyesterday,lunch\n'), 's.csv')).questions.map((q) => q.field)).toEqual([
      'columns',
      'columns'
    ])
    const missing = await parseStatement(utf8('date,amount\n2026-10-01,5\n'), 's.csv', {
      columns: { date: 'date', amount: 'Betrag' },
      defaultCurrency: 'NGN'
    })
    expect(missing.questions[0]?.message).toMatch(/no such column/)
  })

  it('guesses columns from the values when there is no header row', async () => {
    const s = await parseStatement(utf8('2026-10-01,"1,500.00",Transfer from Ada Obi\n2026-10-02,"2,000.00",Card payment Zed\n'), 's.csv', {
      defaultCurrency: 'NGN'
    })
    expect(s.headerLine).toBeNull()
    expect(s.mapping.columns).toMatchObject({ date: 'Column 1', amount: 'Column 2', description: 'Column 3' })
    expect(s.rows.all().map((r) => r.amountMinor)).toEqual([150000, 200000])
    // Of several columns of numbers, the amount is one with decimals, not a count of items.
    const counts = await parseStatement(utf8('2026-10-01,2,"1,500.00",Ada Obi\n2026-10-02,1,"2,000.00",Zed Ltd\n'), 's.csv', {
      defaultCurrency: 'NGN'
    })
    expect(counts.mapping.columns).toMatchObject({ date: 'Column 1', amount: 'Column 3' })
  })

  it('takes a header of words in no list as the header row, and maps its columns from the values', async () => {
    const s = await parseStatement(
      utf8(
        'Example Bank\nPosted;Memo line;Sum;Cur\n13.10.2026;Transfer from Ada Obi;1.500,00;NGN\n14.10.2026;Card payment Zed;2.000,00;NGN\n'
      ),
      's.csv'
    )
    expect(s.headerLine).toBe(2)
    expect(s.mapping.columns).toMatchObject({ date: 'Posted', amount: 'Sum', currency: 'Cur', description: 'Memo line' })
    expect(s.rows.all().map((r) => [r.line, r.date, r.amountMinor])).toEqual([
      [3, '2026-10-13', 150000],
      [4, '2026-10-14', 200000]
    ])
    expect(s.problems).toEqual([])
  })

  it('maps an order export and a ledger by their own headers, and takes the currency an amount header names', async () => {
    const orders = await parseStatement(
      utf8(
        'Order #,Created At,Customer Email,Items,Subtotal,Total (NGN),Status\nORD-1001,2026-10-01 09:12,ada@example.com,2,"1,400.00","1,500.00",paid\n'
      ),
      'orders.csv'
    )
    expect(orders.mapping.columns).toMatchObject({
      date: 'Created At',
      reference: 'Order #',
      amount: 'Total (NGN)',
      counterparty: 'Customer Email'
    })
    expect(orders.questions).toEqual([])
    expect(orders.rows.all().map((r) => [r.date, r.reference, r.amountMinor, r.currency])).toEqual([
      ['2026-10-01', 'ORD-1001', 150000, 'NGN']
    ])
    const ledger = await parseStatement(
      utf8(
        'Doc No;Entry Date;Account;Soll;Haben;Buchungstext\nRE-7;13.10.2026;1200;;15,00;Zahlung Kunde\nRE-8;02.10.2026;1200;2,50;;Gebühr\n'
      ),
      'ledger.csv',
      { defaultCurrency: 'EUR' }
    )
    expect(ledger.mapping.columns).toMatchObject({
      reference: 'Doc No',
      date: 'Entry Date',
      debit: 'Soll',
      credit: 'Haben',
      description: 'Buchungstext'
    })
    expect(ledger.rows.all().map((r) => r.amountMinor)).toEqual([1500, -250])
  })

  it('reads the first sheet of an XLSX workbook, below its header block, with real dates and numbers', async () => {
    const workbook = new ExcelJS.Workbook()
    const sheet = workbook.addWorksheet('Statement')
    sheet.addRow(['Example Bank'])
    sheet.addRow([])
    sheet.addRow(['Posting Date', 'Description', 'Reference', 'Amount', 'Currency'])
    sheet.addRow([new Date(Date.UTC(2026, 9, 2)), 'Transfer', '000123', 1500.5, 'NGN'])
    sheet.addRow(['13/10/2026', 'Fee', '', -52.5, 'NGN'])
    // A formula's result carries binary noise; the amount is what Excel shows.
    sheet.addRow([new Date(Date.UTC(2026, 9, 14)), 'Settlement', 'S-1', { formula: '20000.27+46.11', result: 20046.379999999997 }, 'NGN'])
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer())
    const s = await parseStatement(bytes, 'bank.xlsx')
    expect(s.sheet).toBe('Statement')
    expect(s.problems).toEqual([])
    expect(s.rows.all().map((r) => [r.line, r.date, r.reference, r.amountMinor])).toEqual([
      [4, '2026-10-02', '000123', 150050],
      [5, '2026-10-13', null, -5250],
      [6, '2026-10-14', 'S-1', 2004638]
    ])
  })

  it('refuses a file that is not a workbook or a table with a clear message', async () => {
    await expect(parseStatement(Buffer.from('PK\u0003\u0004garbage'), 'broken.xlsx')).rejects.toThrow(
      /broken.xlsx is a zip archive that is not an Excel workbook/
    )
    await expect(parseStatement(Buffer.from('PK\u0003\u0004..xl/workbook.xml..'), 'cut.xlsx')).rejects.toThrow(
      /cut.xlsx is damaged: it has no zip directory at its end \(cut short, or not a zip\)/
    )
    await expect(parseStatement(utf8(''), 'empty.csv', { defaultCurrency: 'NGN' })).rejects.toThrow(/empty.csv is an empty file/)
    const nothing = await parseStatement(utf8('just some words\n'), 'words.csv', { defaultCurrency: 'NGN' })
    expect(nothing.rows.all()).toEqual([])
    expect(nothing.questions.length).toBeGreaterThan(0)
  })

  it('gives the same row the same id in any file and order, and tells identical rows apart', async () => {
    const a = await parseStatement(utf8('date,amount,ref\n2026-10-01,5,A-1\n2026-10-01,5,A-1\n2026-10-02,6,B-2\n'), 'a.csv', {
      defaultCurrency: 'NGN'
    })
    const b = await parseStatement(utf8('Ref;Date;Amount\nb-2;2026-10-02;6,00\n'), 'b.csv', { defaultCurrency: 'NGN' })
    expect(new Set(a.rows.all().map((r) => r.id)).size).toBe(3)
    expect(b.rows.all()[0]?.id).toBe(a.rows.all()[2]?.id)
  })

  it('still tells identical rows apart in a file long enough to grow its table of ids', async () => {
    const lines = [
      'date,amount,ref',
      '2026-10-01,5,SAME-1',
      ...Array.from({ length: 40_000 }, (_, i) => `2026-10-02,${i + 1},R-${i}`),
      '2026-10-01,5,SAME-1'
    ]
    const s = await parseStatement(utf8(lines.join('\n')), 'long.csv', { defaultCurrency: 'NGN' })
    expect(s.rows).toHaveLength(40_002)
    expect(new Set(s.rows.all().map((r) => r.id)).size).toBe(40_002)
    expect(s.rows.at(-1)?.id).toBe(`${s.rows.all()[0]?.id}#1`)
  })
})

describe('references', () => {
  it('compares references as people write them', () => {
    expect(normaliseReference('  pay-ref-0001 ')).toBe('PAYREF0001')
    expect(normaliseReference('PAY/REF/0001')).toBe('PAYREF0001')
    expect(referenceCandidates(' ref: pay-ref-0001')).toEqual(['REFPAYREF0001', 'PAYREF0001'])
    expect(referenceCandidates('TRF/NIP/INV-77')).toEqual(['TRFNIPINV77', 'INV77'])
    expect(referenceCandidates('REFUND1')).toEqual(['REFUND1'])
    // A business's own prefixes stay: two references never become one.
    expect(referenceCandidates('INV-12')).toEqual(['INV12'])
    expect(referenceTokens('NIP/TRF FROM ADA (PAY-REF-0001), ref:INV-2026-0042.')).toEqual(
      expect.arrayContaining(['PAYREF0001', 'INV20260042'])
    )
  })

  it('finds a reference typed with spaces around its hyphen or slash in a description, and keeps its parts', () => {
    expect(referenceTokens('NIP TRANSFER FROM ADA ref TST - 0000206')).toEqual(['0000206', 'TST0000206'])
    expect(referenceTokens('INV /2026- 0042 and 12345678 - 87654321')).toEqual(['12345678', '87654321', 'INV20260042', '1234567887654321'])
    // Without spaces nothing is read twice.
    expect(referenceTokens('PAY-REF-0001')).toEqual(['PAYREF0001'])
  })
})

describe('dayNumber', () => {
  it('counts days since 1970-01-01 exactly as the calendar does, for every day of eight centuries', () => {
    const byDate = (day: string): number =>
      Math.round(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / 86_400_000)
    const wrong: string[] = []
    for (let t = Date.UTC(1600, 0, 1); t < Date.UTC(2400, 0, 1); t += 86_400_000) {
      const day = new Date(t).toISOString().slice(0, 10)
      if (dayNumber(day) !== Math.round(t / 86_400_000)) wrong.push(day)
    }
    expect(wrong).toEqual([])
    // Anything not a plain day goes the calendar's way (rolling over, or NaN), as before.
    for (const odd of ['2026-02-30', '2026-13-01', '2026-1-15', '2026-10-05T10:00:00', 'not a day'])
      expect(dayNumber(odd)).toEqual(byDate(odd))
  })
})

describe('a currency named in the bank header block', () => {
  it('is the default for rows that name none, unless the mapping says otherwise', async () => {
    const text = 'FIRST BANK\nAccount currency: GHS\n\nDate,Ref,Amount\n2026-10-01,A-1,"1,000.50"\n'
    const read = await parseStatement(utf8(text), 's.csv')
    expect(read.questions).toEqual([])
    expect(read.rows.all().map((r) => [r.currency, r.amountMinor])).toEqual([['GHS', 100_050]])
    expect((await parseStatement(utf8(text.replace('Account currency: GHS', 'Currency,KES')), 's.csv')).rows.all()[0]?.currency).toBe('KES')
    // A currency given only fills what the file leaves open: one that contradicts the file is refused, naming both.
    await expect(parseStatement(utf8(text), 's.csv', { defaultCurrency: 'NGN' })).rejects.toThrow(
      's.csv states its currency is GHS (in its header block), not the NGN given'
    )
    expect((await parseStatement(utf8(text), 's.csv', { defaultCurrency: 'GHS' })).rows.all()[0]?.currency).toBe('GHS')
    // Not a currency code: still asked.
    expect(
      (await parseStatement(utf8(text.replace('Account currency: GHS', 'Currency,ABC')), 's.csv')).questions.map((q) => q.field)
    ).toEqual(['defaultCurrency'])
  })
})

describe('rowContentId', () => {
  /** The id as first defined: the joined text hashed in one piece (ids stored by earlier versions must still be found). */
  const joinedId = (
    currency: string,
    day: string,
    minor: number,
    reference: string | null,
    description: string | null,
    counterparty: string | null
  ): string => {
    const content = `${currency}\u001f${day}\u001f${minor}\u001f${normaliseReference(reference ?? '')}\u001f${description ?? ''}\u001f${counterparty ?? ''}`
    let a = 0x6a09e667 | 0
    let b = 0x3c6ef372 | 0
    let c = 0x510e527f | 0
    for (let i = 0; i < content.length; i++) {
      const k = content.charCodeAt(i)
      a = Math.imul(a ^ k, 0x01000193)
      b = Math.imul(b ^ k, 0x5bd1e995)
      c = Math.imul(c ^ k, 0x27d4eb2f)
    }
    const mix = (h: number): number => {
      h ^= h >>> 16
      h = Math.imul(h, 0x85ebca6b | 0)
      h ^= h >>> 13
      h = Math.imul(h, 0xc2b2ae35 | 0)
      return h ^ (h >>> 16)
    }
    const bytes = Buffer.allocUnsafe(12)
    bytes.writeInt32LE(mix(a ^ content.length), 0)
    bytes.writeInt32LE(mix(b), 4)
    bytes.writeInt32LE(mix(c), 8)
    return `f:${bytes.toString('base64url')}`
  }

  it('is the id of the joined row text, fed piece by piece', () => {
    expect(rowContentId('NGN', '2026-10-01', -123456, ' ord-0001 ', 'NIP TRANSFER', null)).toBe(
      joinedId('NGN', '2026-10-01', -123456, ' ord-0001 ', 'NIP TRANSFER', null)
    )
    const text = fc.option(fc.string({ unit: 'binary' }), { nil: null })
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
        text,
        text,
        text,
        (currency, day, minor, reference, description, counterparty) => {
          expect(rowContentId(currency, day, minor, reference, description, counterparty)).toBe(
            joinedId(currency, day, minor, reference, description, counterparty)
          )
        }
      ),
      propertyRuns(2000)
    )
  })
})

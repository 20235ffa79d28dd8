// Excel-safe CSV: BOM, CRLF, exact amounts, identifiers kept as text, formula injection neutralised.
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import {
  amount,
  BOM,
  date,
  formatCell,
  identifier,
  integer,
  measure,
  plainFileName,
  text,
  toExcelCsv
} from '../../src/shared/csv/excel-safe'

describe('cells', () => {
  it('neutralises every formula-looking start in free text', () => {
    for (const attack of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\t=x', '\r=x', '\n=x', '=HYPERLINK("http://x","click")']) {
      const out = formatCell(text(attack))
      const parsed = (Papa.parse<string[]>(out, { delimiter: ',' }).data[0] ?? [])[0] ?? ''
      expect(parsed.startsWith("'"), JSON.stringify(attack)).toBe(true)
      expect(parsed.slice(1)).toBe(attack)
    }
    expect(formatCell(text('Salary, November'))).toBe('"Salary, November"')
    expect(formatCell(text('He said "paid"'))).toBe('"He said ""paid"""')
    expect(formatCell(text('Adaeze Okafor'))).toBe('"Adaeze Okafor"')
  })

  it('writes amounts as exact decimals and never neutralises a negative amount', () => {
    expect(formatCell(amount(-123450, 'NGN'))).toBe('-1234.50')
    expect(formatCell(amount(29, 'NGN'))).toBe('0.29')
    expect(formatCell(amount(1500, 'JPY'))).toBe('1500')
    expect(formatCell(amount(1, 'KWD'))).toBe('0.001')
    expect(formatCell(amount(9007199254740991, 'USD'))).toBe('90071992547409.91')
  })

  it('writes a count as a whole number and a score with its fraction, refusing what is neither', () => {
    expect(formatCell(integer(7))).toBe('7')
    expect(() => formatCell(integer(1.5))).toThrow(/not a whole number/)
    expect(formatCell(measure(1.5))).toBe('1.5')
    expect(formatCell(measure(-0.25), 'plain')).toBe('-0.25')
    expect(() => formatCell(measure(Number.NaN))).toThrow(/not a number/)
  })

  it('writes every identifier one way, so Excel keeps each as text, without giving an attacker a formula', () => {
    expect(formatCell(identifier('0123456789'))).toBe('"=""0123456789"""')
    expect(formatCell(identifier('12345678901234567890'))).toBe('"=""12345678901234567890"""')
    expect(formatCell(identifier('1-2'))).toBe('"=""1-2"""')
    expect(formatCell(identifier('1E5'))).toBe('"=""1E5"""')
    // One form for a whole column: a reference and a phone number are wrapped like an account number.
    expect(formatCell(identifier('TST-0000123'))).toBe('"=""TST-0000123"""')
    expect(formatCell(identifier('+233241234567'))).toBe('"=""+233241234567"""')
    // Too long for a string in an Excel formula: text instead.
    expect(formatCell(identifier('A'.repeat(256)))).toBe(`"${'A'.repeat(256)}"`)
    expect(formatCell(identifier('-1'))).toBe('"=""-1"""')
    // Attacker-controlled values are never wrapped in a formula: they become neutralised text.
    expect(formatCell(identifier('=cmd|"/c calc"!A1'))).toBe(`"'=cmd|""/c calc""!A1"`)
    expect(formatCell(identifier('0") & HYPERLINK("x'))).toBe('"0"") & HYPERLINK(""x"')
    expect(formatCell(integer(42))).toBe('42')
    expect(formatCell(null)).toBe('')
  })
})

describe('toExcelCsv', () => {
  it('starts with a BOM, ends every line in CRLF, and round-trips through a CSV parser', () => {
    const csv = toExcelCsv(
      ['reference', 'amount', 'currency', 'account_number', 'narration'],
      [
        [identifier('INV-0001'), amount(-500, 'GHS'), text('GHS'), identifier('0012345678'), text('=WEBSERVICE("x")')],
        [identifier('INV-0002'), amount(123456789, 'NGN'), text('NGN'), null, text('Multi\nline, "quoted"')]
      ]
    )
    expect(csv.startsWith(BOM)).toBe(true)
    expect(csv.endsWith('\r\n')).toBe(true)
    expect(csv.replace(/\r\n/g, '').includes('\n=')).toBe(false)
    const rows = Papa.parse<string[]>(csv.slice(1), { newline: '\r\n', delimiter: ',' }).data.filter((r) => r.length > 1)
    expect(rows).toEqual([
      ['reference', 'amount', 'currency', 'account_number', 'narration'],
      ['="INV-0001"', '-5.00', 'GHS', '="0012345678"', `'=WEBSERVICE("x")`],
      ['="INV-0002"', '1234567.89', 'NGN', '', 'Multi\nline, "quoted"']
    ])
  })

  it('writes a plain CSV for accounting software, pandas and SQL: no BOM, every text value quoted exactly as it is', () => {
    const csv = toExcelCsv(
      ['reference', 'amount', 'phone', 'account_number', 'narration', 'day', 'count'],
      [
        [
          identifier('INV-0001'),
          amount(-500, 'GHS'),
          identifier('+233241234567'),
          identifier('0012345678'),
          text('=WEBSERVICE("x")'),
          date('2026-10-30'),
          integer(3)
        ]
      ],
      'plain'
    )
    expect(csv.startsWith(BOM)).toBe(false)
    expect(csv).toBe(
      '"reference","amount","phone","account_number","narration","day","count"\r\n"INV-0001",-5.00,"+233241234567","0012345678","=WEBSERVICE(""x"")","2026-10-30",3\r\n'
    )
    expect(plainFileName('report.csv')).toBe('report-plain-not-for-excel.csv')
  })

  it('refuses a row that does not match the header', () => {
    expect(() => toExcelCsv(['a', 'b'], [[text('x')]])).toThrow(/1 cells but the header has 2/)
  })
})

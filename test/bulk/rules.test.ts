// Bulk CSV rules against a corpus of hostile files: every problem on its row and column, with its code; nothing ever throws.
import { describe, expect, it } from 'vitest'
import type { BulkProblem } from '../../src/shared/bulk/problems'
import { ProblemList } from '../../src/shared/bulk/problems'
import { rowChecker, validateBulkBytes, validateBulkText, type BulkContext } from '../../src/shared/bulk/validate'

const BANKS: BulkContext['banks'] = new Map([
  [
    'NGN',
    new Map([
      ['058', 'Guaranty Trust Bank'],
      ['044', 'Access Bank'],
      ['999240', 'Sandbox MFB']
    ])
  ],
  ['GHS', new Map([['GH030100', 'Absa Ghana']])]
])
const context: BulkContext = { banks: BANKS, planReferences: new Set(['PLAN-IN-CACHE']) }

const TRANSFER_HEADER = 'amount,currency,bank_code,branch_code,account_number,account_name,narration'
const GOOD_TRANSFER = '5000.00,NGN,058,,0123456789,Adaeze Okafor,November salary'
const transfers = (...rows: string[]): string => [TRANSFER_HEADER, ...rows].join('\r\n') + '\r\n'

const PLAN_HEADER = 'title,frequency,amount,currency,internalReference,pricingOptions'
const GOOD_PLAN = 'Gold,monthly,5000.00,NGN,PLAN-GOLD,NGN:5000.00;GHS:45.00'
const plans = (...rows: string[]): string => [PLAN_HEADER, ...rows].join('\n')

/** The problems as `row column code`, for compact expectations. */
const where = (problems: BulkProblem[]): string[] => problems.map((p) => `${p.row ?? '-'} ${p.column ?? '-'} ${p.code}`)

describe('a valid file', () => {
  it('has no problems and totals per currency, exactly', () => {
    const { report, table } = validateBulkText(
      'transfers',
      transfers(GOOD_TRANSFER, '0.10,NGN,044,,1234567890,Bola Ade,Refund', '12.5,GHS,GH030100,030100,12345678,Kofi Mensah,Fees'),
      context
    )
    expect(report.errors).toEqual([])
    expect(report.warnings).toEqual([])
    expect(report.valid).toBe(true)
    expect(report.rows).toBe(3)
    expect(report.totals).toEqual([
      { currency: 'GHS', rows: 1, minor: 1250, amount: '12.50' },
      { currency: 'NGN', rows: 2, minor: 500010, amount: '5000.10' }
    ])
    expect(table.rows[0]).toEqual(['5000.00', 'NGN', '058', '', '0123456789', 'Adaeze Okafor', 'November salary'])
  })

  it('reads BOM, LF or CRLF, semicolons, tabs, quoted commas, quotes and line breaks, any header order, case and spacing', () => {
    const text =
      '\uFEFF Account Number ;NARRATION;amount;Currency;Bank_Code;branch code;account name\n' +
      '0123456789;"Salary; ""November""\nsecond line";5000;NGN;058;;"Okafor, Adaeze"\n\n\n'
    const { report, table } = validateBulkText('transfers', text, context)
    expect(where(report.errors)).toEqual(['2 narration narration_line_break'])
    expect(where(report.warnings)).toEqual(['- - not_comma_separated'])
    expect(table.rows[0]).toEqual(['5000', 'NGN', '058', '', '0123456789', 'Okafor, Adaeze', 'Salary; "November"\nsecond line'])
    const tabbed = validateBulkText(
      'transfers',
      TRANSFER_HEADER.replaceAll(',', '\t') + '\n' + GOOD_TRANSFER.replaceAll(',', '\t') + '\n',
      context
    )
    expect(tabbed.report.valid).toBe(true)
  })

  it('numbers rows as a spreadsheet does, counting the header, quoted line breaks and blank rows', () => {
    const text = transfers('5000,NGN,058,,0123456789,"Name\nover two lines",Pay', '', 'abc,NGN,058,,0123456789,Bola,Pay')
    const { report } = validateBulkText('transfers', text, context)
    expect(where(report.errors)).toEqual(['2 account_name account_name_line_break', '4 amount amount_not_a_number'])
    expect(where(report.warnings)).toEqual(['3 - blank_row'])
  })
})

describe('file problems', () => {
  it.each([
    ['empty', '', ['- - file_empty']],
    ['only spaces', ' \r\n \r\n', ['- - file_empty']],
    ['header only', TRANSFER_HEADER + '\r\n', ['- - no_rows']],
    ['not a CSV', '{"amount": 5}', ['1 - not_csv']],
    [
      'missing columns',
      'amount,currency,bank_code,account_number\n5,NGN,058,0123456789',
      ['1 branch_code missing_column', '1 account_name missing_column', '1 narration missing_column']
    ],
    [
      'quote never closed',
      TRANSFER_HEADER + '\n5000,NGN,058,,0123456789,"Adaeze,Pay\n6000,NGN,058,,0123456789,Bola,Pay',
      ['2 - quote_not_closed']
    ]
  ])('%s', (_name, text, expected) => {
    const { report } = validateBulkText('transfers', text, context)
    expect(where(report.errors).slice(0, expected.length)).toEqual(expected)
    expect(report.valid).toBe(false)
  })

  it('reports a repeated column and warns about unknown ones', () => {
    const { report } = validateBulkText('transfers', TRANSFER_HEADER + ',AMOUNT,notes\n' + GOOD_TRANSFER + ',6000,hello', context)
    expect(where(report.errors)).toEqual(['1 amount duplicate_column'])
    expect(where(report.warnings)).toEqual(['1 - unknown_column'])
    expect(report.warnings[0]?.message).toContain('"notes"')
  })

  it('reports rows with too many or too few cells', () => {
    const { report } = validateBulkText(
      'transfers',
      transfers('5,000.00,NGN,058,,0123456789,Adaeze,Pay', '5000,NGN,058,,0123456789'),
      context
    )
    expect(where(report.errors)).toContain('2 - extra_cells')
    expect(where(report.errors)).toContain('3 - missing_cells')
    expect(report.errors.find((p) => p.code === 'missing_cells')?.message).toContain('account_name, narration')
  })

  it('refuses workbooks, binary data and oversized files from bytes, and reads UTF-16 and Windows-1252 with a warning', () => {
    const codes = (bytes: Uint8Array): string[] => {
      const { report } = validateBulkBytes('transfers', bytes, context)
      return [...where(report.errors), ...where(report.warnings)]
    }
    expect(codes(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toEqual(['- - not_csv'])
    expect(codes(new Uint8Array([0x61, 0x00, 0x6d, 0x00, 0x6f]))).toEqual(['- - not_csv'])
    expect(codes(new Uint8Array(33 * 1024 * 1024).fill(0x61))).toEqual(['- - file_too_large'])
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(transfers(GOOD_TRANSFER.replace('Adaeze', 'Adaézé')), 'utf16le')])
    expect(codes(utf16)).toEqual(['- - not_utf8'])
    const latin1 = Buffer.from(transfers(GOOD_TRANSFER.replace('Adaeze', 'Adaézé')), 'latin1')
    const read = validateBulkBytes('transfers', latin1, context)
    expect(where(read.report.warnings)).toEqual(['- - not_utf8'])
    expect(read.table.rows[0]?.[5]).toBe('Adaézé Okafor')
  })

  it('refuses more rows than one file may hold', () => {
    const rows = Array.from({ length: 100_001 }, () => GOOD_TRANSFER)
    const { report } = validateBulkText('transfers', transfers(...rows), { banks: BANKS })
    expect(where(report.errors)[0]).toBe('- - too_many_rows')
  })
})

describe('transfer rows', () => {
  const errorsOf = (row: string, ctx: BulkContext = context): string[] =>
    where(validateBulkText('transfers', transfers(row), ctx).report.errors)

  it.each([
    ['amount missing', ',NGN,058,,0123456789,A,B', '2 amount amount_missing'],
    ['amount not a number', 'five,NGN,058,,0123456789,A,B', '2 amount amount_not_a_number'],
    ['amount zero', '0.00,NGN,058,,0123456789,A,B', '2 amount amount_not_positive'],
    ['amount negative', '-50,NGN,058,,0123456789,A,B', '2 amount amount_not_positive'],
    ['amount in brackets', '(50.00),NGN,058,,0123456789,A,B', '2 amount amount_not_positive'],
    ['too many decimals', '50.001,NGN,058,,0123456789,A,B', '2 amount amount_too_many_decimals'],
    ['thousands separators', '"5,000.00",NGN,058,,0123456789,A,B', '2 amount amount_has_separators'],
    ['decimal comma', '"5000,50",NGN,058,,0123456789,A,B', '2 amount amount_has_separators'],
    ['currency symbol', '₦5000,NGN,058,,0123456789,A,B', '2 amount amount_has_currency'],
    ['currency code in amount', 'NGN 5000,NGN,058,,0123456789,A,B', '2 amount amount_has_currency'],
    ['scientific amount', '1.5E+06,NGN,058,,0123456789,A,B', '2 amount amount_not_a_number'],
    ['currency missing', '50,,058,,0123456789,A,B', '2 currency currency_missing'],
    ['currency not ISO', '50,NAIRA,058,,0123456789,A,B', '2 currency currency_not_iso'],
    ['currency lower case', '50,ngn,058,,0123456789,A,B', '2 currency currency_not_iso'],
    ['currency not for payouts', '50,USD,058,,0123456789,A,B', '2 currency currency_not_supported'],
    ['bank code missing', '50,NGN,,,0123456789,A,B', '2 bank_code bank_code_missing'],
    ['bank code unknown', '50,NGN,123,,0123456789,A,B', '2 bank_code bank_code_unknown'],
    ['bank code lost its zero', '50,NGN,58,,0123456789,A,B', '2 bank_code bank_code_leading_zero'],
    ['bank of the other currency', '50,GHS,058,,12345678,A,B', '2 bank_code bank_code_unknown'],
    ['branch code with letters', '50,NGN,058,A1,0123456789,A,B', '2 branch_code branch_code_not_digits'],
    ['account missing', '50,NGN,058,,,A,B', '2 account_number account_number_missing'],
    ['account with letters', '50,NGN,058,,01234S6789,A,B', '2 account_number account_number_not_digits'],
    ['account with spaces', '50,NGN,058,,0123 456 789,A,B', '2 account_number account_number_not_digits'],
    ['account too short', '50,NGN,058,,12345,A,B', '2 account_number account_number_length'],
    ['account too long', '50,NGN,058,,01234567890,A,B', '2 account_number account_number_length'],
    ['account lost its zero', '50,NGN,058,,123456789,A,B', '2 account_number account_number_leading_zero'],
    ['account in scientific notation', '50,NGN,058,,1.23457E+09,A,B', '2 account_number account_number_scientific'],
    ['account as a decimal number', '50,NGN,058,,1234567890.0,A,B', '2 account_number account_number_decimal'],
    ['name missing', '50,NGN,058,,0123456789,,B', '2 account_name account_name_missing'],
    ['name too long', `50,NGN,058,,0123456789,${'N'.repeat(101)},B`, '2 account_name account_name_too_long'],
    ['narration missing', '50,NGN,058,,0123456789,A,', '2 narration narration_missing'],
    ['narration too long', `50,NGN,058,,0123456789,A,${'x'.repeat(101)}`, '2 narration narration_too_long']
  ])('%s', (_name, row, expected) => {
    expect(errorsOf(row)).toEqual([expected])
  })

  it('says what a damaged value probably was', () => {
    const report = validateBulkText(
      'transfers',
      transfers('50,NGN,58,,123456789,A,B', '"₦1,250.50",NGN,058,,0123456789,A,B'),
      context
    ).report
    expect(report.errors.map((p) => p.message)).toEqual([
      expect.stringContaining('058 (Guaranty Trust Bank)'),
      expect.stringContaining('0123456789?'),
      expect.stringContaining('1250.50')
    ])
  })

  it('warns once per currency that bank codes could not be checked without a cached list', () => {
    const report = validateBulkText('transfers', transfers(GOOD_TRANSFER, GOOD_TRANSFER.replace('5000', '6000')), {}).report
    expect(report.valid).toBe(true)
    expect(where(report.warnings)).toEqual(['2 bank_code bank_list_missing'])
  })

  it('finds a payee paid twice however far apart, past any table size, and never confuses different payouts', () => {
    // A pass that expects no rows has to grow its tables many times over.
    const check = rowChecker('transfers', context)
    const problems = new ProblemList()
    const account = (i: number): string => String(1_000_000_000 + i)
    for (let i = 0; i < 5000; i++) check(['10.00', 'NGN', '058', '', account(i), 'A', 'B'], i + 2, problems)
    for (let i = 0; i < 5000; i += 1000) check(['10.00', 'NGN', '058', '', account(i), 'A', 'B'], 6000 + i, problems)
    check(['10.01', 'NGN', '058', '', account(7), 'A', 'B'], 9000, problems)
    check(['10.00', 'NGN', '044', '', account(7), 'A', 'B'], 9001, problems)
    expect(problems.items.map((p) => `${p.row} ${p.code} ${/row (\d+)/.exec(p.message)?.[1]}`)).toEqual([
      '6000 duplicate_transfer 2',
      '7000 duplicate_transfer 1002',
      '8000 duplicate_transfer 2002',
      '9000 duplicate_transfer 3002',
      '10000 duplicate_transfer 4002'
    ])
  })

  it('warns about the same account, bank and amount twice, and a formula-looking text', () => {
    const report = validateBulkText(
      'transfers',
      transfers(GOOD_TRANSFER, '5000,NGN,058,,0123456789,Adaeze,=HYPERLINK("x")'),
      context
    ).report
    expect(report.valid).toBe(true)
    expect(where(report.warnings)).toEqual(['3 account_number duplicate_transfer', '3 narration formula_start'])
    expect(report.warnings[0]?.message).toContain('row 2')
  })
})

describe('plan rows', () => {
  const errorsOf = (...rows: string[]): string[] => where(validateBulkText('plans', plans(...rows), context).report.errors)

  it('accepts a valid plan file and totals it', () => {
    const report = validateBulkText('plans', plans(GOOD_PLAN, 'Silver,biannually,45,GHS,PLAN-SILVER,GHS:45'), context).report
    expect(report.errors).toEqual([])
    expect(report.totals.map((t) => `${t.currency} ${t.amount}`)).toEqual(['GHS 45.00', 'NGN 5000.00'])
  })

  it.each([
    ['title missing', ',monthly,5000,NGN,P1,NGN:5000', '2 title title_missing'],
    ['frequency missing', 'Gold,,5000,NGN,P1,NGN:5000', '2 frequency frequency_missing'],
    ['frequency not one of six', 'Gold,fortnightly,5000,NGN,P1,NGN:5000', '2 frequency frequency_invalid'],
    ['frequency as the plan enum', 'Gold,MONTHLY,5000,NGN,P1,NGN:5000', '2 frequency frequency_invalid'],
    ['amount with separators', 'Gold,monthly,"5,000",NGN,P1,NGN:5000', '2 amount amount_has_separators'],
    ['currency not ISO', 'Gold,monthly,5000,XYZ,P1,NGN:5000', '2 currency currency_not_iso'],
    ['reference missing', 'Gold,monthly,5000,NGN,,NGN:5000', '2 internalReference internal_reference_missing'],
    ['reference like a formula', 'Gold,monthly,5000,NGN,-P1,NGN:5000', '2 internalReference formula_start'],
    ['reference in the cache', 'Gold,monthly,5000,NGN,PLAN-IN-CACHE,NGN:5000', '2 internalReference internal_reference_in_use'],
    ['pricing missing', 'Gold,monthly,5000,NGN,P1,', '2 pricingOptions pricing_options_missing'],
    ['pricing not pairs', 'Gold,monthly,5000,NGN,P1,5000 NGN', '2 pricingOptions pricing_options_malformed'],
    ['pricing amount first', 'Gold,monthly,5000,NGN,P1,5000:NGN', '2 pricingOptions pricing_options_currency'],
    ['pricing bad amount', 'Gold,monthly,5000,NGN,P1,NGN:5.001', '2 pricingOptions amount_too_many_decimals'],
    ['pricing currency twice', 'Gold,monthly,5000,NGN,P1,NGN:5000;NGN:6000', '2 pricingOptions pricing_options_repeated_currency']
  ])('%s', (_name, row, expected) => {
    expect(errorsOf(row)).toEqual([expected])
  })

  it('reports a repeated title and a repeated reference on the later row', () => {
    expect(errorsOf(GOOD_PLAN, 'gold,weekly,100,NGN,PLAN-GOLD,NGN:100')).toEqual([
      '3 title title_repeated',
      '3 internalReference internal_reference_repeated'
    ])
  })

  it('suggests the spec word for a near miss', () => {
    const report = validateBulkText('plans', plans('Gold,Yearly,5000,NGN,P1,NGN:5000'), context).report
    expect(report.errors[0]?.message).toContain('write annually')
  })
})

// The provider file checked against oracles that are not its writer: bytes written out by hand for awkward cells, and papaparse's
// reading of random files whose text holds line breaks, quotes, separators, formula starts and characters of every Unicode class.
import fc from 'fast-check'
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { BULK_COLUMNS } from '../../src/shared/bulk/read'
import { validateBulkText, type BulkContext } from '../../src/shared/bulk/validate'
import { providerCsv } from '../../src/shared/bulk/write'
import { neutralise } from '../../src/shared/csv/excel-safe'
import { propertyRuns } from '../support/property'

const banks: BulkContext['banks'] = new Map([['NGN', new Map([['058', 'GTBank']])]])

/** The file as another CSV reader reads it: its rows of cells (the CRLF after the last row ends it, it is no row). */
const papaRows = (csv: string): string[][] => {
  expect(csv.endsWith('\r\n')).toBe(true)
  const parsed = Papa.parse<string[]>(csv.slice(0, -2), { delimiter: ',', newline: '\r\n', quoteChar: '"' })
  expect(parsed.errors).toEqual([])
  return parsed.data
}

describe('the provider transfer file', () => {
  it('is, byte for byte, the file written out by hand for cells with quotes, commas, edge spaces, formula starts and other scripts', () => {
    const rows = [
      ['5000.00', 'NGN', '058', '', '0123456789', 'O\'Brien, "Tunde"', 'Invoice 12, part 2'],
      ['10.00', 'NGN', '058', '', '0123456780', ' Ada Eze', '=HYPERLINK("x")'],
      ['1.50', 'NGN', '058', '', '0123456781', 'Zoë Ñandú 李雷', '-5 refund'],
      ['2.00', 'NGN', '058', '', '0123456782', '@home', 'Fee ₦20 ']
    ]
    expect(providerCsv('transfers', rows)).toBe(
      'amount,currency,bank_code,branch_code,account_number,account_name,narration\r\n' +
        '5000.00,NGN,058,,0123456789,"O\'Brien, ""Tunde""","Invoice 12, part 2"\r\n' +
        '10.00,NGN,058,,0123456780," Ada Eze","\'=HYPERLINK(""x"")"\r\n' +
        "1.50,NGN,058,,0123456781,Zoë Ñandú 李雷,'-5 refund\r\n" +
        '2.00,NGN,058,,0123456782,\'@home,"Fee ₦20 "\r\n'
    )
  })
})

describe('the provider plan file', () => {
  it('is, byte for byte, the file written out by hand, and papaparse reads the rows back', () => {
    const rows = [
      ['Gold, yearly', 'annually', '50000.00', 'NGN', 'GOLD-1', 'NGN:50000.00;GHS:4500'],
      ['+Plus "lite"', 'monthly', '9.99', 'USD', 'PLUS_2', '']
    ]
    const csv = providerCsv('plans', rows)
    expect(csv).toBe(
      'title,frequency,amount,currency,internalReference,pricingOptions\r\n' +
        '"Gold, yearly",annually,50000.00,NGN,GOLD-1,NGN:50000.00;GHS:4500\r\n' +
        `"'+Plus ""lite""",monthly,9.99,USD,PLUS_2,\r\n`
    )
    expect(papaRows(csv)).toEqual([[...BULK_COLUMNS.plans], rows[0], [`'+Plus "lite"`, 'monthly', '9.99', 'USD', 'PLUS_2', '']])
  })
})

/** Text from every Unicode class: letters of other scripts, marks, digits, separators, symbols, emoji, controls. */
const anyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...'\n\r\t",;\'=+-@ \u00a0\u2028\u200b\u0301'.split('')),
    fc.constantFrom('é', 'ß', '李', 'ع', 'ש', 'Ж', 'ǅ', '١', '½', '€', '₦', '™', '😀', '👩🏽‍💻', '\u0007', '\u007f'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'.split(''))
  ),
  minLength: 1,
  maxLength: 40
})

describe('random transfer files', () => {
  it('hold what was typed, as papaparse reads them and as Ledgerline reads them back; a line break is an error on its cell, a formula start a warning', () => {
    const row = fc.tuple(fc.stringMatching(/^\d{1,6}\.\d\d$/), fc.stringMatching(/^\d{10}$/), anyText, anyText)
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 12 }), (typed) => {
        const rows = typed.map(([amount, account, name, narration]) => [amount, 'NGN', '058', '', account, name, narration])
        const csv = providerCsv('transfers', rows)
        // What the provider's file holds: each cell as typed, a formula start (or a leading tab or line break) behind an apostrophe.
        const held = rows.map((r) => r.map(neutralise))
        expect(papaRows(csv)).toEqual([[...BULK_COLUMNS.transfers], ...held])
        // Ledgerline reads each cell without its edge spaces; a line break left inside is an error on its row and column, one
        // trimmed off its edge a warning there (this file would send it; the exported one does not).
        const { report, table } = validateBulkText('transfers', csv, { banks })
        expect(table.rows).toEqual(held.map((r) => r.map((cell) => cell.trim())))
        const where = (test: (cell: string) => boolean): string[] =>
          held.flatMap((r, i) =>
            (['account_name', 'narration'] as const).filter((_, k) => test(r[5 + k] as string)).map((column) => `${i + 2} ${column}`)
          )
        const at = (code: RegExp, list: typeof report.errors): string[] =>
          list.filter((p) => code.test(p.code)).map((p) => `${p.row} ${p.column}`)
        expect(at(/_line_break$/, report.errors)).toEqual(where((cell) => /[\r\n]/.test(cell.trim())))
        expect(at(/^edge_line_break$/, report.warnings)).toEqual(
          where((cell) =>
            /[\r\n\u2028\u2029]/.test(cell.slice(0, cell.length - cell.trimStart().length) + cell.slice(cell.trimEnd().length))
          )
        )
      }),
      propertyRuns(300)
    )
  })
})

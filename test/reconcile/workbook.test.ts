// The .xlsx fast reader against SheetJS: the same text in every cell of workbooks written by Excel's other writers (exceljs, SheetJS), with the awkward cells banks' files have; SheetJS still reads what the fast reader steps aside from.
import ExcelJS from 'exceljs'
import * as XLSX from '@e965/xlsx'
import { zipSync, strToU8, unzipSync, strFromU8 } from 'fflate'
import { describe, expect, it } from 'vitest'
import { NotPlainOoxml, readOoxmlSheets } from '../../src/main/reconcile/import/ooxml-sheets'
import { ooxmlGrids, readWorkbookGrids, sheetJsGrids } from '../../src/main/reconcile/import/workbook'
import type { Grid } from '../../src/main/reconcile/import/table'

async function awkward(date1904: boolean): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook()
  workbook.properties.date1904 = date1904
  const summary = workbook.addWorksheet('Summary & notes')
  summary.addRow(['Account', '0123456789'])
  const sheet = workbook.addWorksheet('Transactions')
  sheet.addRow(['Account number', '0123456789'])
  sheet.addRow([])
  sheet.addRow(['Txn Date', 'Narration', 'Debit', 'Credit', 'Balance', 'Booked', 'Flag'])
  const rows: unknown[][] = [
    [new Date(Date.UTC(2026, 2, 1)), 'NIP <transfer> & "fee"', null, 1500.5, 101500.5, new Date(Date.UTC(2026, 2, 1, 14, 30, 5)), true],
    [
      new Date(Date.UTC(2026, 2, 2)),
      { richText: [{ text: 'POS ' }, { font: { bold: true }, text: 'Café' }] },
      20046.379999999997,
      null,
      81454.12,
      null,
      false
    ],
    [
      new Date(Date.UTC(2026, 1, 28)),
      'line\nbreak\ttab',
      0.1 + 0.2,
      null,
      { formula: 'E5-C6', result: 81454.42 },
      'text date 01/03/2026',
      null
    ]
  ]
  for (const r of rows) sheet.addRow(r)
  sheet.getColumn(1).numFmt = 'dd/mm/yyyy'
  sheet.getColumn(6).numFmt = 'yyyy-mm-dd hh:mm:ss'
  sheet.getColumn(3).numFmt = '#,##0.00'
  // A gap: a row far below with a cell far right.
  sheet.getCell('J40').value = 'far away'
  return new Uint8Array(await workbook.xlsx.writeBuffer())
}

describe('the .xlsx fast reader', () => {
  it.each([false, true])(
    'reads every cell as SheetJS does (exceljs, shared strings, rich text, styles; 1904 dates: %s)',
    async (date1904) => {
      const bytes = await awkward(date1904)
      const fast = readWorkbookGrids(bytes, 'x.xlsx')
      expect(fast.map((g) => g.sheet)).toEqual(['Summary & notes', 'Transactions'])
      const transactions = fast[1] as Grid
      expect(transactions.rows[2]).toEqual([
        '2026-03-01',
        'NIP <transfer> & "fee"',
        '',
        '1500.5',
        '101500.5',
        '2026-03-01 14:30:05',
        'TRUE',
        '',
        '',
        ''
      ])
      expect(transactions.rows[3]?.slice(0, 3)).toEqual(['2026-03-02', 'POS Café', '20046.38'])
      expect(transactions.rows[4]?.slice(0, 5)).toEqual(['2026-02-28', 'line\nbreak\ttab', '0.3', '', '81454.42'])
      expect(transactions.lines).toEqual([1, 3, 4, 5, 6, 40])
      expect(transactions.rows[5]?.[9]).toBe('far away')
      expect(fast).toEqual(ooxmlGrids(bytes))
      expect(fast).toEqual(sheetJsGrids(bytes, 'x.xlsx'))
    }
  )

  it('reads inline strings and a sheet SheetJS wrote, like SheetJS', () => {
    const book = XLSX.utils.book_new()
    const sheet = XLSX.utils.aoa_to_sheet([
      ['Date', 'Amount', 'Text'],
      [new Date(Date.UTC(2026, 2, 3)), -12.5, 'a < b'],
      ['2026-03-04', 7, ''],
      [null, null, 'only text']
    ])
    XLSX.utils.book_append_sheet(book, sheet, 'Sheet1')
    const bytes = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer
    expect(readWorkbookGrids(bytes, 'x.xlsx')).toEqual(sheetJsGrids(bytes, 'x.xlsx'))
  })

  it('steps aside for parts it does not know, and SheetJS reads them', async () => {
    const bytes = await awkward(false)
    const files = unzipSync(bytes)
    // Strict OOXML's namespace: left to SheetJS.
    const strict = {
      ...files,
      'xl/workbook.xml': strToU8(
        strFromU8(files['xl/workbook.xml'] as Uint8Array).replace(
          'xmlns="',
          'xmlns:s="http://purl.oclc.org/ooxml/spreadsheetml/main" xmlns="'
        )
      )
    }
    expect(() => readOoxmlSheets(zipSync(strict))).toThrow(NotPlainOoxml)
    // A cell type it has never seen.
    const sheetPath = Object.keys(files).find((f) => f.endsWith('sheet2.xml')) as string
    const odd = { ...files, [sheetPath]: strToU8(strFromU8(files[sheetPath] as Uint8Array).replace(/t="s"/, 't="x"')) }
    expect(() => readOoxmlSheets(zipSync(odd))).toThrow(NotPlainOoxml)
    expect(readWorkbookGrids(zipSync(odd), 'odd.xlsx').map((g) => g.sheet)).toEqual(['Summary & notes', 'Transactions'])
  })

  it('leaves a damaged workbook to SheetJS, which says so', () => {
    expect(() => readWorkbookGrids(Buffer.from('PK\u0003\u0004 not really a zip'), 'cut.xlsx')).toThrow(
      /could not be read as an Excel workbook/
    )
  })
})

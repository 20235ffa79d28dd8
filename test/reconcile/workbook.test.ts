// The fast workbook readers (.xlsx from its XML, .xls from its BIFF8 records) against SheetJS: the same text in every cell of workbooks written by exceljs, SheetJS and by hand, with the awkward cells banks' files have; SheetJS still reads what the fast readers step aside from.
import ExcelJS from 'exceljs'
import * as XLSX from '@e965/xlsx'
import { zipSync, strToU8, unzipSync, strFromU8 } from 'fflate'
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { readBiff8Sheets } from '../../src/main/reconcile/import/excel/biff8-sheets'
import { readOoxmlSheets } from '../../src/main/reconcile/import/excel/ooxml-sheets'
import { DamagedWorkbook, LeftToSheetJs } from '../../src/main/reconcile/import/excel/sheet-cells'
import { loadSheetJs } from '../../src/main/reconcile/import/excel/sheetjs'
import { fastGrids, readWorkbookGrids, sheetJsGrids } from '../../src/main/reconcile/import/excel/workbook'
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

// The readers take SheetJS as statement imports load it, once, before the first workbook.
beforeAll(async () => {
  await loadSheetJs()
})

describe('the .xlsx fast reader', () => {
  it.each([false, true])(
    'reads every cell as SheetJS does (exceljs, shared strings, rich text, styles; 1904 dates: %s)',
    async (date1904) => {
      const bytes = await awkward(date1904)
      const fast = readWorkbookGrids(bytes, 'x.xlsx')
      expect(fast.map((g) => g.sheet)).toEqual(['Summary & notes', 'Transactions'])
      const transactions = fast[1] as Grid
      expect(transactions.rows.at(2)).toEqual([
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
      expect(transactions.rows.at(3)?.slice(0, 3)).toEqual(['2026-03-02', 'POS Café', '20046.38'])
      expect(transactions.rows.at(4)?.slice(0, 5)).toEqual(['2026-02-28', 'line\nbreak\ttab', '0.3', '', '81454.42'])
      expect(transactions.lines).toEqual([1, 3, 4, 5, 6, 40])
      expect(transactions.rows.at(5)?.[9]).toBe('far away')
      expect(fast).toEqual(fastGrids(bytes))
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
    expect(() => readOoxmlSheets(zipSync(strict), 'x.xlsx')).toThrow(LeftToSheetJs)
    // A cell type it has never seen.
    const sheetPath = Object.keys(files).find((f) => f.endsWith('sheet2.xml')) as string
    const odd = { ...files, [sheetPath]: strToU8(strFromU8(files[sheetPath] as Uint8Array).replace(/t="s"/, 't="x"')) }
    expect(() => readOoxmlSheets(zipSync(odd), 'x.xlsx')).toThrow(LeftToSheetJs)
    expect(readWorkbookGrids(zipSync(odd), 'odd.xlsx').map((g) => g.sheet)).toEqual(['Summary & notes', 'Transactions'])
  })

  it('says a damaged workbook is damaged, before any reader inflates it', () => {
    expect(() => readWorkbookGrids(Buffer.from('PK\u0003\u0004 not really a zip'), 'cut.xlsx')).toThrow(
      /cut.xlsx is damaged: it has no zip directory at its end/
    )
  })
})

const LONG_NARRATION = 'NIP TRANSFER FROM CUSTOMER '.repeat(303).slice(0, 8168)
const TAIL = 'TAIL '.repeat(1800)

/** A BIFF8 record: type, length, data. */
const record = (type: number, ...parts: Buffer[]): Buffer => {
  const data = Buffer.concat(parts)
  const head = Buffer.alloc(4)
  head.writeUInt16LE(type, 0)
  head.writeUInt16LE(data.length, 2)
  return Buffer.concat([head, data])
}
const u16 = (...values: number[]): Buffer => Buffer.from(Uint16Array.from(values).buffer)
const u32 = (value: number): Buffer => {
  const b = Buffer.alloc(4)
  b.writeUInt32LE(value >>> 0, 0)
  return b
}
const f64 = (value: number): Buffer => {
  const b = Buffer.alloc(8)
  b.writeDoubleLE(value, 0)
  return b
}
/** An XLUnicodeString: compressed when every character fits a byte, UTF-16 otherwise. */
const xlString = (text: string): Buffer => {
  const wide = [...text].some((c) => c.charCodeAt(0) > 255)
  return Buffer.concat([u16(text.length), Buffer.from([wide ? 1 : 0]), Buffer.from(text, wide ? 'utf16le' : 'latin1')])
}
/** An RK holding an integer (bit 1) or a hundredth of one (bits 0 and 1). */
const rk = (value: number, hundredths = false): Buffer => u32(((value << 2) | 2 | (hundredths ? 1 : 0)) >>> 0)

/**
 * A hand-written BIFF8 workbook with what banks' exports hold and SheetJS's own writer never writes:
 * shared strings over CONTINUE records (a UTF-16 string split across one, its rest compressed), RK
 * and MULRK numbers, a formula's string result, booleans, a custom date format and the 1904 system.
 */
function handWrittenXls(date1904: boolean): Uint8Array {
  // The first record ends 10 bytes into the UTF-16 string's characters; the last string (9,000 characters) runs over the next one, compressed.
  const long = LONG_NARRATION
  const tail = TAIL
  const wide = 'Ọ̀yọ́ Café ₦ transfer'
  const strings = ['Txn Date', 'Narration', 'Amount', long, wide, tail]
  // The SST's bytes, then cut into records of at most 8,224 bytes; a cut inside a string's characters starts the next record with a flags byte.
  const body: { bytes: Buffer; wide: boolean; chars: boolean }[] = []
  for (const s of strings) {
    const isWide = [...s].some((c) => c.charCodeAt(0) > 255)
    body.push({ bytes: Buffer.concat([u16(s.length), Buffer.from([isWide ? 1 : 0])]), wide: isWide, chars: false })
    body.push({ bytes: Buffer.from(s, isWide ? 'utf16le' : 'latin1'), wide: isWide, chars: true })
  }
  const sstRecords: Buffer[] = []
  let current: Buffer[] = [u32(strings.length), u32(strings.length)]
  let size = 8
  const LIMIT = 8224
  for (const piece of body) {
    let bytes = piece.bytes
    while (bytes.length > 0) {
      const room = LIMIT - size
      if (bytes.length <= room) {
        current.push(bytes)
        size += bytes.length
        break
      }
      // A header never splits; characters split on a character boundary.
      const take = piece.chars ? room - (piece.wide ? room % 2 : 0) : 0
      current.push(bytes.subarray(0, take))
      sstRecords.push(record(sstRecords.length === 0 ? 0x00fc : 0x003c, ...current))
      bytes = bytes.subarray(take)
      current = piece.chars ? [Buffer.from([piece.wide ? 1 : 0])] : []
      size = current.length
    }
  }
  sstRecords.push(record(sstRecords.length === 0 ? 0x00fc : 0x003c, ...current))
  expect(sstRecords).toHaveLength(3)
  // The split falls inside the UTF-16 string's characters: its rest starts the first CONTINUE, after a flags byte of 1.
  expect(sstRecords[1]?.[4]).toBe(1)
  expect(sstRecords[2]?.[4]).toBe(0)
  const xf = (format: number): Buffer => record(0x00e0, u16(0, format, 0, 0, 0, 0, 0, 0, 0, 0))
  const sheet = (): Buffer => {
    const cells = [
      record(0x0809, u16(0x0600, 0x0010, 0, 0), u32(0), u32(0)),
      record(0x00fd, u16(0, 0, 15), u32(0)),
      record(0x00fd, u16(0, 1, 15), u32(1)),
      record(0x00fd, u16(0, 2, 15), u32(2)),
      // 1 March 2026 (serial 46082; 44620 in the 1904 system) with the custom date format, a long narration, an RK in hundredths.
      record(0x027e, u16(1, 0, 16), rk(date1904 ? 44620 : 46082)),
      record(0x00fd, u16(1, 1, 15), u32(3)),
      record(0x027e, u16(1, 2, 15), rk(150050, true)),
      record(0x027e, u16(2, 0, 16), rk(date1904 ? 44621 : 46083)),
      record(0x00fd, u16(2, 1, 15), u32(4)),
      record(0x0203, u16(2, 2, 15), f64(-20046.379999999997)),
      // A MULRK of three numbers from column 3, a formula's string, a boolean.
      record(0x00bd, u16(3, 3), u16(15), rk(7), u16(15), rk(-12), u16(15), rk(5, true), u16(5)),
      record(0x0006, u16(4, 1, 15), Buffer.from([0, 0, 0, 0, 0, 0, 0xff, 0xff]), u16(0), u32(0), u16(0)),
      record(0x0207, xlString('formula result')),
      record(0x0205, u16(4, 2, 15), Buffer.from([1, 0])),
      record(0x00fd, u16(5, 1, 15), u32(5)),
      record(0x000a)
    ]
    return Buffer.concat(cells)
  }
  const globalsBefore = (sheetOffset: number): Buffer =>
    Buffer.concat([
      record(0x0809, u16(0x0600, 0x0005, 0, 0), u32(0), u32(0)),
      record(0x0042, u16(1200)),
      record(0x0022, u16(date1904 ? 1 : 0)),
      record(0x041e, u16(164), xlString('dd/mm/yyyy')),
      ...Array.from({ length: 15 }, () => xf(0)),
      xf(0),
      xf(164),
      record(0x0085, u32(sheetOffset), Buffer.from([0, 0, 12, 0]), Buffer.from('Transactions', 'latin1')),
      ...sstRecords,
      record(0x000a)
    ])
  const globalsLength = globalsBefore(0).length
  return inCompoundFile(Buffer.concat([globalsBefore(globalsLength), sheet()]))
}

describe('the .xls fast reader', () => {
  it.each([false, true])(
    'reads shared strings over CONTINUE records, RK, MULRK, formulas and dates as SheetJS does (1904: %s)',
    (date1904) => {
      const bytes = handWrittenXls(date1904)
      const [grid, ...rest] = fastGrids(bytes)
      expect(rest).toEqual([])
      expect(grid?.sheet).toBe('Transactions')
      expect(grid?.rows.slice().map((r) => r.slice(0, 3))).toEqual([
        ['Txn Date', 'Narration', 'Amount'],
        ['2026-03-01', LONG_NARRATION, '1500.5'],
        ['2026-03-02', 'Ọ̀yọ́ Café ₦ transfer', '-20046.38'],
        ['', '', ''],
        ['', 'formula result', 'TRUE'],
        ['', TAIL, '']
      ])
      expect(grid?.rows.at(3)?.slice(3)).toEqual(['7', '-12', '0.05'])
      expect(grid?.lines).toEqual([1, 2, 3, 4, 5, 6])
      expect(readWorkbookGrids(bytes, 'x.xls')).toEqual(sheetJsGrids(bytes, 'x.xls'))
    }
  )

  it('reads the sample .xls like SheetJS, and steps aside for an encrypted one', () => {
    const book = XLSX.utils.book_new()
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['Date', 'Amount'],
        [new Date(Date.UTC(2026, 2, 3)), -12.5]
      ]),
      'One'
    )
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Text only']]), 'Two')
    const bytes = XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer
    expect(fastGrids(bytes)).toEqual(sheetJsGrids(bytes, 'x.xls'))
    expect(fastGrids(bytes).map((g) => g.sheet)).toEqual(['One', 'Two'])
    // A FILEPASS record in the globals: encrypted, left to SheetJS.
    const plain = handWrittenXls(false)
    const CFB = XLSX.CFB as {
      read: (b: Uint8Array, o: { type: string }) => unknown
      find: (c: unknown, p: string) => { content: Uint8Array }
    }
    const stream = Buffer.from(CFB.find(CFB.read(plain, { type: 'buffer' }), 'Workbook').content)
    stream.writeUInt16LE(0x002f, 4 + stream.readUInt16LE(2))
    expect(() => readBiff8Sheets(inCompoundFile(stream), () => false)).toThrow(LeftToSheetJs)
  })

  it('skips a chart embedded in a sheet and reads the cells after it', () => {
    const chart = [record(0x0809, u16(0x0600, 0x0020, 0, 0), u32(0), u32(0)), record(0x0203, u16(9, 0, 15), f64(1)), record(0x000a)]
    const [sheet] = readBiff8Sheets(withSheetRecords(...chart, record(0x0203, u16(7, 2, 15), f64(42))), () => false)
    expect(sheet?.rows[7]?.[2]).toEqual({ t: 'n', v: 42, date: false })
    expect(sheet?.rows[9]).toBeUndefined()
  })

  // Handed to SheetJS, the two files from the hostile-files run below looped forever (parse_Rgce on a damaged
  // record): a BIFF8 workbook is now refused by its own reader, with what is wrong, and SheetJS never sees it.
  it.each([
    ['damaged-short-record.xls', /a cell record at byte 46371 of its Workbook stream is 16 bytes, shorter than its kind needs/],
    ['damaged-string.xls', /a string runs past its record/]
  ])('refuses the damaged %s itself, naming the damage', (file, why) => {
    const bytes = readFileSync(`test/fixtures/statements/${file}`)
    expect(() => readBiff8Sheets(bytes, () => false)).toThrow(DamagedWorkbook)
    expect(() => readWorkbookGrids(bytes, file)).toThrow(expect.objectContaining({ code: 'malformed_workbook' }))
    expect(() => readWorkbookGrids(bytes, file)).toThrow(why)
    expect(() => readWorkbookGrids(bytes, file)).toThrow(file)
  })

  it('refuses a cell record shorter than its kind, a column past IV and a stream cut inside a record', () => {
    const short = withSheetRecords(record(0x0203, u16(7, 2, 15), u32(0)))
    expect(() => readBiff8Sheets(short, () => false)).toThrow(/cell record at byte \d+ .* is 10 bytes, shorter than its kind needs/)
    const wide = withSheetRecords(record(0x0203, u16(7, 300, 15), f64(1)))
    expect(() => readBiff8Sheets(wide, () => false)).toThrow(/in column 301, past the last an \.xls has \(256\)/)
    const stream = workbookStreamOf(handWrittenXls(false))
    const cut = inCompoundFile(stream.subarray(0, stream.length - 6))
    expect(() => readBiff8Sheets(cut, () => false)).toThrow(DamagedWorkbook)
    expect(() => readWorkbookGrids(cut, 'cut.xls')).toThrow(/cut\.xls could not be read as an Excel workbook: .*cut short or damaged/)
  })
})

/** The Workbook stream of a .xls. */
function workbookStreamOf(xls: Uint8Array): Buffer {
  const CFB = XLSX.CFB as {
    read: (b: Uint8Array, o: { type: string }) => unknown
    find: (c: unknown, p: string) => { content: Uint8Array }
  }
  return Buffer.from(CFB.find(CFB.read(xls, { type: 'buffer' }), 'Workbook').content)
}

/** The hand-written .xls with `records` added at the end of its sheet, before the sheet's EOF. */
function withSheetRecords(...records: Buffer[]): Uint8Array {
  const stream = workbookStreamOf(handWrittenXls(false))
  return inCompoundFile(Buffer.concat([stream.subarray(0, stream.length - 4), ...records, stream.subarray(stream.length - 4)]))
}

/** A Workbook stream in a compound file, as Excel saves a .xls. */
function inCompoundFile(stream: Buffer): Uint8Array {
  const CFB = XLSX.CFB as {
    utils: { cfb_new: () => unknown; cfb_add: (cfb: unknown, name: string, content: Buffer) => void }
    write: (cfb: unknown, options: { type: string }) => Buffer
  }
  const container = CFB.utils.cfb_new()
  CFB.utils.cfb_add(container, 'Workbook', stream)
  return new Uint8Array(CFB.write(container, { type: 'buffer' }))
}

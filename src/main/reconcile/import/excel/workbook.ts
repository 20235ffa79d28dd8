// Excel workbooks (.xlsx, old binary .xls, and the HTML tables some banks save as .xls) → one grid per sheet that has rows, every cell as the text a user would type: dates as YYYY-MM-DD, numbers as Excel shows them.
import type * as XLSX from '@e965/xlsx'
import { sheetJs } from './sheetjs'
import { AppError } from '../../../errors'
import { readOoxmlSheets } from './ooxml-sheets'
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from '../../../files/zip'
import { readBiff8Sheets } from './biff8-sheets'
import { DamagedWorkbook, errorText, LeftToSheetJs, type CellSheet, type SheetCell } from './sheet-cells'
import type { Grid } from '../table'

/** Every sheet with rows, in workbook order (a bank's "Summary" sheet included: the caller decides which hold a statement). */
export function readWorkbookGrids(bytes: Uint8Array, name: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Grid[] {
  // A .xlsx from its XML or a .xls from its records (fast); anything else, or a file those readers do not expect, through SheetJS.
  let grids: Grid[] | null = null
  try {
    grids = fastGrids(bytes, name, limits)
  } catch (error) {
    if (error instanceof DamagedWorkbook)
      throw new AppError(
        'malformed_workbook',
        `${name} could not be read as an Excel workbook: ${error.message}. Open it in Excel and save it again, or export the statement again.`
      )
    if (!(error instanceof LeftToSheetJs)) throw error
  }
  grids ??= sheetJsGrids(bytes, name)
  if (grids.length === 0) throw new AppError('empty_file', `${name} is a workbook with no rows on any sheet.`)
  return grids
}

/** The grids of a plain .xlsx or BIFF8 .xls, read by the fast readers; throws LeftToSheetJs for any other file or one they do not know. */
export function fastGrids(bytes: Uint8Array, name = 'The workbook', limits: ZipLimits = DEFAULT_ZIP_LIMITS): Grid[] {
  let sheets: CellSheet[]
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) sheets = readOoxmlSheets(bytes, name, limits)
  else if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) sheets = readBiff8Sheets(bytes, isDateFormat)
  else throw new LeftToSheetJs('neither a zip nor a compound file')
  const grids: Grid[] = []
  for (const sheet of sheets) {
    const grid = gridOf(sheet.name, sheet.rows, (cell) => fastCellText(cell, sheet.date1904))
    if (grid) grids.push(grid)
  }
  return grids
}

/** The grids of any workbook SheetJS reads (.xls, .xlsx, .xlsb, .ods, HTML tables saved as .xls). */
export function sheetJsGrids(bytes: Uint8Array, name: string): Grid[] {
  let workbook: XLSX.WorkBook
  try {
    workbook = sheetJs().read(bytes, {
      type: 'buffer',
      dense: true,
      cellNF: true,
      cellText: false,
      cellHTML: false,
      cellFormula: false,
      cellStyles: false
    })
  } catch (error) {
    throw new AppError(
      'malformed_workbook',
      `${name} could not be read as an Excel workbook (${(error as Error).message}); it may be damaged or cut short. Open it in Excel and save it again, or export the statement again.`
    )
  }
  const date1904 = workbook.Workbook?.WBProps?.date1904 === true
  const grids: Grid[] = []
  for (const sheetName of workbook.SheetNames) {
    const data = (workbook.Sheets[sheetName]?.['!data'] ?? []) as (XLSX.CellObject | undefined)[][]
    const grid = gridOf(sheetName, data, (cell) => cellText(cell, date1904))
    if (grid) grids.push(grid)
  }
  return grids
}

/** A sheet's rows that hold anything, each as wide as the widest (so a column's index means the same on each), with its row number; null when none does. */
function gridOf<C>(sheet: string, data: readonly (readonly C[] | undefined)[], textOf: (cell: C | undefined) => string): Grid | null {
  const rows: string[][] = []
  const lines: number[] = []
  let width = 0
  for (let r = 0; r < data.length; r++) {
    const cells = data[r]
    if (!cells) continue
    const row: string[] = new Array<string>(cells.length)
    let filled = false
    for (let c = 0; c < cells.length; c++) {
      const text = textOf(cells[c])
      row[c] = text
      if (text !== '' && text.trim() !== '') filled = true
    }
    if (!filled) continue
    if (row.length > width) width = row.length
    rows.push(row)
    lines.push(r + 1)
  }
  if (rows.length === 0) return null
  for (const row of rows) for (let c = row.length; c < width; c++) row[c] = ''
  return { rows, lines, separator: null, sheet }
}

/** A cell the fast readers read, as the text a user would type (the same as cellText gives for SheetJS's cell). */
function fastCellText(cell: SheetCell | undefined, date1904: boolean): string {
  if (!cell) return ''
  switch (cell.t) {
    case 'n':
      return cell.date ? serialDay(cell.v, date1904) : shownNumber(cell.v)
    case 'd': {
      const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2}))?/.exec(cell.v)
      if (!m) return cell.v
      return m[2] === undefined || m[2] === '00:00:00' ? (m[1] as string) : `${m[1]} ${m[2]}`
    }
    case 's':
      return cell.v
    case 'b':
      return cell.v ? 'TRUE' : 'FALSE'
  }
}

/** At most 15 significant digits, as Excel shows it: a formula's 20046.379999999997 is the 20046.38 the user sees. */
function shownNumber(value: number): string {
  // Up to 15 digits its shortest text is already what Excel shows (and toPrecision, slow, is not needed).
  const text = String(value)
  return text.length <= 16 ? text : String(Number(value.toPrecision(15)))
}

/** A cell SheetJS read, as the text a user would type: dates as YYYY-MM-DD, numbers as Excel shows them. */
function cellText(cell: XLSX.CellObject | undefined, date1904: boolean): string {
  if (!cell || cell.v === undefined || cell.v === null) return ''
  switch (cell.t) {
    case 'n': {
      const value = cell.v as number
      if (typeof cell.z === 'string' && isDateFormat(cell.z)) return serialDay(value, date1904)
      return shownNumber(value)
    }
    case 'd': {
      const iso = (cell.v as Date).toISOString()
      return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ')
    }
    case 's':
      return String(cell.v)
    case 'b':
      return cell.v ? 'TRUE' : 'FALSE'
    case 'e':
      // An error value ("#REF!"): shown as Excel shows it, so its line is not read rather than read without an amount.
      return typeof cell.w === 'string' && cell.w !== '' ? cell.w : errorText(cell.v as number)
    default:
      return ''
  }
}

/** Whether a number format shows a date, worked out once per format (a sheet has few formats and many cells). */
function isDateFormat(format: string): boolean {
  const known = DATE_FORMATS.get(format)
  if (known !== undefined) return known
  const date = sheetJs().SSF.is_date(format)
  if (DATE_FORMATS.size > 10_000) DATE_FORMATS.clear()
  DATE_FORMATS.set(format, date)
  return date
}

const DATE_FORMATS = new Map<string, boolean>()

/** An Excel day serial (1900 system, or 1904 when the workbook says so) as YYYY-MM-DD, with its time when it has one: no time zone touches it. */
function serialDay(serial: number, date1904: boolean): string {
  // A statement has many lines on few days: each serial is worked out once.
  const days = date1904 ? SERIAL_DAYS_1904 : SERIAL_DAYS_1900
  let day = days.get(serial)
  if (day === undefined) {
    if (days.size > 100_000) days.clear()
    days.set(serial, (day = serialDayOnce(serial, date1904)))
  }
  return day
}

const SERIAL_DAYS_1900 = new Map<number, string>()
const SERIAL_DAYS_1904 = new Map<number, string>()

function serialDayOnce(serial: number, date1904: boolean): string {
  const p = sheetJs().SSF.parse_date_code(serial, { date1904 })
  if (!p) return String(serial)
  const day = `${String(p.y).padStart(4, '0')}-${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`
  return p.H || p.M || p.S
    ? `${day} ${String(p.H).padStart(2, '0')}:${String(p.M).padStart(2, '0')}:${String(Math.floor(p.S)).padStart(2, '0')}`
    : day
}

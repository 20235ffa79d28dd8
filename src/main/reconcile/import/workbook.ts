// Excel workbooks (.xlsx, old binary .xls, and the HTML tables some banks save as .xls) → one grid per sheet that has rows, every cell as the text a user would type: dates as YYYY-MM-DD, numbers as Excel shows them.
import * as XLSX from '@e965/xlsx'
import { AppError } from '../../errors'
import type { Grid } from './table'

/** Every sheet with rows, in workbook order (a bank's "Summary" sheet included: the caller decides which hold a statement). */
export function readWorkbookGrids(bytes: Uint8Array, name: string): Grid[] {
  let workbook: XLSX.WorkBook
  try {
    workbook = XLSX.read(bytes, { type: 'buffer', dense: true, cellNF: true, cellHTML: false, cellFormula: false, cellStyles: false })
  } catch (error) {
    throw new AppError(
      'malformed_workbook',
      `${name} could not be read as an Excel workbook (${(error as Error).message}); it may be damaged or cut short. Open it in Excel and save it again, or export the statement again.`
    )
  }
  const grids: Grid[] = []
  for (const sheetName of workbook.SheetNames) {
    const sheet = workbook.Sheets[sheetName]
    const data = (sheet?.['!data'] ?? []) as (XLSX.CellObject | undefined)[][]
    const rows: string[][] = []
    const lines: number[] = []
    let width = 0
    for (let r = 0; r < data.length; r++) {
      const cells = data[r]
      if (!cells) continue
      const row: string[] = new Array<string>(cells.length)
      let filled = false
      for (let c = 0; c < cells.length; c++) {
        const text = cellText(cells[c])
        row[c] = text
        if (text !== '' && text.trim() !== '') filled = true
      }
      if (!filled) continue
      if (row.length > width) width = row.length
      rows.push(row)
      lines.push(r + 1)
    }
    if (rows.length === 0) continue
    // Every row as wide as the widest, so a column's index means the same on each.
    for (const row of rows) for (let c = row.length; c < width; c++) row[c] = ''
    grids.push({ rows, lines, separator: null, sheet: sheetName })
  }
  if (grids.length === 0) throw new AppError('empty_file', `${name} is a workbook with no rows on any sheet.`)
  return grids
}

function cellText(cell: XLSX.CellObject | undefined): string {
  if (!cell || cell.v === undefined || cell.v === null) return ''
  switch (cell.t) {
    case 'n': {
      const value = cell.v as number
      if (cell.z !== undefined && typeof cell.z === 'string' && XLSX.SSF.is_date(cell.z)) return serialDay(value)
      // At most 15 significant digits, as Excel shows it: a formula's 20046.379999999997 is the 20046.38 the user sees.
      return String(Number(value.toPrecision(15)))
    }
    case 'd': {
      const iso = (cell.v as Date).toISOString()
      return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ')
    }
    case 's':
      return String(cell.v)
    case 'b':
      return cell.v ? 'TRUE' : 'FALSE'
    default:
      return ''
  }
}

/** An Excel day serial (1900 system) as YYYY-MM-DD, with its time when it has one: no time zone touches it. */
function serialDay(serial: number): string {
  const p = XLSX.SSF.parse_date_code(serial)
  if (!p) return String(serial)
  const day = `${String(p.y).padStart(4, '0')}-${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`
  return p.H || p.M || p.S
    ? `${day} ${String(p.H).padStart(2, '0')}:${String(p.M).padStart(2, '0')}:${String(Math.floor(p.S)).padStart(2, '0')}`
    : day
}

// What the fast workbook readers (.xlsx from its XML, .xls from its BIFF8 records) give: each cell's value and whether its format shows a date, by row and column; and how they step aside for SheetJS.

/** One cell as the workbook holds it: its type, value and, for a number, whether its format shows a date. */
export type SheetCell = { t: 'n'; v: number; date: boolean } | { t: 's'; v: string } | { t: 'b'; v: boolean } | { t: 'd'; v: string } | null

export interface CellSheet {
  name: string
  /** Rows by their 0-based index (a missing row or cell is empty). */
  rows: SheetCell[][]
  date1904: boolean
}

/** Why a fast reader stepped aside: the caller reads the workbook with SheetJS instead (which also says what is wrong with a damaged one). */
export class LeftToSheetJs extends Error {}

/**
 * A workbook a fast reader knows the kind of and found damaged (a record that runs past the end of its stream, a sheet
 * with no end): refused with what is wrong, never handed to SheetJS, which loops forever on some damaged records.
 */
export class DamagedWorkbook extends Error {}

/** Excel's error values by their code in BIFF8 and SheetJS: a cell holding one is shown as Excel shows it, so a line with "#REF!" for its amount is a line not read, never a line without an amount. */
export const EXCEL_ERRORS: Readonly<Record<number, string>> = {
  0x00: '#NULL!',
  0x07: '#DIV/0!',
  0x0f: '#VALUE!',
  0x17: '#REF!',
  0x1d: '#NAME?',
  0x24: '#NUM!',
  0x2a: '#N/A',
  0x2b: '#GETTING_DATA'
}

/** A cell's error as text ("#REF!"), for a code Excel's list has or not. */
export function errorText(code: number): string {
  return EXCEL_ERRORS[code] ?? `#ERROR (code ${code})`
}

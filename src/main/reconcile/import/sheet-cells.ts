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

// A statement file → a grid of text cells: CSV by papaparse with the separator detected (workbooks: workbook.ts), and the header row found under any bank header block.
import Papa from 'papaparse'
import { AppError } from '../../errors'
import { readDateShape } from './dates'
import { headerScore, normaliseHeader } from './mapping'

export const SEPARATORS = [',', ';', '\t', '|'] as const

export interface Grid {
  rows: string[][]
  /** 1-based line (CSV, MT940, CAMT, OFX, QIF) or row (a workbook's sheet) of each grid row, as the user would find it; 0 for rows a structured format lays out above its lines. */
  lines: number[]
  separator: string | null
  sheet: string | null
}

/** The separator under which the most lines share one width of two or more cells. */
export function detectSeparator(text: string): string {
  const sample = text.slice(0, 64 * 1024)
  let best: { separator: string; rows: number } = { separator: ',', rows: -1 }
  for (const separator of SEPARATORS) {
    const parsed = Papa.parse<string[]>(sample, { delimiter: separator, preview: 200, skipEmptyLines: true })
    const widths = new Map<number, number>()
    for (const row of parsed.data) if (row.length >= 2) widths.set(row.length, (widths.get(row.length) ?? 0) + 1)
    const rows = Math.max(0, ...widths.values())
    if (rows > best.rows) best = { separator, rows }
  }
  return best.separator
}

export function readCsvGrid(text: string, separator: string | null): Grid {
  const chosen = separator ?? detectSeparator(text)
  const rows: string[][] = []
  const lines: number[] = []
  let line = 1
  // papaparse reports no line numbers; count the line breaks each row consumed (quoted fields may hold some).
  const result = Papa.parse<string[]>(text, { delimiter: chosen, skipEmptyLines: false })
  for (const row of result.data) {
    const here = line
    for (const cell of row) for (let i = cell.indexOf('\n'); i >= 0; i = cell.indexOf('\n', i + 1)) line++
    line++
    if (row.length === 1 && (row[0] as string).trim() === '') continue
    rows.push(row)
    lines.push(here)
  }
  const broken = result.errors.find((e) => e.code === 'MissingQuotes' || e.code === 'InvalidQuotes')
  if (broken && rows.length === 0)
    throw new AppError('malformed_csv', `The file could not be read as CSV: ${broken.message} (row ${broken.row ?? '?'}).`)
  return { rows, lines, separator: chosen, sheet: null }
}

/**
 * The header row: the first of the first 50 rows that holds every column a mapping names, or,
 * without a mapping, names at least two statement columns; failing that, a row of words in no list
 * right above the first row with a date. Null when the file has no header row.
 */
export function findHeaderRow(rows: readonly (readonly string[])[], named: readonly string[] = []): number | null {
  const limit = Math.min(rows.length, 50)
  const wanted = named.map(normaliseHeader)
  for (let i = 0; i < limit; i++) {
    const row = rows[i] as readonly string[]
    if (wanted.length > 0 ? wanted.every((w) => row.some((cell) => normaliseHeader(cell) === w)) : headerScore(row) >= 2) return i
  }
  return wanted.length > 0 ? null : wordsAboveFirstDate(rows, limit)
}

/** A header of words no list holds ("Posted;Memo line;Sum"): the row above the first row with a date, as wide as it, all text. */
function wordsAboveFirstDate(rows: readonly (readonly string[])[], limit: number): number | null {
  const filled = (row: readonly string[]): string[] => row.map((c) => c.trim()).filter((c) => c !== '')
  const first = rows.slice(0, limit).findIndex((row) => filled(row).length >= 2 && row.some((c) => readDateShape(c) !== null))
  if (first <= 0) return null
  const above = filled(rows[first - 1] as readonly string[])
  const below = filled(rows[first] as readonly string[])
  const words = above.every((c) => /[A-Za-z\u00C0-\u024F]/.test(c) && !/\d/.test(c))
  return words && above.length >= 2 && above.length >= below.length * 0.75 ? first - 1 : null
}

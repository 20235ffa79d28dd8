// A statement file → a grid of text cells: CSV by papaparse with the separator detected (workbooks: excel/workbook.ts), and the header row found under any bank header block.
import Papa from 'papaparse'
import { AppError } from '../../errors'
import { readDateShape } from './dates'
import { CompactRows, type GridRows } from './grid-rows'
import { headerScore, normaliseHeader } from './mapping'

export const SEPARATORS = [',', ';', '\t', '|'] as const

export interface Grid {
  /** The rows: a plain list, or a CSV file's held compactly (CompactRows). */
  rows: GridRows
  /** 1-based line (CSV, MT940, CAMT, OFX, QIF) or row (a workbook's sheet) of each grid row, as the user would find it; 0 for rows a structured format lays out above its lines. */
  lines: number[]
  separator: string | null
  sheet: string | null
  /** Lines of the file its reader set aside, each with why (a QIF account record): listed with the lines skipped. */
  setAside?: { line: number; reason: string }[]
  /** Rows (by index) the reader could not split into cells, with why and the line as the file has it: each a line not read. */
  unreadable?: Map<number, { reason: string; text: string }>
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

/**
 * A CSV file's rows, each with the line it starts on. A quoted field may hold line breaks; but one
 * whose quote opens and then runs over lines that look like rows of their own (as many separators as
 * a row has, or a date first) is a quote left open: that line is not read (said so, with its text)
 * and the lines after it are read as the rows they are, never swallowed into one field.
 */
export function readCsvGrid(text: string, separator: string | null): Grid {
  const chosen = separator ?? detectSeparator(text)
  const rows = new CompactRows()
  const lines: number[] = []
  const unreadable = new Map<number, { reason: string; text: string }>()
  let physical: number[] | null = null
  /** Line n as the file has it (line starts found once, only when a line is not read). */
  const lineText = (n: number): string => {
    physical ??= lineStarts(text)
    return text.slice(physical[n - 1] ?? text.length, (physical[n] ?? text.length + 1) - 1).replace(/\r$/, '')
  }
  let from = 1
  for (let restarts = 0; ; restarts++) {
    physical ??= from > 1 ? lineStarts(text) : null
    const part = from === 1 ? text : text.slice(physical?.[from - 1] ?? text.length)
    let line = from
    let restart: number | null = null
    /** One row as papaparse split it (broken: its quotes are not closed or out of place); false to stop this reading for a new one. */
    const take = (row: string[], broken: boolean, width: number): boolean => {
      const here = line
      let breaks = 0
      let suspect = false
      for (const cell of row)
        for (let i = cell.indexOf('\n'); i >= 0; i = cell.indexOf('\n', i + 1)) {
          breaks++
          const end = cell.indexOf('\n', i + 1)
          if (!suspect && looksLikeRow(cell.slice(i + 1, end < 0 ? cell.length : end), chosen, width)) suspect = true
        }
      if (suspect || broken) {
        const raw = lineText(here)
        unreadable.set(rows.length, {
          reason: `A quote opens in this line and is not closed${breaks > 0 ? ' before the next line, which reads as a row of its own' : ''}: the line is not read; the lines after it are.`,
          text: raw
        })
        rows.push(raw.split(chosen))
        lines.push(here)
        if (breaks > 0) {
          restart = here + 1
          return false
        }
      } else if (!(row.length === 1 && (row[0] as string).trim() === '')) {
        rows.push(row)
        lines.push(here)
      }
      line += breaks + 1
      return true
    }
    // Each quote left open costs a new reading of what follows it: past MAX_RESTARTS, the rest is read line by line (linear, whatever the file).
    if (restarts < MAX_RESTARTS) parseLines(part, chosen, take)
    else lineByLine(part, chosen, take)
    if (restart === null) break
    physical ??= lineStarts(text)
    if (restart > physical.length) break
    from = restart
  }
  rows.finish()
  if (rows.length > 0 && unreadable.size === rows.length) {
    const first = unreadable.get(0)
    throw new AppError(
      'malformed_csv',
      `The file could not be read as CSV: no line of it reads as a row (line ${lines[0]}: ${first?.reason.replace(/: the line is not read.*$/, '') ?? 'unreadable'}).`
    )
  }
  if (rows.length === 0 && text.trim() !== '')
    throw new AppError('malformed_csv', 'The file could not be read as CSV: no line of it reads as a row.')
  return { rows, lines, separator: chosen, sheet: null, ...(unreadable.size > 0 ? { unreadable } : {}) }
}

/** Takes each row of a reading in turn (with whether its quotes broke, and the usual width of the reading's first rows); false stops the reading. */
type TakeRow = (row: string[], broken: boolean, width: number) => boolean

/** Rows held until the usual width is known: the first rows of a reading. */
const WIDTH_ROWS = 200

/**
 * Text as rows, every line break its own, handed to `take` one at a time (no list of every row is made): a file's lines
 * end in "\n" (a "\r" before it dropped), or in "\r" alone when it has no "\n". Papaparse left to choose takes "\r\n" from
 * the first line, and a later line ending in a bare "\n" (a file edited on two systems, a stray character before the
 * "\n") would be swallowed into the row above, lost with no word said.
 */
function parseLines(text: string, separator: string, take: TakeRow): void {
  const newline = text.includes('\n') ? '\n' : text.includes('\r') ? '\r' : undefined
  // The first rows wait until their usual width is known; the rest are taken as they come.
  const first: [string[], boolean][] = []
  let width = -1
  let stopped = false
  const settle = (): boolean => {
    width = usualWidth(first.map(([row]) => row))
    for (const [row, broken] of first.splice(0)) if (!take(row, broken, width)) return false
    return true
  }
  Papa.parse<string[]>(text, {
    delimiter: separator,
    skipEmptyLines: false,
    ...(newline ? { newline } : {}),
    step: (result, parser) => {
      if (stopped) return
      const row = result.data
      if (newline === '\n') {
        const last = row.length - 1
        if (last >= 0 && (row[last] as string).endsWith('\r')) row[last] = (row[last] as string).slice(0, -1)
      }
      const broken = result.errors.some((e) => e.code === 'MissingQuotes' || e.code === 'InvalidQuotes')
      if (width < 0) {
        first.push([row, broken])
        if (first.length < WIDTH_ROWS || settle()) return
      } else if (take(row, broken, width)) return
      stopped = true
      parser.abort()
    }
  })
  if (!stopped && width < 0) settle()
}

/** Quotes left open that are each read past by a new reading of the rest; after these, the rest is read a line at a time. */
const MAX_RESTARTS = 20

/** Text read one line at a time (quotes only within a line): a line whose quote is not closed is broken. */
function lineByLine(text: string, separator: string, take: TakeRow): void {
  for (const line of text.split(/\n/)) {
    const parsed = Papa.parse<string[]>(line.replace(/\r$/, ''), { delimiter: separator, skipEmptyLines: false })
    // The width only tells a row inside a quote, and these lines hold no quote across lines.
    if (!take(parsed.data[0] ?? [''], parsed.errors.length > 0, 2)) return
  }
}

/** Where each line of the text starts (index k: line k + 1). */
function lineStarts(text: string): number[] {
  const starts = [0]
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

/** The number of cells most rows have (at least 2), from the first rows. */
function usualWidth(data: readonly (readonly string[])[]): number {
  const widths = new Map<number, number>()
  for (const row of data.slice(0, 200)) if (row.length >= 2) widths.set(row.length, (widths.get(row.length) ?? 0) + 1)
  let best = 2
  let most = 0
  for (const [w, n] of widths) if (n > most || (n === most && w > best)) [best, most] = [w, n]
  return best
}

/** Whether a line inside a quoted field reads as a row of its own: nearly as many separators as a row has, or a date then a separator. */
function looksLikeRow(line: string, separator: string, width: number): boolean {
  let separators = 0
  for (let i = line.indexOf(separator); i >= 0; i = line.indexOf(separator, i + 1)) separators++
  if (separators >= Math.max(2, width - 2)) return true
  const first = line.split(separator, 1)[0]?.trim() ?? ''
  return separators >= 1 && readDateShape(first.replace(/^"/, '')) !== null
}

/**
 * The header row: the first of the first 50 rows that holds every column a mapping names, or,
 * without a mapping, names at least two statement columns; failing that, a row of words in no list
 * right above the first row with a date. Null when the file has no header row.
 */
export function findHeaderRow(all: GridRows, named: readonly string[] = []): number | null {
  const rows = all.slice(0, 50)
  const limit = rows.length
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

/** Columns that only Ledgerline's own reports carry together (its items report and its summary; see report.ts): a file headed so is a report, never a statement. */
export const OWN_REPORT_HEADERS: readonly (readonly string[])[] = [
  ['outcome', 'provider_ids', 'file_row_ids', 'item_key'],
  ['section', 'outcome', 'provider_amount', 'file_amount', 'difference']
]

/** Whether a grid is one of Ledgerline's own reports (a row among its first 20 holds every column of one): given back, it would be reconciled as a bank statement. */
export function isOwnReport(rows: GridRows): boolean {
  for (const row of rows.slice(0, 20)) {
    const cells = new Set(row.map((c) => c.trim().toLowerCase()))
    if (OWN_REPORT_HEADERS.some((names) => names.every((n) => cells.has(n)))) return true
  }
  return false
}

// The one set of rules for every CSV Ledgerline writes: for Excel (opens cleanly, exact amounts, no formula injection) or plain (for accounting software, pandas and SQL: every value as it is).
import { toMajorString } from '../money'

/**
 * A cell, by what it holds; the kind decides how it is written:
 * - text: free text from the provider or the user, always quoted; a formula trigger (= + - @ or
 *   their full-width forms ＝ ＋ － ＠, tab, CR, LF), even after leading spaces or NUL characters,
 *   is neutralised with a single quote (OWASP CSV-injection guidance), so Excel never runs it;
 * - amount: exact integer minor units, written as the plain major-unit decimal ("-1234.50"), which
 *   Excel reads as a number and which is never neutralised (a minus sign there is not a formula);
 * - identifier: account numbers, phone numbers, references, ids. Every one is written the same way,
 *   as ="0123456789", so a column keeps one form and Excel never turns one into a number or a date
 *   (a leading zero, 16 digits, a "+233…" stay as written). Only values of letters, digits, space
 *   and . _ / + - are wrapped: even an Excel that splits on ";" and drops the quotes then meets no
 *   function call, no separator and no quote. Anything else is written as neutralised text.
 *   Always quoted.
 * - date: a calendar day, YYYY-MM-DD (a date cell in a workbook).
 *
 * Every cell that is not a number is quoted, so an Excel that splits on ";" (European locales)
 * still sees one cell, never a "=" that a split would have exposed.
 */
export type CsvCell =
  | { kind: 'text'; value: string }
  | { kind: 'amount'; minor: number; currency: string }
  | { kind: 'identifier'; value: string }
  | { kind: 'integer'; value: number }
  /** A measure that is not money and may have a fraction (a match score). */
  | { kind: 'number'; value: number }
  | { kind: 'date'; value: string }
  | null

/**
 * excel: for people opening the file in Excel (a byte order mark, identifiers wrapped, formula
 * triggers neutralised); plain: for accounting software, pandas and SQL (UTF-8 without a byte order
 * mark, every text value quoted exactly as it is, nothing wrapped or prefixed). A plain file is not
 * meant for Excel, and says so in its name.
 */
export type CsvStyle = 'excel' | 'plain'

export const text = (value: string | null | undefined): CsvCell => (value === null || value === undefined ? null : { kind: 'text', value })
export const amount = (minor: number | null | undefined, currency: string): CsvCell =>
  minor === null || minor === undefined ? null : { kind: 'amount', minor, currency }
export const identifier = (value: string | null | undefined): CsvCell =>
  value === null || value === undefined ? null : { kind: 'identifier', value }
export const integer = (value: number | null | undefined): CsvCell =>
  value === null || value === undefined ? null : { kind: 'integer', value }
export const measure = (value: number | null | undefined): CsvCell =>
  value === null || value === undefined ? null : { kind: 'number', value }
/** A day as YYYY-MM-DD; anything else (several days joined, a time) stays text. */
export const date = (value: string | null | undefined): CsvCell =>
  value === null || value === undefined ? null : /^\d{4}-\d{2}-\d{2}$/.test(value) ? { kind: 'date', value } : { kind: 'text', value }

/** A formula trigger at the start, or after leading whitespace or NUL characters (Excel skips those). */
const FORMULA_START = /^[\s\0]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r\n\0]/
/** What ="…" may hold: nothing that could close it, split it or call a function, within Excel's 255 characters of a string in a formula. */
const WRAPPABLE = /^[A-Za-z0-9 _./+-]{1,255}$/

/** Whether a value's first character may start a formula (FORMULA_START's first characters, whitespace among them): only then is the whole pattern tried. */
function mayStartFormula(value: string): boolean {
  const c = value.charCodeAt(0)
  // Letters, digits and the other printable ASCII characters from '0' up cannot (only '=' and '@' among them can).
  return !(c >= 0x30 && c <= 0x7e && c !== 0x3d && c !== 0x40)
}

export function neutralise(value: string): string {
  return value.length > 0 && mayStartFormula(value) && FORMULA_START.test(value) ? `'${value}` : value
}

/** RFC 4180 quoting, for every text field: quotes doubled, the whole field in quotes. */
function quote(field: string): string {
  return field.includes('"') ? `"${field.replaceAll('"', '""')}"` : `"${field}"`
}

export function formatCell(cell: CsvCell, style: CsvStyle = 'excel'): string {
  if (cell === null) return ''
  if (style === 'plain')
    return cell.kind === 'amount' || cell.kind === 'integer' || cell.kind === 'number' ? formatCell(cell) : quote(cell.value)
  switch (cell.kind) {
    case 'amount':
      return toMajorString(cell.minor, cell.currency)
    case 'integer':
      if (!Number.isSafeInteger(cell.value)) throw new Error(`${cell.value} is not a whole number`)
      return String(cell.value)
    case 'number':
      if (!Number.isFinite(cell.value)) throw new Error(`${cell.value} is not a number`)
      return String(cell.value)
    case 'identifier':
      if (WRAPPABLE.test(cell.value)) return quote(`="${cell.value}"`)
      return quote(neutralise(cell.value))
    case 'date':
    case 'text':
      return quote(neutralise(cell.value))
  }
}

/** UTF-8 byte order mark: makes Excel read the file as UTF-8 (names with accents, ₦, ₵). */
export const BOM = '\uFEFF'

export const LINE_END = '\r\n'

/** What a file starts with: the byte order mark Excel needs, nothing for a plain file. */
export const preamble = (style: CsvStyle): string => (style === 'excel' ? BOM : '')

export function headerLine(header: readonly string[], style: CsvStyle = 'excel'): string {
  return header.map((h) => quote(style === 'excel' ? neutralise(h) : h)).join(',') + LINE_END
}

export function rowLine(row: readonly CsvCell[], width: number, style: CsvStyle = 'excel'): string {
  if (row.length !== width) throw new Error(`A row has ${row.length} cells but the header has ${width}`)
  return row.map((cell) => formatCell(cell, style)).join(',') + LINE_END
}

/** A plain file's name says it is not for Excel: "report.csv" → "report-plain-not-for-excel.csv". */
export function plainFileName(name: string): string {
  return name.replace(/(\.csv)?$/i, '-plain-not-for-excel.csv')
}

/** The whole file: BOM, header row, then each row, every line ending in CRLF. */
export function toExcelCsv(header: readonly string[], rows: Iterable<readonly CsvCell[]>, style: CsvStyle = 'excel'): string {
  let out = preamble(style) + headerLine(header, style)
  for (const row of rows) out += rowLine(row, header.length, style)
  return out
}

// The one set of rules for every CSV Ledgerline writes for people: opens cleanly in Excel, exact amounts, no formula injection.
import { toMajorString } from '../money'

/**
 * A cell, by what it holds; the kind decides how it is written:
 * - text: free text from the provider or the user, always quoted; a formula trigger (= + - @ or
 *   their full-width forms ＝ ＋ － ＠, tab, CR, LF), even after leading spaces or NUL characters,
 *   is neutralised with a single quote (OWASP CSV-injection guidance), so Excel never runs it;
 * - amount: exact integer minor units, written as the plain major-unit decimal ("-1234.50"), which
 *   Excel reads as a number and which is never neutralised (a minus sign there is not a formula);
 * - identifier: account numbers, references, ids. Ones Excel would mangle (leading zeros, more than
 *   15 digits, things it reads as dates or exponents) are written as ="0123456789" so they stay
 *   text; only when they hold nothing but letters, digits, space and . _ / - (so the wrapper can
 *   only ever yield that string). Anything else is written as neutralised text. Always quoted.
 *
 * Every cell that is not a number is quoted, so an Excel that splits on ";" (European locales)
 * still sees one cell, never a "=" that a split would have exposed.
 */
export type CsvCell =
  | { kind: 'text'; value: string }
  | { kind: 'amount'; minor: number; currency: string }
  | { kind: 'identifier'; value: string }
  | { kind: 'integer'; value: number }
  | null

export const text = (value: string | null | undefined): CsvCell => (value === null || value === undefined ? null : { kind: 'text', value })
export const amount = (minor: number | null | undefined, currency: string): CsvCell =>
  minor === null || minor === undefined ? null : { kind: 'amount', minor, currency }
export const identifier = (value: string | null | undefined): CsvCell =>
  value === null || value === undefined ? null : { kind: 'identifier', value }
export const integer = (value: number | null | undefined): CsvCell =>
  value === null || value === undefined ? null : { kind: 'integer', value }

/** A formula trigger at the start, or after leading whitespace or NUL characters (Excel skips those). */
const FORMULA_START = /^[\s\0]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r\n\0]/
const SAFE_IDENTIFIER = /^[A-Za-z0-9 _./-]+$/
/** Values Excel would turn into a number, date or exponent and so lose the text as written. */
const EXCEL_WOULD_CONVERT = /^(?:0\d+|\d{16,}|\d+[eE][+-]?\d+|\d{1,4}[-/.]\d{1,2}(?:[-/.]\d{1,4})?|[+-]?\d+(?:\.\d+)?)$/

export function neutralise(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value
}

/** RFC 4180 quoting, for every text field: quotes doubled, the whole field in quotes. */
function quote(field: string): string {
  return `"${field.replaceAll('"', '""')}"`
}

export function formatCell(cell: CsvCell): string {
  if (cell === null) return ''
  switch (cell.kind) {
    case 'amount':
      return toMajorString(cell.minor, cell.currency)
    case 'integer':
      if (!Number.isSafeInteger(cell.value)) throw new Error(`${cell.value} is not a whole number`)
      return String(cell.value)
    case 'identifier':
      if (EXCEL_WOULD_CONVERT.test(cell.value) && SAFE_IDENTIFIER.test(cell.value)) return quote(`="${cell.value}"`)
      return quote(neutralise(cell.value))
    case 'text':
      return quote(neutralise(cell.value))
  }
}

/** UTF-8 byte order mark: makes Excel read the file as UTF-8 (names with accents, ₦, ₵). */
export const BOM = '\uFEFF'

export const LINE_END = '\r\n'

export function headerLine(header: readonly string[]): string {
  return header.map((h) => quote(neutralise(h))).join(',') + LINE_END
}

export function rowLine(row: readonly CsvCell[], width: number): string {
  if (row.length !== width) throw new Error(`A row has ${row.length} cells but the header has ${width}`)
  return row.map(formatCell).join(',') + LINE_END
}

/** The whole file: BOM, header row, then each row, every line ending in CRLF. */
export function toExcelCsv(header: readonly string[], rows: Iterable<readonly CsvCell[]>): string {
  let out = BOM + headerLine(header)
  for (const row of rows) out += rowLine(row, header.length)
  return out
}

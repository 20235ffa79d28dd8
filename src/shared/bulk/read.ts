// Reads a bulk CSV file as people really save it (any separator, BOM, CRLF, headers in any order and case) into the spec's columns.
import Papa from 'papaparse'
import { BULK_FILE_LIMITS } from '../api/assumptions'
import { decodeCsvBytes } from './decode'
import { ProblemList, shown, type BulkKind } from './problems'

/** The columns of each file kind, in the provider's order (docs/api.md, Bulk files); the export writes exactly these. */
export const BULK_COLUMNS: Record<BulkKind, readonly string[]> = {
  transfers: ['amount', 'currency', 'bank_code', 'branch_code', 'account_number', 'account_name', 'narration'],
  plans: ['title', 'frequency', 'amount', 'currency', 'internalReference', 'pricingOptions']
}

export interface BulkTable {
  kind: BulkKind
  columns: readonly string[]
  /** Each data row's cells in the spec's column order, trimmed; a column the file lacks reads as ''. */
  rows: string[][]
  /** The row number a spreadsheet shows for each data row (the header is row 1). */
  sourceRows: number[]
  /** Which of `columns` the file has. */
  present: boolean[]
  /** The separator the file uses. */
  delimiter: string
}

const DELIMITERS = [',', ';', '\t', '|'] as const
const DELIMITER_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' }

/** A header as people write it: case, spaces, underscores, dashes and dots do not matter ("Bank Code" is bank_code). */
export function headerKey(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_.-]+/g, '')
}

/** The first line of the text, for guessing the separator (a header never holds a quoted line break in practice). */
function firstLine(text: string): string {
  const end = text.search(/\r?\n|\r/)
  return end === -1 ? text : text.slice(0, end)
}

/**
 * The separator that makes the most of the header line known columns; ties go to the one that
 * splits it most, then to the comma. A one-column file has none and reads as comma-separated.
 */
export function detectDelimiter(text: string, columns: readonly string[]): string {
  const line = firstLine(text)
  const wanted = new Set(columns.map(headerKey))
  let best: { delimiter: string; known: number; cells: number } = { delimiter: ',', known: -1, cells: 0 }
  for (const delimiter of DELIMITERS) {
    const cells = (Papa.parse<string[]>(line, { delimiter }).data[0] ?? []).map(headerKey)
    const known = cells.filter((cell) => wanted.has(cell)).length
    if (known > best.known || (known === best.known && cells.length > best.cells)) best = { delimiter, known, cells: cells.length }
  }
  return best.delimiter
}

/** Space, tab, no-break space and the like: what trim() removes, tested without building a string. */
const isSpace = (c: number): boolean =>
  c > 32 && c < 127
    ? false
    : c === 32 ||
      c === 9 ||
      c === 160 ||
      c === 0xfeff ||
      (c >= 10 && c <= 13) ||
      c === 0x2028 ||
      c === 0x2029 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0x1680
const trimmed = (cell: string): string =>
  cell.length > 0 && (isSpace(cell.charCodeAt(0)) || isSpace(cell.charCodeAt(cell.length - 1))) ? cell.trim() : cell
/**
 * A cell as the check and the export read it: trimmed. One whose trimmed edge held a line break is said (a warning: the
 * exported file leaves it out, but this file itself would send it to the provider).
 */
function cellOf(cell: string, row: number, column: string, problems: ProblemList): string {
  const trim = trimmed(cell)
  if (trim !== cell && /^\s*[\r\n\u2028\u2029]|[\r\n\u2028\u2029]\s*$/.test(cell))
    problems.warning(
      row,
      column,
      'edge_line_break',
      `${column} ${shown(cell)} starts or ends with a line break: the check and the export leave it out, but this file would send it to the provider; upload the exported file.`
    )
  return trim
}
const isBlank = (record: readonly string[]): boolean => {
  for (const cell of record) if (trimmed(cell) !== '') return false
  return true
}

/** A table with no rows and none of the columns: what a file that cannot be read gives. */
function emptyTable(kind: BulkKind): BulkTable {
  const columns = BULK_COLUMNS[kind]
  return { kind, columns, rows: [], sourceRows: [], present: columns.map(() => false), delimiter: ',' }
}

/**
 * Splits the text into the spec's columns and reports what is wrong with the file as a whole:
 * empty, not CSV, missing, repeated or unknown columns, rows with too many or too few cells,
 * a quote left open, no data rows, too many rows. Never throws for bad input.
 */
export function readBulkCsv(kind: BulkKind, input: string, problems: ProblemList): BulkTable {
  const columns = BULK_COLUMNS[kind]
  const table = emptyTable(kind)
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input
  if (text.length > BULK_FILE_LIMITS.maxBytes) {
    problems.error(
      null,
      null,
      'file_too_large',
      `The file is larger than ${BULK_FILE_LIMITS.maxBytes / 1024 / 1024} MiB; split it into smaller files.`
    )
    return table
  }
  if (text.trim() === '') {
    problems.error(
      null,
      null,
      'file_empty',
      'The file is empty: it needs a header row with the columns ' + columns.join(', ') + ' and at least one data row.'
    )
    return table
  }
  table.delimiter = detectDelimiter(text, columns)
  const parsed = Papa.parse<string[]>(text, { delimiter: table.delimiter, skipEmptyLines: false })
  const records = parsed.data
  for (const error of parsed.errors) {
    if (error.type === 'Quotes') {
      const row = typeof error.row === 'number' ? error.row + 1 : null
      problems.error(
        row,
        null,
        'quote_not_closed',
        `A quoted cell starting on row ${row ?? '?'} is never closed, so every line after it is read into that cell. Close the quote or remove it.`
      )
    }
  }

  const header = records[0] ?? []
  const byKey = new Map(columns.map((column, index) => [headerKey(column), index]))
  /** For each header cell, the spec column it is (its index in `columns`), or -1. */
  const target: number[] = []
  const unknown: string[] = []
  header.forEach((cell, index) => {
    const spec = byKey.get(headerKey(cell))
    if (spec === undefined) {
      target.push(-1)
      if (cell.trim() !== '') unknown.push(cell.trim())
      else if (records.slice(1).some((record) => (record[index] ?? '').trim() !== '')) unknown.push(`(column ${index + 1}, no header)`)
      return
    }
    if (table.present[spec]) {
      target.push(-1)
      problems.error(
        1,
        columns[spec] as string,
        'duplicate_column',
        `The column ${columns[spec]} appears more than once in the header (again as ${shown(cell)} in column ${index + 1}); keep one.`
      )
      return
    }
    table.present[spec] = true
    target.push(spec)
  })
  const known = table.present.filter(Boolean).length
  if (known === 0) {
    const separators = DELIMITERS.filter((d) => firstLine(text).includes(d))
    problems.error(
      1,
      null,
      'not_csv',
      `Row 1 is not a ${kind === 'transfers' ? 'bulk transfer' : 'bulk plan'} header: none of ${columns.join(', ')} is there` +
        (separators.length === 0 ? ', and it has no comma, semicolon or tab separating cells.' : '.') +
        ' Is this the right file, saved as CSV?'
    )
    return table
  }
  columns.forEach((column, index) => {
    if (!table.present[index])
      problems.error(1, column, 'missing_column', `The header has no ${column} column; add it (the columns are ${columns.join(', ')}).`)
  })
  for (const name of unknown)
    problems.warning(
      1,
      null,
      'unknown_column',
      `The column ${shown(name)} is not one of ${columns.join(', ')}; it is left out of the export.`
    )
  if (table.delimiter !== ',') {
    problems.warning(
      null,
      null,
      'not_comma_separated',
      `The file separates cells with a ${DELIMITER_NAMES[table.delimiter]}; the export writes commas, as the provider expects.`
    )
  }

  const inOrder = target.length === columns.length && target.every((spec, c) => spec === c)
  let lastFilled = records.length - 1
  while (lastFilled > 0 && isBlank(records[lastFilled] as string[])) lastFilled--
  for (let r = 1; r <= lastFilled; r++) {
    const record = records[r] as string[]
    const row = r + 1
    if (isBlank(record)) {
      problems.warning(row, null, 'blank_row', `Row ${row} is blank; it is left out of the export.`)
      continue
    }
    if (record.length > header.length && !isBlank(record.slice(header.length))) {
      problems.error(
        row,
        null,
        'extra_cells',
        `Row ${row} has ${record.length} cells but the header has ${header.length}: is there an unquoted comma or separator inside a value?`
      )
    } else if (record.length < header.length) {
      const lost = header
        .slice(record.length)
        .map((h) => h.trim())
        .filter(Boolean)
      problems.error(
        row,
        null,
        'missing_cells',
        `Row ${row} has ${record.length} cells but the header has ${header.length}; ${lost.join(', ')} ${lost.length === 1 ? 'is' : 'are'} missing.`
      )
    }
    let cells: string[]
    if (inOrder && record.length === columns.length) {
      // The header is the spec's, in its order: the parser's own array is the row.
      cells = record
      for (let c = 0; c < cells.length; c++) {
        const cell = cells[c] as string
        const trim = cellOf(cell, row, columns[c] as string, problems)
        // Written back only when it changed: storing a string into an old array is not free.
        if (trim !== cell) cells[c] = trim
      }
    } else {
      cells = new Array<string>(columns.length).fill('')
      for (let c = 0; c < target.length; c++) {
        const spec = target[c] as number
        if (spec >= 0) cells[spec] = cellOf(record[c] ?? '', row, columns[spec] as string, problems)
      }
    }
    table.rows.push(cells)
    table.sourceRows.push(row)
  }
  if (table.rows.length === 0) problems.error(null, null, 'no_rows', 'The file has a header but no data rows.')
  if (table.rows.length > BULK_FILE_LIMITS.maxRows) {
    problems.error(
      null,
      null,
      'too_many_rows',
      `The file has ${table.rows.length.toLocaleString('en')} data rows; at most ${BULK_FILE_LIMITS.maxRows.toLocaleString('en')} go in one file. Split it.`
    )
  }
  return table
}

/** Decodes a file's bytes and reads them into the spec's columns; an empty table when they are too large or not CSV text (the problems say why). */
export function readBulkBytes(kind: BulkKind, bytes: Uint8Array, problems: ProblemList): BulkTable {
  if (bytes.length > BULK_FILE_LIMITS.maxBytes) {
    problems.error(
      null,
      null,
      'file_too_large',
      `The file has ${bytes.length.toLocaleString('en')} bytes; at most ${BULK_FILE_LIMITS.maxBytes / 1024 / 1024} MiB go in one file. Split it.`
    )
    return emptyTable(kind)
  }
  const text = decodeCsvBytes(bytes, problems)
  return text === null ? emptyTable(kind) : readBulkCsv(kind, text, problems)
}

// Writes bulk files back out: the file for the provider (exactly its columns, UTF-8, CRLF) and, for people, the rows with their provider status.
import { LINE_END, neutralise, text, toExcelCsv, type CsvCell } from '../csv/excel-safe'
import type { BulkKind } from './problems'
import { BULK_COLUMNS } from './read'

/** RFC 4180: a field is quoted only when it holds the separator, a quote, a line break or edge spaces. */
function field(value: string): string {
  const safe = neutralise(value)
  return /[",\r\n]|^\s|\s$/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/**
 * The file the provider receives: the spec's columns in the spec's order, UTF-8 without a byte
 * order mark (a BOM would become part of the first column's name for a strict parser), CRLF line
 * ends, and each cell through the shared formula-injection rule (a leading = + - @ gets an
 * apostrophe), so the file is also safe to open in a spreadsheet. Rows are cells in column order.
 */
export function providerCsv(kind: BulkKind, rows: Iterable<readonly string[]>): string {
  const columns = BULK_COLUMNS[kind]
  let out = columns.join(',') + LINE_END
  for (const row of rows) {
    if (row.length !== columns.length) throw new Error(`A row has ${row.length} cells but a ${kind} file has ${columns.length} columns`)
    out += row.map(field).join(',') + LINE_END
  }
  return out
}

/**
 * The rows with what the provider says of each (for people, in Excel): the file's columns, then
 * the row's status, its references and the provider's message, through the Excel-safe writer.
 */
export function statusCsv(kind: BulkKind, rows: readonly (readonly string[])[], statuses: readonly (RowStatus | null)[]): string {
  const header = [...BULK_COLUMNS[kind], 'status', 'reference', 'servicereference', 'message']
  const lines = rows.map((row, i): CsvCell[] => {
    const status = statuses[i] ?? null
    return [
      ...row.map((cell) => text(cell)),
      text(status?.status ?? 'not found'),
      text(status?.reference ?? null),
      text(status?.serviceReference ?? null),
      text(status?.message ?? null)
    ]
  })
  return toExcelCsv(header, lines)
}

/** What the provider reports for one row of a sent file. */
export interface RowStatus {
  /** The provider's status as sent (e.g. SUCCESSFUL, failed, processing). */
  status: string
  reference: string | null
  serviceReference: string | null
  message: string | null
}

// Exports cached records as an Excel-safe CSV, streamed from SQLite and written under its final name only when complete.
import { writeSync } from 'node:fs'
import { setImmediate as yieldToEvents } from 'node:timers/promises'
import { amount, headerLine, identifier, preamble, rowLine, text, type CsvCell, type CsvStyle } from '../../shared/csv/excel-safe'
import type { SearchQuery, SearchResource } from '../../shared/search'
import { openDatabase, type SqliteOptions } from '../cache/sqlite'
import { compileQuery } from '../search/search'
import { formatInZone } from '../../shared/time'
import { writeFileSafely } from '../files/safe-file'

type DbRow = Record<string, string | number | null>

/** Marks a money cell holding the provider's text because it could not be converted exactly (unknown currency, too many decimals or digits). */
export const AS_SENT_MARK = 'as sent: '

/**
 * A money cell: the exact decimal when the amount converted, else the provider's text, marked
 * "as sent: …" so it is never mistaken for a checked amount (and never an empty cell).
 */
function money(row: DbRow, minorColumn: string, currencyColumn: string, rawColumn: string): CsvCell {
  const minor = row[minorColumn]
  const currency = row[currencyColumn]
  if (typeof minor === 'number' && typeof currency === 'string') return amount(minor, currency)
  const raw = row[rawColumn]
  return raw === null || raw === undefined ? null : text(`${AS_SENT_MARK}${String(raw)}`)
}

const str = (row: DbRow, column: string): string | null => (row[column] === null || row[column] === undefined ? null : String(row[column]))

interface ExportLayout {
  /** LOCAL_TIME is replaced by the column of times in the business time zone, named with the zone. */
  header: string[]
  cells(row: DbRow, mode: string, zone: string): CsvCell[]
}

const LOCAL_TIME = 'created_local'
/** A timestamp in the profile's business time zone, beside the one as sent. */
const local = (row: DbRow, column: string, zone: string): CsvCell => text(formatInZone(str(row, column), zone))

const LAYOUTS: Record<SearchResource, ExportLayout> = {
  payments: {
    header: [
      'mode',
      'id',
      'reference',
      'service_reference',
      'created_at',
      LOCAL_TIME,
      'status',
      'status_as_sent',
      'channel',
      'amount',
      'currency',
      'fees',
      'tax',
      'local_amount',
      'total_local_amount',
      'local_currency',
      'customer_name',
      'customer_email',
      'account_number',
      'plan_id'
    ],
    cells: (r, mode, zone) => [
      text(mode),
      identifier(str(r, 'id')),
      identifier(str(r, 'reference')),
      identifier(str(r, 'service_reference')),
      text(str(r, 'created_at')),
      local(r, 'created_at', zone),
      text(str(r, 'status')),
      text(str(r, 'status_raw')),
      text(str(r, 'channel')),
      money(r, 'amount_minor', 'currency', 'amount_raw'),
      text(str(r, 'currency')),
      money(r, 'fees_minor', 'currency', 'fees_raw'),
      money(r, 'tax_minor', 'currency', 'tax_raw'),
      money(r, 'local_amount_minor', 'local_currency', 'local_amount_raw'),
      money(r, 'total_local_minor', 'local_currency', 'total_local_raw'),
      text(str(r, 'local_currency')),
      text(str(r, 'customer_name')),
      text(str(r, 'customer_email')),
      identifier(str(r, 'account_number')),
      identifier(str(r, 'plan_id'))
    ]
  },
  transfers: {
    header: [
      'mode',
      'reference',
      'service_reference',
      'bulk_file_id',
      'status',
      'status_as_sent',
      'amount',
      'currency',
      'account_number',
      'account_name',
      'bank_code',
      'bank_name',
      'narration'
    ],
    cells: (r, mode) => [
      text(mode),
      identifier(str(r, 'reference')),
      identifier(str(r, 'service_reference')),
      identifier(str(r, 'bulk_file_id')),
      text(str(r, 'status')),
      text(str(r, 'status_raw')),
      money(r, 'amount_minor', 'currency', 'amount_raw'),
      text(str(r, 'currency')),
      identifier(str(r, 'account_number')),
      text(str(r, 'account_name')),
      identifier(str(r, 'bank_code')),
      text(str(r, 'bank_name')),
      text(str(r, 'narration'))
    ]
  },
  subscriptions: {
    header: [
      'mode',
      'id',
      'plan_id',
      'customer_id',
      'customer_name',
      'customer_email',
      'status',
      'status_as_sent',
      'amount',
      'currency',
      'start_date',
      'next_payment_date',
      'created_at',
      LOCAL_TIME
    ],
    cells: (r, mode, zone) => [
      text(mode),
      identifier(str(r, 'id')),
      identifier(str(r, 'plan_id')),
      identifier(str(r, 'customer_id')),
      text(str(r, 'customer_name')),
      text(str(r, 'customer_email')),
      text(str(r, 'status')),
      text(str(r, 'status_raw')),
      money(r, 'amount_minor', 'currency', 'amount_raw'),
      text(str(r, 'currency')),
      text(str(r, 'start_date')),
      text(str(r, 'next_payment_date')),
      text(str(r, 'created_at')),
      local(r, 'created_at', zone)
    ]
  },
  plans: {
    header: [
      'mode',
      'id',
      'title',
      'internal_reference',
      'frequency',
      'status',
      'status_as_sent',
      'amount',
      'currency',
      'created_at',
      LOCAL_TIME
    ],
    cells: (r, mode, zone) => [
      text(mode),
      identifier(str(r, 'id')),
      text(str(r, 'title')),
      identifier(str(r, 'internal_reference')),
      text(str(r, 'frequency')),
      text(str(r, 'status')),
      text(str(r, 'status_raw')),
      money(r, 'amount_minor', 'currency', 'amount_raw'),
      text(str(r, 'currency')),
      text(str(r, 'created_at')),
      local(r, 'created_at', zone)
    ]
  }
}

export interface ExportResult {
  file: string
  rows: number
}

export interface ExportOptions {
  /** excel (the default) or plain: for accounting software, pandas and SQL, not for Excel. */
  style?: CsvStyle
  signal?: AbortSignal
  onProgress?: (progress: { done: number; total: number }) => void
}

/** Rows written between yields to the event loop: the host answers other calls while a million rows go out. */
const ROWS_PER_SLICE = 5_000

/**
 * Writes every record the query matches (no paging) to `file`, via a temporary file renamed at
 * the end: the file appears under its name only when complete. Reads through its own read-only
 * connection to the cache file (WAL lets it read while others write), in slices with a yield
 * between them, so it can report progress and be cancelled, and never holds up other work.
 */
export async function exportCsv(
  cache: { file: string; sqlite?: SqliteOptions },
  profile: { id: string; mode: string; timeZone?: string },
  query: SearchQuery,
  file: string,
  options: ExportOptions = {}
): Promise<ExportResult> {
  const layout = LAYOUTS[query.resource]
  const style = options.style ?? 'excel'
  const zone = profile.timeZone ?? 'UTC'
  const header = layout.header.map((name) => (name === LOCAL_TIME ? `${LOCAL_TIME} (${zone})` : name))
  const q = compileQuery(profile.id, query, zone)
  const db = openDatabase(cache.file, { ...cache.sqlite, readonly: true })
  let rows = 0
  try {
    await writeFileSafely(
      file,
      async (fd) => {
        const total = q.empty ? 0 : (db.prepare(`SELECT count(*) AS n FROM ${q.from} WHERE ${q.where}`).get(q.params) as { n: number }).n
        options.onProgress?.({ done: 0, total })
        writeSync(fd, preamble(style) + headerLine(header, style))
        if (!q.empty) {
          let chunk = ''
          for (const row of db
            .prepare(`SELECT t.* FROM ${q.from} WHERE ${q.where} ORDER BY ${q.order}`)
            .iterate(q.params) as Iterable<DbRow>) {
            chunk += rowLine(layout.cells(row, profile.mode, zone), header.length, style)
            rows++
            if (rows % ROWS_PER_SLICE === 0) {
              writeSync(fd, chunk)
              chunk = ''
              options.onProgress?.({ done: rows, total })
              await yieldToEvents()
              options.signal?.throwIfAborted()
            }
          }
          writeSync(fd, chunk)
        }
        options.onProgress?.({ done: rows, total: Math.max(rows, total) })
      },
      options.signal
    )
  } finally {
    db.close()
  }
  return { file, rows }
}

// Checks a whole bulk file (bytes, text or rows) with its kind's rules and sums it per currency: the report renderer, host and CLI show.
import { BULK_FILE_LIMITS } from '../api/assumptions'
import { toMajorString } from '../money'
import { decodeCsvBytes } from './decode'
import { checkPlanRow, newPlanPass } from './plans'
import { ProblemList, sortProblems, type BulkKind, type BulkProblem } from './problems'
import { BULK_COLUMNS, readBulkCsv, type BulkTable } from './read'
import { checkTransferRow, newTransferPass, type BankDirectory } from './transfers'

/** What the rules may compare against: the cached bank list and the internalReferences of cached plans. */
export interface BulkContext {
  banks?: BankDirectory | null
  planReferences?: ReadonlySet<string> | null
}

export interface CurrencyTotal {
  currency: string
  /** Rows whose amount and currency are valid. */
  rows: number
  minor: number
  /** The exact major-unit decimal, e.g. "1250000.00". */
  amount: string
}

export interface BulkReport {
  kind: BulkKind
  /** True when there is no error (warnings allowed). */
  valid: boolean
  /** Data rows read (blank rows not counted). */
  rows: number
  rowsWithErrors: number
  errors: BulkProblem[]
  warnings: BulkProblem[]
  totals: CurrencyTotal[]
}

type RowCheck = (cells: readonly string[], row: number, problems: ProblemList) => { minor: number; currency: string } | null

/** A fresh pass of `kind`'s row rules: cross-row checks (repeats, duplicates) see only rows given to this pass. */
export function rowChecker(kind: BulkKind, context: BulkContext): RowCheck {
  if (kind === 'transfers') {
    const pass = newTransferPass()
    return (cells, row, problems) => checkTransferRow(cells, row, context.banks ?? null, pass, problems)
  }
  const pass = newPlanPass()
  return (cells, row, problems) => checkPlanRow(cells, row, context.planReferences ?? null, pass, problems)
}

/** Running totals per currency, with the count of rows that have an error. */
export class BulkTally {
  private readonly sums = new Map<string, { rows: number; minor: number }>()
  rowsWithErrors = 0
  overflow: string | null = null

  add(value: { minor: number; currency: string } | null, hadError: boolean): void {
    if (hadError) this.rowsWithErrors++
    if (value === null) return
    const sum = this.sums.get(value.currency) ?? { rows: 0, minor: 0 }
    sum.rows++
    sum.minor += value.minor
    if (!Number.isSafeInteger(sum.minor)) this.overflow = value.currency
    this.sums.set(value.currency, sum)
  }

  totals(): CurrencyTotal[] {
    return [...this.sums]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([currency, sum]) => ({ currency, rows: sum.rows, minor: sum.minor, amount: Number.isSafeInteger(sum.minor) ? toMajorString(sum.minor, currency) : 'too large' }))
  }
}

/**
 * Checks the table's rows in slices of `sliceRows`, yielding the number of rows done after each
 * slice, so a window can keep drawing between slices; the host and CLI simply run it to the end.
 */
export function* checkRows(table: Pick<BulkTable, 'kind' | 'rows' | 'sourceRows'>, context: BulkContext, problems: ProblemList, tally: BulkTally, sliceRows = 5_000): Generator<number, void> {
  const check = rowChecker(table.kind, context)
  const { rows, sourceRows } = table
  for (let start = 0; start < rows.length; start += sliceRows) {
    const end = Math.min(rows.length, start + sliceRows)
    for (let i = start; i < end; i++) {
      const before = problems.errors
      const value = check(rows[i] as string[], sourceRows[i] as number, problems)
      tally.add(value, problems.errors > before)
    }
    yield end
  }
}

/** The report from what a pass found. */
export function bulkReport(kind: BulkKind, rows: number, problems: ProblemList, tally: BulkTally): BulkReport {
  if (tally.overflow) problems.error(null, 'amount', 'total_too_large', `The ${tally.overflow} amounts add up to more than can be held exactly; split the file.`)
  const sorted = sortProblems(problems.items, BULK_COLUMNS[kind])
  return {
    kind,
    valid: problems.errors === 0,
    rows,
    rowsWithErrors: tally.rowsWithErrors,
    errors: sorted.filter((p) => p.severity === 'error'),
    warnings: sorted.filter((p) => p.severity === 'warning'),
    totals: tally.totals()
  }
}

export interface CheckedFile {
  report: BulkReport
  /** The rows as read, for export or upload; empty when the file could not be read. */
  table: BulkTable
}

/** Reads and checks the text of a file in one go. */
export function validateBulkText(kind: BulkKind, text: string, context: BulkContext = {}, problems = new ProblemList()): CheckedFile {
  const table = readBulkCsv(kind, text, problems)
  const tally = new BulkTally()
  for (const _ of checkRows(table, context, problems, tally, Number.MAX_SAFE_INTEGER)) void _
  return { report: bulkReport(kind, table.rows.length, problems, tally), table }
}

/** Decodes and checks a file's bytes; null `table` rows when the bytes are not a CSV text at all. */
export function validateBulkBytes(kind: BulkKind, bytes: Uint8Array, context: BulkContext = {}): CheckedFile {
  const problems = new ProblemList()
  const tooLarge = bytes.length > BULK_FILE_LIMITS.maxBytes
  if (tooLarge) problems.error(null, null, 'file_too_large', `The file has ${bytes.length.toLocaleString('en')} bytes; at most ${BULK_FILE_LIMITS.maxBytes / 1024 / 1024} MiB go in one file. Split it.`)
  const text = tooLarge ? null : decodeCsvBytes(bytes, problems)
  if (text === null) {
    const table: BulkTable = { kind, columns: BULK_COLUMNS[kind], rows: [], sourceRows: [], present: BULK_COLUMNS[kind].map(() => false), delimiter: ',' }
    return { report: bulkReport(kind, 0, problems, new BulkTally()), table }
  }
  return validateBulkText(kind, text, context, problems)
}

// Checks a whole bulk file (bytes, text or rows) with its kind's rules and sums it per currency: the report renderer, host and CLI show.
import { toMajorString } from '../money'
import { checkPlanRow, newPlanPass } from './plans'
import { ProblemList, sortProblems, type BulkKind, type BulkProblem } from './problems'
import { BULK_COLUMNS, readBulkBytes, readBulkCsv, type BulkTable } from './read'
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

/** Checks one row (cells in the spec's order) and returns its amount in minor units, or -1 when its amount or currency is not valid. */
type RowCheck = (cells: readonly string[], row: number, problems: ProblemList) => number

/** Where each kind's currency is among its cells (the totals are per currency). */
export const CURRENCY_CELL: Record<BulkKind, number> = {
  transfers: BULK_COLUMNS.transfers.indexOf('currency'),
  plans: BULK_COLUMNS.plans.indexOf('currency')
}

/** A fresh pass of `kind`'s row rules: cross-row checks (repeats, duplicates) see only rows given to this pass (about `expectedRows` of them). */
export function rowChecker(kind: BulkKind, context: BulkContext, expectedRows = 0): RowCheck {
  if (kind === 'transfers') {
    const pass = newTransferPass(expectedRows)
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
  private lastCurrency = ''
  private lastSum: { rows: number; minor: number } | undefined

  /** One row: its currency cell and amount in minor units (-1: not counted), and whether it had an error. */
  add(currency: string, minor: number, hadError: boolean): void {
    if (hadError) this.rowsWithErrors++
    if (minor < 0) return
    // Rows of one currency tend to come together: the last one's sum is tried before the map.
    let sum = currency === this.lastCurrency ? this.lastSum : this.sums.get(currency)
    if (!sum) this.sums.set(currency, (sum = { rows: 0, minor: 0 }))
    this.lastCurrency = currency
    this.lastSum = sum
    sum.rows++
    sum.minor += minor
    if (!Number.isSafeInteger(sum.minor)) this.overflow = currency
  }

  totals(): CurrencyTotal[] {
    return [...this.sums]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([currency, sum]) => ({
        currency,
        rows: sum.rows,
        minor: sum.minor,
        amount: Number.isSafeInteger(sum.minor) ? toMajorString(sum.minor, currency) : 'too large'
      }))
  }
}

/**
 * Checks the table's rows in slices of `sliceRows`, yielding the number of rows done after each
 * slice, so a window can keep drawing between slices; the host and CLI simply run it to the end.
 */
export function* checkRows(
  table: Pick<BulkTable, 'kind' | 'rows' | 'sourceRows'>,
  context: BulkContext,
  problems: ProblemList,
  tally: BulkTally,
  sliceRows = 5_000
): Generator<number, void> {
  const check = rowChecker(table.kind, context, table.rows.length)
  const currencyAt = CURRENCY_CELL[table.kind]
  const { rows, sourceRows } = table
  for (let start = 0; start < rows.length; start += sliceRows) {
    const end = Math.min(rows.length, start + sliceRows)
    for (let i = start; i < end; i++) {
      const before = problems.errors
      const cells = rows[i] as string[]
      const minor = check(cells, sourceRows[i] as number, problems)
      tally.add(cells[currencyAt] as string, minor, problems.errors > before)
    }
    yield end
  }
}

/** The report from what a pass found. */
export function bulkReport(kind: BulkKind, rows: number, problems: ProblemList, tally: BulkTally): BulkReport {
  if (tally.overflow)
    problems.error(
      null,
      'amount',
      'total_too_large',
      `The ${tally.overflow} amounts add up to more than can be held exactly; split the file.`
    )
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

/** Every rule over a table already read, to the end. */
function checkTable(table: BulkTable, context: BulkContext, problems: ProblemList): CheckedFile {
  const tally = new BulkTally()
  for (const _ of checkRows(table, context, problems, tally, Number.MAX_SAFE_INTEGER)) void _
  return { report: bulkReport(table.kind, table.rows.length, problems, tally), table }
}

/** Reads and checks the text of a file in one go. */
export function validateBulkText(kind: BulkKind, text: string, context: BulkContext = {}, problems = new ProblemList()): CheckedFile {
  return checkTable(readBulkCsv(kind, text, problems), context, problems)
}

/** Decodes, reads and checks a file's bytes in one go. */
export function validateBulkBytes(kind: BulkKind, bytes: Uint8Array, context: BulkContext = {}): CheckedFile {
  const problems = new ProblemList()
  const table = readBulkBytes(kind, bytes, problems)
  return checkTable(table, context, problems)
}

// What reading a statement gives: its rows, the facts of its file, how it was read, its problems and questions, and its proof.
import type { ImportQuestion, ParseProblem, StatementMapping, StatementProof } from '../../../shared/reconcile'
import type { StatementFormat } from './sniff'
import type { StatementRows } from './statement-rows'

export interface StatementRow {
  /** Stable id from the row's content (and its occurrence among identical rows): the same row in any file or order has the same id. */
  id: string
  line: number
  date: string
  time: string | null
  amountMinor: number
  currency: string
  reference: string | null
  description: string | null
  counterparty: string | null
}

export interface ParsedStatement {
  name: string
  /** What the file is, known by its content. */
  format: StatementFormat
  /** Which statement of the file this is ("sheet March", "account 0123456789 NGN, 2026-03-01 to 2026-03-31"); null when the file holds one. */
  label: string | null
  /** The account the statement is of, when it says. */
  account: string | null
  sha256: string
  size: number
  encoding: string | null
  encodingHow: string | null
  separator: string | null
  sheet: string | null
  header: string[]
  /** A PDF's pages: the file-wide line each starts on (lines are counted through the file; lineWhere names them by page). Null for other formats. */
  pageStarts: number[] | null
  /** Line of the header row; null when the file has none (columns are then "Column 1", "Column 2", …). */
  headerLine: number | null
  headerSignature: string
  /** Signatures of the first rows, any of which may be the header a saved preset knows. */
  rowSignatures: string[]
  mapping: StatementMapping
  /** e.g. "1,234.56", shown so the user sees how amounts were read. */
  numberForm: string | null
  /** e.g. "DD/MM/YYYY". */
  dateForm: string | null
  /** The rows read, held compactly (at, slice, iterate). */
  rows: StatementRows
  problems: ParseProblem[]
  /** Lines left out on purpose: header blocks, totals and balance lines, lines without an amount. */
  skipped: { line: number; reason: string }[]
  /** What must be answered before the file can be used; rows is empty while any is open. */
  questions: ImportQuestion[]
  /** What the statement says of itself (balances, breaks, lines not read), checked; null while questions are open. */
  proof: StatementProof | null
}

/** What is known of a file before any of it is read as a statement. */
export interface FileFacts {
  name: string
  sha256: string
  size: number
  encoding: string | null
  encodingHow: string | null
}

/** A mapping that gives nothing: every column, form and currency is read from the file. */
export const EMPTY_MAPPING: StatementMapping = {
  columns: {},
  dateOrder: null,
  decimalMark: null,
  defaultCurrency: null,
  encoding: null,
  separator: null
}

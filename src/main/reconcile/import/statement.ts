// One statement file → exact rows: encoding, table, header, mapping, number form and date order settled by every row; each bad row's problem on its line and column.
import { createHash } from 'node:crypto'
import { currencyExponent, isKnownCurrency } from '../../../shared/money'
import type {
  DateOrder,
  DecimalMark,
  ImportQuestion,
  MappedField,
  ParseProblem,
  PartlyRead,
  StatementMapping,
  StatementProof
} from '../../../shared/reconcile'
import { CLOSING_BALANCE, OPENING_BALANCE, ProofLines, proveStatement } from './balances'
import {
  AmountFormatError,
  DecimalTally,
  describeNumberForm,
  parseAmountBody,
  readAmountText,
  wellFormedMinor,
  type AmountText
} from './amounts'
import { DateOrderTally, dayOf, fitsOrder, NUMERIC_FORMS, readDateShape, type DateShape } from './dates'
import { decodeStatement, decodeUtf8Else1252 } from './encoding'
import { currencyOfHeader, guessColumns, headerSignature, INDICATOR_CREDIT, INDICATOR_DEBIT, normaliseHeader } from './mapping'
import { findHeaderRow, isOwnReport, readCsvGrid, type Grid } from './table'
import { parseBankStatements, type BankStatement } from './bank-statement'
import { readMt940 } from './mt940'
import { decodeXml, readCamt } from './camt'
import { decodeOfx, readOfx, withoutStatement } from './ofx'
import { QIF_MAPPING, readQifGrid } from './qif'
import { layoutPdfStatement, readPdfText } from './pdf'
import { notAStatement, sniffStatement, type StatementFormat } from './sniff'
import { readWorkbookGrids } from './workbook'
import { AppError } from '../../errors'
import { DEFAULT_INFLATED_LIMIT } from '../../files/zip'
import { keyChar } from '../key-index'

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
  rows: StatementRow[]
  problems: ParseProblem[]
  /** Lines left out on purpose: header blocks, totals and balance lines, lines without an amount. */
  skipped: { line: number; reason: string }[]
  /** What must be answered before the file can be used; rows is empty while any is open. */
  questions: ImportQuestion[]
  /** What the statement says of itself (balances, breaks, lines not read), checked; null while questions are open. */
  proof: StatementProof | null
}

/** Murmur3's final mix: every input bit reaches every output bit. */
function fmix32(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b | 0)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35 | 0)
  return h ^ (h >>> 16)
}

/** The three hash lanes of the last rowContentId, for IdSet. */
const LANES = new Int32Array(3)

/** The ids seen so far, as their three hash lanes in an open-addressed table: no string hashed, nothing for the collector. */
class IdSet {
  private lanes = new Int32Array(3 << 16)
  private used = new Uint8Array(1 << 16)
  private count = 0

  /** Adds an id by its lanes; true when it was there already. */
  add(a: number, b: number, c: number): boolean {
    if ((this.count + 1) * 2 > this.used.length) this.grow()
    const mask = this.used.length - 1
    for (let i = (a ^ (b >>> 7)) & mask; ; i = (i + 1) & mask) {
      if (!this.used[i]) {
        this.used[i] = 1
        this.lanes[i * 3] = a
        this.lanes[i * 3 + 1] = b
        this.lanes[i * 3 + 2] = c
        this.count++
        return false
      }
      if (this.lanes[i * 3] === a && this.lanes[i * 3 + 1] === b && this.lanes[i * 3 + 2] === c) return true
    }
  }

  private grow(): void {
    const lanes = this.lanes
    const used = this.used
    this.used = new Uint8Array(used.length * 2)
    this.lanes = new Int32Array(this.used.length * 3)
    this.count = 0
    for (let i = 0; i < used.length; i++)
      if (used[i]) this.add(lanes[i * 3] as number, lanes[i * 3 + 1] as number, lanes[i * 3 + 2] as number)
  }
}

/**
 * A row's id from its content: a 96-bit hash (three independent 32-bit multiply-xor lanes over the
 * UTF-16 code units, each finished by murmur3's mix) in base64url, of the text
 * `currency␟day␟minor␟reference␟description␟counterparty` (␟ is U+001F, the reference normalised:
 * its ASCII letters and digits, upper-cased). The text is fed to the lanes piece by piece, never
 * built. Not for secrets: ids only need to be stable and not collide (a million rows: about 1 in
 * 10^16), and hash at a million rows a second. Also sets LANES.
 */
export function rowContentId(
  currency: string,
  day: string,
  minor: number,
  reference: string | null,
  description: string | null,
  counterparty: string | null
): string {
  HASH.a = 0x6a09e667 | 0
  HASH.b = 0x3c6ef372 | 0
  HASH.c = 0x510e527f | 0
  HASH.length = 0
  feed(currency)
  feedUnit(0x1f)
  feed(day)
  feedUnit(0x1f)
  feed(String(minor))
  feedUnit(0x1f)
  if (reference) {
    for (let i = 0; i < reference.length; i++) {
      const k = keyChar(reference.charCodeAt(i))
      if (k >= 0) feedUnit(k)
    }
  }
  feedUnit(0x1f)
  if (description) feed(description)
  feedUnit(0x1f)
  if (counterparty) feed(counterparty)
  LANES[0] = fmix32(HASH.a ^ HASH.length)
  LANES[1] = fmix32(HASH.b)
  LANES[2] = fmix32(HASH.c)
  return `f:${base64url(LANES)}`
}

/** The lanes of the id being hashed, and how many code units it has taken. */
const HASH = { a: 0, b: 0, c: 0, length: 0 }

function feedUnit(k: number): void {
  HASH.a = Math.imul(HASH.a ^ k, 0x01000193)
  HASH.b = Math.imul(HASH.b ^ k, 0x5bd1e995)
  HASH.c = Math.imul(HASH.c ^ k, 0x27d4eb2f)
  HASH.length++
}

function feed(text: string): void {
  for (let i = 0; i < text.length; i++) feedUnit(text.charCodeAt(i))
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

function laneByte(lanes: Int32Array, k: number): number {
  return ((lanes[k >> 2] as number) >>> ((k & 3) * 8)) & 255
}

/** The lanes' 12 bytes, each lane little-endian (as Buffer's writeInt32LE writes it), in base64url: 16 characters. */
function base64url(lanes: Int32Array): string {
  const codes = new Array<number>(16)
  for (let g = 0; g < 4; g++) {
    const n = (laneByte(lanes, g * 3) << 16) | (laneByte(lanes, g * 3 + 1) << 8) | laneByte(lanes, g * 3 + 2)
    codes[g * 4] = BASE64URL.charCodeAt((n >>> 18) & 63)
    codes[g * 4 + 1] = BASE64URL.charCodeAt((n >>> 12) & 63)
    codes[g * 4 + 2] = BASE64URL.charCodeAt((n >>> 6) & 63)
    codes[g * 4 + 3] = BASE64URL.charCodeAt(n & 63)
  }
  return String.fromCharCode(...codes)
}

export const EMPTY_MAPPING: StatementMapping = {
  columns: {},
  dateOrder: null,
  decimalMark: null,
  defaultCurrency: null,
  encoding: null,
  separator: null
}

/** Words every opening or closing balance label holds one of: looked for before the full labels are. */
const BALANCE_WORDS = /bal|forward|b\/f|c\/f|solde|saldo|likutis/i
/** Words a balance line may hold beside its phrase: when, from which period ("Balance brought forward from February"). */
const BALANCE_LINE_WORDS =
  /\b(?:as|at|of|on|from|to|for|the|period|statement|date|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/giu

/**
 * Whether a dated line that moves money is a balance line: its description is the balance phrase and nothing else that says
 * what moved ("Opening balance", "Balance b/f as at 01/03"); "Closing balance adjustment fee" is a transaction and is kept.
 */
function onlyBalanceWords(description: string): boolean {
  const rest = description.replace(OPENING_BALANCE, ' ').replace(CLOSING_BALANCE, ' ').replace(BALANCE_LINE_WORDS, ' ')
  return !/\p{L}/u.test(rest)
}

const TOTALS =
  /\b(total|totals|sub-?total|closing balance|opening balance|balance b\/?f|balance c\/?f|brought forward|carried forward|end of statement|balance as at|apyvarta|obroty|omsättning)\b/i

/** What one of Ledgerline's own reports is said to be when given back as a statement. */
const OWN_REPORT = "one of Ledgerline's own reconciliation reports (its items or its summary)"

/** The first (or only) statement of a file; parseStatementFile gives them all. */
export async function parseStatement(
  bytes: Uint8Array,
  name: string,
  given: Partial<StatementMapping> = {},
  options: ReadOptions = {}
): Promise<ParsedStatement> {
  return (await parseStatementFile(bytes, name, given, options))[0] as ParsedStatement
}

export interface ReadOptions {
  /** Opens a password-protected PDF; handed to the PDF reader only, never kept, logged or returned. */
  password?: string | undefined
  /** The most a file, or one part of a workbook once inflated, may hold (default DEFAULT_INFLATED_LIMIT, 512 MB). */
  maxBytes?: number | undefined
}

/**
 * Every statement a file holds, whatever its format (known by its content): a CSV one, a workbook
 * one per sheet that holds a statement, an MT940, CAMT or OFX file one per account. Throws
 * not_a_statement, naming what the file is, when it is none of the formats read.
 */
export async function parseStatementFile(
  bytes: Uint8Array,
  name: string,
  given: Partial<StatementMapping> = {},
  options: ReadOptions = {}
): Promise<ParsedStatement[]> {
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  const mapping = (): StatementMapping => ({ ...EMPTY_MAPPING, ...given, columns: { ...(given.columns ?? {}) } })
  const facts = (encoding: string | null = null, encodingHow: string | null = null): FileFacts => ({
    name,
    sha256,
    size: bytes.byteLength,
    encoding,
    encodingHow
  })
  const format = sniffStatement(bytes, name)
  const maxBytes = options.maxBytes ?? DEFAULT_INFLATED_LIMIT
  if (bytes.byteLength > maxBytes)
    throw new AppError(
      'file_too_large',
      `${name} is ${megabytes(bytes.byteLength)}, more than the ${megabytes(maxBytes)} Ledgerline reads of one file (a setting: --max-size in the CLI). Split the statement by month or account.`
    )
  switch (format) {
    case 'csv': {
      const decoded = decodeStatement(bytes, given.encoding)
      const grid = readCsvGrid(decoded.text, given.separator ?? null)
      if (isOwnReport(grid.rows)) throw notAStatement(name, OWN_REPORT)
      const parsed = parseGrid(grid, facts(decoded.encoding, decoded.how), mapping())
      return [parsed]
    }
    case 'xlsx':
    case 'xls': {
      const grids = readWorkbookGrids(bytes, name, { perEntry: maxBytes, total: 2 * maxBytes })
      if (grids.some((g) => isOwnReport(g.rows))) throw notAStatement(name, OWN_REPORT)
      const sheets = grids.map((grid) => ({ ...parseGrid(grid, facts(), mapping()), format }))
      // Each sheet that holds a statement (its date and amount columns found, lines on it); the first sheet when none does, to be mapped.
      const statements = sheets.filter((s) => !s.questions.some((q) => q.field === 'columns') && s.rows.length + s.problems.length > 0)
      if (statements.length === 0) return [sheets[0] as ParsedStatement]
      return statements.map((s) => ({ ...s, label: statements.length > 1 || sheets.length > 1 ? `sheet ${s.sheet}` : null }))
    }
    case 'mt940': {
      // MT940 leaves its character set to the desktop: UTF-8, else Windows-1252.
      const decoded = decodeUtf8Else1252(bytes)
      const statements = readMt940(decoded.text)
      if (statements.length === 0)
        throw new AppError('no_statement', `${name} is an MT940 file with no statement in it (no :61: line and no balance).`)
      return labelled(
        parseBankStatements(withCurrency(statements, given.defaultCurrency, name), facts(decoded.encoding, decoded.how), 'mt940')
      )
    }
    case 'camt': {
      const decoded = decodeXml(bytes)
      const statements = readCamt(decoded.text, name)
      if (statements.length === 0)
        throw new AppError('no_statement', `${name} is a CAMT file with no statement in it (no Stmt, Rpt or Ntfctn).`)
      return labelled(
        parseBankStatements(withCurrency(statements, given.defaultCurrency, name), facts(decoded.encoding, decoded.how), 'camt')
      )
    }
    case 'ofx': {
      const decoded = decodeOfx(bytes)
      const statements = readOfx(decoded.text, given.defaultCurrency ?? null)
      if (statements.length === 0) throw new AppError('no_statement', `${name} ${withoutStatement(decoded.text)}.`)
      return labelled(
        parseBankStatements(withCurrency(statements, given.defaultCurrency, name), facts(decoded.encoding, 'OFX header'), 'ofx')
      )
    }
    case 'qif': {
      const decoded = decodeStatement(bytes, given.encoding)
      return [
        {
          ...parseGrid(readQifGrid(decoded.text, name), facts(decoded.encoding, decoded.how), {
            ...QIF_MAPPING,
            ...mapping(),
            columns: { ...QIF_MAPPING.columns, ...(given.columns ?? {}) }
          }),
          format
        }
      ]
    }
    case 'pdf': {
      const layout = layoutPdfStatement(await readPdfText(bytes, name, options.password), name, given.columns ?? {})
      const parsed = parseGrid(layout.grid, facts(), mapping())
      const skipped = [...parsed.skipped, ...layout.setAside].sort((a, b) => a.line - b.line)
      return [{ ...parsed, format, skipped, pageStarts: layout.pageStarts }]
    }
    default:
      throw new AppError('not_a_statement', `${name} is a ${format} file, which Ledgerline does not read yet.`)
  }
}

/** A structured file's statements with a given currency filling only those that state none; one that states another refuses it. */
function withCurrency(statements: BankStatement[], given: string | null | undefined, name: string): BankStatement[] {
  if (!given) return statements
  for (const s of statements)
    if (s.currency !== null && s.currency !== given)
      throw new AppError(
        'currency_conflict',
        `${name} states its currency is ${s.currency}${statements.length > 1 ? ` (${s.label})` : ''}, not the ${given} given: a currency the file states is never overridden. Leave the currency out, or import the right file.`
      )
  return statements.map((s) => (s.currency === null ? { ...s, currency: given } : s))
}

const megabytes = (n: number): string => `${Math.ceil(n / (1024 * 1024)).toLocaleString('en-US')} MB`

/** A file's statements: the label only says which when there are several. */
function labelled(statements: ParsedStatement[]): ParsedStatement[] {
  return statements.length === 1 ? [{ ...(statements[0] as ParsedStatement), label: null }] : statements
}

export interface FileFacts {
  name: string
  sha256: string
  size: number
  encoding: string | null
  encodingHow: string | null
}

export interface GridOptions {
  /** Lines of a structured format (MT940, CAMT, OFX): every dated line is a transaction, whatever its words say. */
  structured?: boolean
  /**
   * What a data row's id is made of (index 0 is the first row under the header) when its format knows
   * better than its cells: a bank's own id within its account. Returns the reference, description and
   * counterparty fed to rowContentId.
   */
  idText?: (
    index: number,
    reference: string | null,
    description: string | null,
    counterparty: string | null
  ) => readonly [string | null, string | null, string | null]
  /** A data row that cannot be read, as its file has it, and the message when the format's reader knows better than the cells why. */
  /** A structured line not read as its reader saw it: its text, why, and a code when the reader read none of its cells. */
  unreadLine?: (index: number) => { text: string; message: string | undefined; code?: ParseProblem['code'] }
}

export function parseGrid(grid: Grid, facts: FileFacts, mapping: StatementMapping, options: GridOptions = {}): ParsedStatement {
  const structured = options.structured === true
  const idText = options.idText
  const skipped: ParsedStatement['skipped'] = []
  const problems: ParseProblem[] = []
  const questions: ImportQuestion[] = []
  const headerIndex = findHeaderRow(grid.rows, Object.values(mapping.columns))
  const width = Math.max(0, ...grid.rows.slice(0, 200).map((r) => r.length))
  const header =
    headerIndex === null
      ? Array.from({ length: width }, (_, i) => `Column ${i + 1}`)
      : uniqueHeader((grid.rows[headerIndex] as string[]).map((h, i) => h.trim() || `Column ${i + 1}`))
  const first = headerIndex === null ? 0 : headerIndex + 1
  // A currency given by the caller only fills what the file leaves open: what the file states wins, and a given one it contradicts is refused below.
  const givenCurrency = mapping.defaultCurrency
  /** Where the file states its currency, said when a given one contradicts it. */
  const statedWhere = new Map<string, string>()
  // A bank's header block often says the account's currency ("Currency,NGN", "Account currency: GHS"): the default for rows that name none.
  const namedAbove = headerIndex === null ? null : currencyNamedAbove(grid.rows.slice(0, headerIndex))
  if (namedAbove !== null) {
    mapping.defaultCurrency = namedAbove
    statedWhere.set(namedAbove, 'in its header block')
  }
  for (let i = 0; i < first; i++) {
    const words = i === headerIndex ? '' : (grid.rows[i] as string[]).join(' ')
    const reason =
      i === headerIndex
        ? 'header row'
        : OPENING_BALANCE.test(words)
          ? 'opening balance (above the header row)'
          : CLOSING_BALANCE.test(words)
            ? 'closing balance (above the header row)'
            : 'above the header row'
    // Rows a structured format lays out above its lines (line 0) are no line of the file.
    if ((grid.lines[i] as number) > 0) skipped.push({ line: grid.lines[i] as number, reason })
  }
  const dataRows = grid.rows.slice(first)
  const dataLines = grid.lines.slice(first)

  const result = (
    rows: StatementRow[],
    numberForm: string | null,
    dateForm: string | null,
    proof: StatementProof | null = null
  ): ParsedStatement => ({
    ...facts,
    format: grid.sheet === null ? 'csv' : 'xlsx',
    label: null,
    pageStarts: null,
    account: proof?.account ?? null,
    separator: grid.separator,
    sheet: grid.sheet,
    header,
    headerLine: headerIndex === null ? null : (grid.lines[headerIndex] as number),
    headerSignature: headerSignature(header),
    rowSignatures: grid.rows.slice(0, 50).map((r) => headerSignature(r)),
    mapping,
    numberForm,
    dateForm,
    rows,
    problems,
    skipped: grid.setAside ? [...skipped, ...grid.setAside].sort((a, b) => a.line - b.line) : skipped,
    questions,
    proof
  })

  // Columns: what was given wins; the rest is guessed.
  const indexOf = (column: string | undefined): number =>
    column === undefined ? -1 : header.findIndex((h) => normaliseHeader(h) === normaliseHeader(column))
  for (const [field, column] of Object.entries(mapping.columns) as [MappedField, string][]) {
    if (indexOf(column) < 0)
      questions.push({
        field: 'columns',
        message: `The mapping names the column "${column}" for ${field}, but the file has no such column (it has: ${header.join(', ')}).`,
        choices: header
      })
  }
  const given = Object.keys(mapping.columns).length > 0
  if (!given) {
    mapping.columns = guessColumns(header, dataRows.slice(0, 200))
    // Two columns under one name: which is which is the user's to say, never a guess that reads one and drops the other.
    const twice = header.filter((h) => / \(column \d+\)$/.test(h))
    const named = new Set(Object.values(mapping.columns).map((c) => normaliseHeader(c.replace(/ \(column \d+\)$/, ''))))
    const clash = twice.find((h) => named.has(normaliseHeader(h.replace(/ \(column \d+\)$/, ''))))
    if (clash && !structured)
      questions.push({
        field: 'columns',
        message: `The header names "${clash.replace(/ \(column \d+\)$/, '')}" more than once; say which column holds what (the second and later are named by their column).`,
        choices: header
      })
  }
  const col = Object.fromEntries((Object.entries(mapping.columns) as [MappedField, string][]).map(([f, c]) => [f, indexOf(c)])) as Partial<
    Record<MappedField, number>
  >
  if (col.date === undefined || col.date < 0)
    questions.push({ field: 'columns', message: 'No date column was found; say which column holds the date.', choices: header })
  if ([col.amount, col.debit, col.credit].every((i) => i === undefined || i < 0)) {
    questions.push({
      field: 'columns',
      message: 'No amount column (or debit and credit columns) was found; say which column holds the amount.',
      choices: header
    })
  }
  if (questions.length > 0) return result([], null, null)
  // An amount header may name the currency ("Amount (NGN)"): the default for rows that name none.
  if (namedAbove === null) {
    const named = new Set(
      (['amount', 'debit', 'credit'] as const)
        .map((f) => ((col[f] ?? -1) >= 0 ? currencyOfHeader(header[col[f] as number] as string) : null))
        .filter((c) => c !== null)
    )
    if (named.size === 1) {
      mapping.defaultCurrency = [...named][0] as string
      statedWhere.set(mapping.defaultCurrency, "in the amount column's header")
    }
  }

  // Column positions as plain numbers (-1: not mapped), read once per row without any lookup by name.
  const at = (field: MappedField): number => col[field] ?? -1
  const DATE = at('date')
  const REFERENCE = at('reference')
  const DESCRIPTION = at('description')
  const COUNTERPARTY = at('counterparty')
  const CURRENCY = at('currency')
  const INDICATOR = at('indicator')
  const text = (row: readonly string[], index: number): string => (index < 0 ? '' : (row[index] ?? '').trim())
  const amountFields = (['amount', 'debit', 'credit'] as const).filter((f) => (col[f] ?? -1) >= 0)
  const amountColumns = amountFields.map((f) => at(f))

  /** Rows (by their place in the grid) whose cells cannot be trusted: as the reader found them, and those with more cells than the header. */
  const unreadableRows = new Map(grid.unreadable ?? [])
  // Pass 1: which rows are transactions, and what their cells say about the date order and decimal
  // mark. Only counts and row numbers are kept (a million rows leave little behind for the collector).
  const candidates: number[] = []
  // Dates repeat (a month has about thirty): each text is read once, and up to 4,096 are kept.
  const shapes = new Map<string, DateShape | null>()
  const shapeOf = (dateText: string): DateShape | null => {
    let shape = shapes.get(dateText)
    if (shape === undefined) {
      shape = readDateShape(dateText)
      if (shapes.size < 4096) shapes.set(dateText, shape)
    }
    return shape
  }
  const dateTally = new DateOrderTally()
  const decimalTally = new DecimalTally()
  const currencyColumn = CURRENCY >= 0
  /** The one currency the statement states for all its lines (its header block, or its amount column's header); null when it leaves it to each line. */
  const statementCurrency = statedWhere.size === 1 && !currencyColumn ? ([...statedWhere.keys()][0] as string) : null
  /** The currency a row names: its currency column, else a code in its amount; null when it names none. */
  const namedCurrency = (row: readonly string[], amounts: (AmountText | null)[]): string | null => {
    const fromColumn = currencyColumn ? text(row, CURRENCY).toUpperCase() : ''
    if (fromColumn !== '') return fromColumn
    for (const t of amounts) if (t?.currency) return t.currency
    return null
  }
  /** The currency a row names, else the statement's. */
  const rowCurrency = (row: readonly string[], amounts: (AmountText | null)[]): string | null =>
    namedCurrency(row, amounts) ?? mapping.defaultCurrency
  let missingCurrency = false
  // Lines that could not be read: [index of their problem, index of their row], read in part once the number form is known.
  const unread: [number, number][] = []
  // Balances the statement states: above the header, or on a line of their own ("Balance b/f", "Closing balance").
  const BALANCE = at('balance')
  const stated = balancesAbove(grid.rows.slice(0, first))
  /** Notes row i as an opening or closing balance line (its balance: the balance column, else its last amount); true when it is one. */
  const statedBalance = (i: number, row: readonly string[], words: string): boolean => {
    const kind = OPENING_BALANCE.test(words) ? 'opening' : CLOSING_BALANCE.test(words) ? 'closing' : null
    if (kind === null) return false
    const fromBalance = BALANCE >= 0 ? text(row, BALANCE) : ''
    const value = fromBalance || lastAmountCell(row)
    // A balance in the amount column takes its side from the line's debit/credit mark, as a transaction would (an overdrawn account).
    const overdrawn = fromBalance === '' && INDICATOR >= 0 && INDICATOR_DEBIT.test(text(row, INDICATOR))
    if (value !== null) stated[kind] = overdrawn && !value.trim().startsWith('-') ? `-${value.trim()}` : value
    skipped.push({ line: dataLines[i] as number, reason: `${kind} balance line` })
    return true
  }
  const amounts: (AmountText | null)[] = amountFields.map(() => null)
  for (let i = 0; i < dataRows.length; i++) {
    const row = dataRows[i] as string[]
    const line = dataLines[i] as number
    const broken = unreadableRows.get(first + i)
    if (broken) {
      // A line the reader could not split into cells (a quote left open, cells too many): not read, its text as the file has it.
      unread.push([problems.length, i])
      problems.push({ line, column: null, code: 'malformed_line', message: broken.reason })
      continue
    }
    const dateText = text(row, DATE)
    const shape = shapeOf(dateText)
    let hasAmount = false
    for (let k = 0; k < amountFields.length; k++) {
      const t = readAmountText(text(row, amountColumns[k] as number))
      amounts[k] = t
      if (t) hasAmount = true
    }
    if (!shape && !structured) {
      const words = row.join(' ')
      if (statedBalance(i, row, words)) continue
      if (dateText === '' && (TOTALS.test(words) || !hasAmount || row.filter((c) => c.trim() !== '').length <= 1)) {
        skipped.push({ line, reason: TOTALS.test(words) ? 'totals or balance line' : 'no date and no amount' })
        continue
      }
      if (TOTALS.test(words)) {
        skipped.push({ line, reason: 'totals or balance line' })
        continue
      }
    }
    if (!shape) {
      unread.push([problems.length, i])
      problems.push({
        line,
        column: header[col.date as number] as string,
        code: 'invalid_date',
        message:
          dateText === ''
            ? 'The date is empty.'
            : `"${dateText}" is not a date Ledgerline reads (YYYY-MM-DD, DD/MM/YYYY, MM/DD/YYYY, DD-MMM-YYYY).`
      })
      continue
    }
    // A dated "Balance b/f" line is a balance, never a transaction (its description says so); a cheap look for the words first.
    if (DESCRIPTION >= 0 && !structured) {
      const description = row[DESCRIPTION] ?? ''
      if (BALANCE_WORDS.test(description) && (!hasAmount || onlyBalanceWords(description)) && statedBalance(i, row, description)) continue
    }
    // A CSV line with more cells than its header: a separator or a quote out of place, so which cell is which is a guess.
    if (
      grid.separator !== null &&
      headerIndex !== null &&
      !unreadableRows.has(first + i) &&
      row.length > header.length &&
      row.slice(header.length).some((c) => c.trim() !== '')
    ) {
      unreadableRows.set(first + i, {
        reason: `The line has ${row.length} cells where its header has ${header.length}: a separator or a quote is out of place; it is not read.`,
        text: row.join(grid.separator)
      })
      unread.push([problems.length, i])
      problems.push({ line, column: null, code: 'malformed_line', message: (unreadableRows.get(first + i) as { reason: string }).reason })
      continue
    }
    if (!hasAmount) {
      const words = row.join(' ')
      if (statedBalance(i, row, words)) continue
      if (TOTALS.test(words)) {
        skipped.push({ line, reason: 'totals or balance line' })
        continue
      }
      // A dated line with no amount moved money no one can see: a line not read, never one passed over.
      unread.push([problems.length, i])
      problems.push({
        line,
        column: header[amountColumns[0] as number] ?? null,
        code: 'no_amount',
        message: `The line is dated but ${amountFields.length > 1 ? `its ${amountFields.map((f) => header[at(f)]).join(' and ')} are` : 'its amount is'} empty.`
      })
      continue
    }
    dateTally.add(shape)
    const named = namedCurrency(row, amounts)
    if (named !== null && statedWhere.size < 20 && !statedWhere.has(named)) statedWhere.set(named, `on line ${line}`)
    const currency = named ?? mapping.defaultCurrency
    if (currency === null) missingCurrency = true
    for (const t of amounts) if (t) decimalTally.add(t.body, currency)
    candidates.push(i)
  }

  // The given currency fills only rows that name none, and only when the file does not state another.
  if (givenCurrency !== null && statedWhere.size > 0 && !statedWhere.has(givenCurrency)) {
    const [stated, where] = [...statedWhere][0] as [string, string]
    throw new AppError(
      'currency_conflict',
      `${facts.name} states its currency is ${stated} (${where}), not the ${givenCurrency} given: a currency the file states is never overridden. Leave the currency out, or import the right file.`
    )
  }
  const dateOrder = mapping.dateOrder ?? dateTally.choose().order
  if (dateOrder === null) {
    questions.push({
      field: 'dateOrder',
      message: `Every date in "${header[col.date as number]}" reads both as day/month and as month/day (no day above 12); say which it is.`,
      choices: ['dmy', 'mdy']
    })
  }
  const decimals = decimalTally.choose()
  const decimalMark: DecimalMark | null = mapping.decimalMark ?? decimals.mark ?? (decimals.ambiguous ? null : '.')
  if (decimalMark === null) {
    questions.push({
      field: 'decimalMark',
      message:
        'Amounts like "1,234" read both as thousands and as decimals in a three-decimal currency; say which mark is the decimal point.',
      choices: ['.', ',']
    })
  }
  if (missingCurrency) {
    questions.push({
      field: 'defaultCurrency',
      message: 'The file names no currency for some rows; give the currency they are in.',
      choices: []
    })
  }
  if (questions.length > 0) return result([], null, null)

  // Pass 2: exact rows, each cell read again (cheaper than keeping a million half-read rows).
  const rows: StatementRow[] = []
  // What the statement's proof reads of each line (kept only when the statement has balances to check).
  const proofLines = new ProofLines()
  // The currency of the last balance read, and its decimals (looked up once, not per line).
  let balanceCurrency = ''
  let balanceExponent = 2
  const proving = BALANCE >= 0 || stated.opening !== null || stated.closing !== null
  const seen = new IdSet()
  const repeats = new Map<string, number>()
  /** Row i's problem: its line, the column, and what is wrong. */
  let rowIndex = 0
  const problem = (line: number, field: MappedField, code: string, message: string): void => {
    unread.push([problems.length, rowIndex])
    problems.push({ line, column: header[col[field] as number] ?? null, code, message })
  }
  for (const i of candidates) {
    rowIndex = i
    const row = dataRows[i] as string[]
    const line = dataLines[i] as number
    const shape = shapeOf(text(row, DATE)) as DateShape
    for (let k = 0; k < amountFields.length; k++) amounts[k] = readAmountText(text(row, amountColumns[k] as number))
    const currency = rowCurrency(row, amounts) as string
    if (!isKnownCurrency(currency)) {
      problem(
        line,
        currencyColumn ? 'currency' : (amountFields[0] as MappedField),
        'unknown_currency',
        `"${currency}" is not an ISO 4217 currency code.`
      )
      continue
    }
    // A line in another currency than the one its statement states is not this statement's line as it stands.
    if (statementCurrency !== null && currency !== statementCurrency) {
      problem(
        line,
        amountFields[0] as MappedField,
        'currency_conflict',
        `The amount is in ${currency}, but the statement states its currency is ${statementCurrency} (${statedWhere.get(statementCurrency)}).`
      )
      continue
    }
    const day = dayOf(shape, dateOrder as DateOrder)
    if (day === null) {
      problem(
        line,
        'date',
        'invalid_date',
        `"${text(row, DATE)}" is not a real day${shape.kind === 'numeric' ? ` when read as ${NUMERIC_FORMS[dateOrder as DateOrder]}` : ''}.`
      )
      continue
    }
    if (shape.kind === 'numeric' && !fitsOrder(shape, dateOrder as DateOrder)) {
      problem(
        line,
        'date',
        'date_order_conflict',
        `"${text(row, DATE)}" cannot be ${NUMERIC_FORMS[dateOrder as DateOrder]}, which the other rows use.`
      )
      continue
    }
    let minor = 0
    let bad = false
    for (let k = 0; k < amountFields.length; k++) {
      const f = amountFields[k] as 'amount' | 'debit' | 'credit'
      const t = amounts[k]
      if (!t) continue
      let value: number
      try {
        value = parseAmountBody(t.body, decimalMark as DecimalMark, currency)
      } catch (error) {
        problem(line, f, error instanceof AmountFormatError ? error.code : 'invalid_amount', (error as Error).message)
        bad = true
        break
      }
      if (t.currency && t.currency !== currency) {
        problem(line, f, 'currency_conflict', `The amount says ${t.currency} but the row's currency is ${currency}.`)
        bad = true
        break
      }
      if (t.negative) value = -value
      if (t.side === 'debit') value = -Math.abs(value)
      if (t.side === 'credit') value = Math.abs(value)
      if (f === 'debit') minor -= Math.abs(value)
      else if (f === 'credit') minor += Math.abs(value)
      else minor += value
    }
    if (bad) continue
    if (!Number.isSafeInteger(minor)) {
      problem(line, amountFields[0] as MappedField, 'amount_too_large', 'The amount is too large to be held exactly.')
      continue
    }
    if ((col.indicator ?? -1) >= 0) {
      const indicator = text(row, INDICATOR)
      if (INDICATOR_DEBIT.test(indicator)) minor = -Math.abs(minor)
      else if (INDICATOR_CREDIT.test(indicator)) minor = Math.abs(minor)
      else {
        problem(line, 'indicator', 'invalid_indicator', `"${indicator}" is neither debit (DR, D, Debit) nor credit (CR, C, Credit).`)
        continue
      }
    }
    const reference = text(row, REFERENCE) || null
    const description = text(row, DESCRIPTION) || null
    const counterparty = text(row, COUNTERPARTY) || null
    let base: string
    if (idText) {
      const parts = idText(i, reference, description, counterparty)
      base = rowContentId(currency, day, minor, parts[0], parts[1], parts[2])
    } else base = rowContentId(currency, day, minor, reference, description, counterparty)
    // Identical rows (the same payment listed twice) are told apart by their occurrence: "#1", "#2"…
    let occurrence = 0
    if (seen.add(LANES[0] as number, LANES[1] as number, LANES[2] as number)) {
      occurrence = (repeats.get(base) ?? 0) + 1
      repeats.set(base, occurrence)
    }
    const id = occurrence > 0 ? `${base}#${occurrence}` : base
    rows.push({ id, line, date: day, time: shape.time, amountMinor: minor, currency, reference, description, counterparty })
    if (proving) {
      if (currency !== balanceCurrency) balanceExponent = currencyExponent((balanceCurrency = currency))
      const balance = BALANCE >= 0 ? readBalance(row[BALANCE] ?? '', decimalMark as DecimalMark, currency, balanceExponent) : null
      proofLines.push(line, day, minor, balance)
    }
  }
  mapping.dateOrder = dateOrder
  mapping.decimalMark = decimalMark
  // Every line not read keeps its text and whatever of it could be read: it stays part of the session.
  const separator = grid.separator ?? ','
  for (const [k, i] of unread) {
    const row = dataRows[i] as string[]
    const broken = unreadableRows.get(first + i)
    if (broken) {
      // A line that could not be split into cells: its cells are guesses, so nothing of it is read but its text.
      problems[k] = {
        ...(problems[k] as ParseProblem),
        text: broken.text,
        read: { date: null, amountMinor: null, currency: null, reference: null, description: null }
      }
      if (proving) proofLines.push(dataLines[i] as number, null, null, null)
      continue
    }
    const read: PartlyRead = {
      date: null,
      amountMinor: null,
      currency: null,
      reference: text(row, REFERENCE) || null,
      description: text(row, DESCRIPTION) || null
    }
    const shape = shapeOf(text(row, DATE))
    if (shape) read.date = dayOf(shape, dateOrder as DateOrder)
    for (let f = 0; f < amountFields.length; f++) amounts[f] = readAmountText(text(row, amountColumns[f] as number))
    const currency = rowCurrency(row, amounts)
    if (currency !== null && isKnownCurrency(currency)) {
      read.currency = currency
      // An amount whose direction could not be read is not read either.
      if ((problems[k] as ParseProblem).code !== 'invalid_indicator')
        read.amountMinor = readSignedAmount(amountFields, amounts, decimalMark as DecimalMark, currency)
    }
    const source = options.unreadLine?.(i)
    const problem = problems[k] as ParseProblem
    problems[k] = {
      ...problem,
      ...(source?.code ? { code: source.code, column: null } : {}),
      message: (source && 'message' in source ? source.message : undefined) ?? problem.message,
      text: source?.text ?? row.join(separator),
      read
    }
    // A line in another currency than its statement's moved an amount the proof cannot add: the running balance may say what.
    const inStatementCurrency = statementCurrency === null || read.currency === statementCurrency
    if (proving)
      proofLines.push(
        dataLines[i] as number,
        read.date,
        inStatementCurrency ? read.amountMinor : null,
        BALANCE >= 0 && (statementCurrency ?? read.currency)
          ? readBalance(text(row, BALANCE), decimalMark as DecimalMark, (statementCurrency ?? read.currency) as string)
          : null
      )
  }
  // The statement's proof: one currency, its stated balances, every line in file order.
  const currencies = new Set<string>()
  for (const r of rows) {
    currencies.add(r.currency)
    if (currencies.size > 1) break
  }
  for (const p of problems) if (p.read?.currency) currencies.add(p.read.currency)
  const statedCurrency =
    statementCurrency ?? (currencies.size === 1 ? ([...currencies][0] as string) : currencies.size === 0 ? mapping.defaultCurrency : null)
  // A currency that is no ISO 4217 code (a damaged CURDEF "<NGN") proves nothing: its lines are already not read for it.
  const proofCurrency = statedCurrency !== null && isKnownCurrency(statedCurrency) ? statedCurrency : null
  const proofDecimalMark = decimalMark as DecimalMark
  const statedMinor = (value: string | null): number | null =>
    value === null || proofCurrency === null ? null : readBalance(value, proofDecimalMark, proofCurrency)
  const proof = proveStatement({
    lines: proving ? proofLines : new ProofLines(),
    opening: statedMinor(stated.opening),
    closing: statedMinor(stated.closing),
    account: stated.account,
    currency: proofCurrency,
    unknownCurrency: proofCurrency === null ? statedCurrency : null,
    linesRead: rows.length,
    notRead: new Set(problems.map((p) => p.line)).size
  })
  return result(
    rows,
    describeNumberForm(decimalMark as DecimalMark, decimalTally.spaces),
    dateTally.describe(dateOrder as DateOrder),
    proof
  )
}

/** A header whose names repeat ("Amount", "Amount"): the second and later named by their column too, so each can be mapped and none is lost. */
function uniqueHeader(names: string[]): string[] {
  const seen = new Set<string>()
  return names.map((name, i) => {
    const key = normaliseHeader(name)
    if (!seen.has(key)) {
      seen.add(key)
      return name
    }
    return `${name} (column ${i + 1})`
  })
}

/** A balance as the statement writes it ("1,234.56", "-50.00", "1,234.56 DR" overdrawn), in minor units; null when it reads as none. */
function readBalance(cell: string, decimalMark: DecimalMark, currency: string, exponent = currencyExponent(currency)): number | null {
  // Most balances are plain ("1,234.56"): read in one pass, with no text object made.
  const plain = wellFormedMinor(cell, decimalMark, exponent)
  if (plain !== null) return plain
  const t = readAmountText(cell)
  if (!t) return null
  try {
    const value = parseAmountBody(t.body, decimalMark, currency)
    return t.side === 'debit' || t.negative ? -Math.abs(value) : value
  } catch {
    return null
  }
}

/** The last cell of a row that reads as an amount (a balance line's balance when there is no balance column). */
function lastAmountCell(row: readonly string[]): string | null {
  for (let k = row.length - 1; k >= 0; k--) {
    const whole = (row[k] ?? '').trim()
    // "Closing balance: 1,000.00" in one cell: the amount after the colon.
    const cell = /[:=]\s*([^:=]+)$/.exec(whole)?.[1]?.trim() ?? whole
    if (cell !== '' && readAmountText(cell) && /\d/.test(cell) && !readDateShape(cell)) return cell
  }
  return null
}

/** What a header block states: an opening or closing balance, and the account ("Account number,0123456789", "Opening balance: 1,000.00"). */
function balancesAbove(rows: readonly (readonly string[])[]): { opening: string | null; closing: string | null; account: string | null } {
  const found: { opening: string | null; closing: string | null; account: string | null } = { opening: null, closing: null, account: null }
  const ACCOUNT = /^(?:account\s*(?:number|no\.?|#)?|acct\.?\s*(?:no\.?)?|iban)\s*[:=]?\s*(.*)$/i
  for (const row of rows) {
    const cells = row.map((c) => c.trim()).filter((c) => c !== '')
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i] as string
      // The value: after a colon in the cell, else the next cell.
      const value = (): string | null => {
        const colon = /[:=]\s*(.+)$/.exec(cell)?.[1]?.trim()
        return colon || cells[i + 1] || null
      }
      if (OPENING_BALANCE.test(cell)) found.opening ??= value()
      else if (CLOSING_BALANCE.test(cell)) found.closing ??= value()
      else {
        const account = ACCOUNT.exec(cell)
        if (account && !/name/i.test(cell)) {
          const v = account[1]?.trim() || cells[i + 1] || ''
          if (/\d{4}/.test(v)) found.account ??= v
        }
      }
    }
  }
  return found
}

/** The signed amount of a row's amount cells (debit negative, credit positive), or null when any cannot be read. */
function readSignedAmount(
  fields: readonly ('amount' | 'debit' | 'credit')[],
  amounts: readonly (AmountText | null)[],
  decimalMark: DecimalMark,
  currency: string
): number | null {
  let minor = 0
  let any = false
  for (let k = 0; k < fields.length; k++) {
    const t = amounts[k]
    if (!t) continue
    let value: number
    try {
      value = parseAmountBody(t.body, decimalMark, currency)
    } catch {
      return null
    }
    any = true
    if (t.negative) value = -value
    if (t.side === 'debit') value = -Math.abs(value)
    if (t.side === 'credit') value = Math.abs(value)
    const f = fields[k]
    minor += f === 'debit' ? -Math.abs(value) : f === 'credit' ? Math.abs(value) : value
  }
  return any && Number.isSafeInteger(minor) ? minor : null
}

/** The currency a header block names: a "Currency" label with a known ISO code beside it or after a colon. */
function currencyNamedAbove(rows: readonly (readonly string[])[]): string | null {
  const LABEL = /^(?:account\s+)?currency\s*[:=]?\s*(?:([A-Za-z]{3}))?$/i
  for (const row of rows) {
    const cells = row.map((c) => c.trim()).filter((c) => c !== '')
    for (let i = 0; i < cells.length; i++) {
      const label = LABEL.exec(cells[i] as string)
      if (!label) continue
      const code = (label[1] ?? cells[i + 1] ?? '').toUpperCase()
      if (/^[A-Z]{3}$/.test(code) && isKnownCurrency(code)) return code
    }
  }
  return null
}

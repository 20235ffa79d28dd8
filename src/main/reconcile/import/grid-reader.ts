// The reader every format ends in: a grid of cells → exact rows, phase by phase (header, columns, a survey of the lines, the forms they settle, the rows, the lines not read, the proof).
import { currencyExponent, isKnownCurrency } from '../../../shared/money'
import type {
  DateOrder,
  DecimalMark,
  ImportQuestion,
  LineProblemCode,
  MappedField,
  ParseProblem,
  PartlyRead,
  StatementMapping,
  StatementProof
} from '../../../shared/reconcile'
import { AppError } from '../../errors'
import { AmountFormatError, DecimalTally, describeNumberForm, parseAmountBody, readAmountText, type AmountText } from './amounts'
import { BALANCE_WORDS, balancesAbove, currencyNamedAbove, lastAmountCell, onlyBalanceWords, readBalance, TOTALS } from './balance-lines'
import { CLOSING_BALANCE, OPENING_BALANCE, ProofLines, proveStatement } from './balances'
import { DateOrderTally, dayOf, fitsOrder, NUMERIC_FORMS, readDateShape, type DateShape } from './dates'
import { currencyOfHeader, guessColumns, headerSignature, INDICATOR_CREDIT, INDICATOR_DEBIT, normaliseHeader } from './mapping'
import type { FileFacts, ParsedStatement } from './parsed-statement'
import { RowIds } from './row-ids'
import { StatementRows } from './statement-rows'
import { findHeaderRow, type Grid } from './table'

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
  /** A structured line not read as its reader saw it: its text, why, and a code when the reader read none of its cells. */
  unreadLine?: (index: number) => { text: string; message: string | undefined; code?: ParseProblem['code'] }
}

/** The first rows, any of which may be the header a saved preset knows (findHeaderRow looks as far). */
const SIGNATURE_ROWS = 50

/** A row read and let go: its cells are no longer needed (a million rows are hundreds of MB). */
const LET_GO: string[] = []

/**
 * A grid read as one statement: its rows, or the questions to answer first, and what the statement proves of itself. The
 * grid is the reader's from then on: its rows are let go as they are read (the caller keeps none of them).
 */
export function parseGrid(grid: Grid, facts: FileFacts, mapping: StatementMapping, options: GridOptions = {}): ParsedStatement {
  const reading = readHeader(grid, facts, mapping, options)
  const columns = settleColumns(reading)
  if (columns === null) return statementOf(reading, new StatementRows(), null, null)
  const survey = surveyLines(reading, columns)
  refuseContradictedCurrency(reading)
  const forms = settleForms(reading, columns, survey)
  if (forms === null) return statementOf(reading, new StatementRows(), null, null)
  const { rows, proofLines } = readRows(reading, columns, survey, forms)
  mapping.dateOrder = forms.dateOrder
  mapping.decimalMark = forms.decimalMark
  readUnreadLines(reading, columns, survey, forms, proofLines)
  const proof = proveGrid(reading, survey, forms, rows, proofLines)
  return statementOf(
    reading,
    rows,
    describeNumberForm(forms.decimalMark, survey.decimalTally.spaces),
    survey.dateTally.describe(forms.dateOrder),
    proof
  )
}

/** What every phase of one grid's reading shares: the grid, its header, and what the reading has said so far. */
interface GridReading {
  grid: Grid
  facts: FileFacts
  /** The mapping as given, filled in as the reading settles it (columns guessed, a currency the file states, the forms). */
  mapping: StatementMapping
  options: GridOptions
  structured: boolean
  headerIndex: number | null
  header: string[]
  /** The grid's index of the first data row. */
  first: number
  /** Signatures of the first rows, taken before any is let go. */
  rowSignatures: string[]
  /** How many data rows there are; data row i's cells (0: the first under the header) and its line. */
  dataCount: number
  dataRow: (i: number) => string[]
  dataLine: (i: number) => number
  /** Lets data row i go once read: a plain list's entry (a compact grid's rows are made anew each time they are read). */
  letGo: (i: number) => void
  /** The currency the caller gave: it only fills what the file leaves open. */
  givenCurrency: string | null
  /** Where the file states each currency it names, said when a given one contradicts it. */
  statedWhere: Map<string, string>
  /** The currency the header block names, if it does. */
  namedAbove: string | null
  skipped: ParsedStatement['skipped']
  problems: ParseProblem[]
  questions: ImportQuestion[]
}

/** Phase 1, the header: which row it is (none: "Column 1", "Column 2", …), the rows above it set aside, and a currency the block above names. */
function readHeader(grid: Grid, facts: FileFacts, mapping: StatementMapping, options: GridOptions): GridReading {
  const headerIndex = findHeaderRow(grid.rows, Object.values(mapping.columns))
  const width = Math.max(0, ...grid.rows.slice(0, 200).map((r) => r.length))
  const header =
    headerIndex === null
      ? Array.from({ length: width }, (_, i) => `Column ${i + 1}`)
      : uniqueHeader((grid.rows.at(headerIndex) as string[]).map((h, i) => h.trim() || `Column ${i + 1}`))
  const first = headerIndex === null ? 0 : headerIndex + 1
  const reading: GridReading = {
    grid,
    facts,
    mapping,
    options,
    structured: options.structured === true,
    headerIndex,
    header,
    first,
    rowSignatures: grid.rows.slice(0, SIGNATURE_ROWS).map((r) => headerSignature(r)),
    dataCount: Math.max(0, grid.rows.length - first),
    dataRow: (i) => grid.rows.at(first + i) as string[],
    dataLine: (i) => grid.lines[first + i] as number,
    letGo: Array.isArray(grid.rows)
      ? (i) => {
          ;(grid.rows as string[][])[first + i] = LET_GO
        }
      : () => undefined,
    givenCurrency: mapping.defaultCurrency,
    statedWhere: new Map(),
    // A bank's header block often says the account's currency ("Currency,NGN", "Account currency: GHS"): the default for rows that name none.
    namedAbove: headerIndex === null ? null : currencyNamedAbove(grid.rows.slice(0, headerIndex)),
    skipped: [],
    problems: [],
    questions: []
  }
  if (reading.namedAbove !== null) {
    mapping.defaultCurrency = reading.namedAbove
    reading.statedWhere.set(reading.namedAbove, 'in its header block')
  }
  for (let i = 0; i < first; i++) {
    const words = i === headerIndex ? '' : (grid.rows.at(i) as string[]).join(' ')
    const reason =
      i === headerIndex
        ? 'header row'
        : OPENING_BALANCE.test(words)
          ? 'opening balance (above the header row)'
          : CLOSING_BALANCE.test(words)
            ? 'closing balance (above the header row)'
            : 'above the header row'
    // Rows a structured format lays out above its lines (line 0) are no line of the file.
    if ((grid.lines[i] as number) > 0) reading.skipped.push({ line: grid.lines[i] as number, reason })
  }
  return reading
}

/** The mapped columns as plain positions (-1: not mapped), read once per row without any lookup by name. */
interface Columns {
  col: Partial<Record<MappedField, number>>
  DATE: number
  REFERENCE: number
  DESCRIPTION: number
  COUNTERPARTY: number
  CURRENCY: number
  INDICATOR: number
  BALANCE: number
  amountFields: ('amount' | 'debit' | 'credit')[]
  amountColumns: number[]
}

/** Phase 2, the columns: what was given wins, the rest is guessed; null when a question about them is open. Also a currency the amount's header names. */
function settleColumns(reading: GridReading): Columns | null {
  const { header, mapping, questions, grid, first } = reading
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
  if (Object.keys(mapping.columns).length === 0) {
    mapping.columns = guessColumns(header, grid.rows.slice(first, first + 200))
    // Two columns under one name: which is which is the user's to say, never a guess that reads one and drops the other.
    const twice = header.filter((h) => / \(column \d+\)$/.test(h))
    const named = new Set(Object.values(mapping.columns).map((c) => normaliseHeader(c.replace(/ \(column \d+\)$/, ''))))
    const clash = twice.find((h) => named.has(normaliseHeader(h.replace(/ \(column \d+\)$/, ''))))
    if (clash && !reading.structured)
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
  if (questions.length > 0) return null
  // An amount header may name the currency ("Amount (NGN)"): the default for rows that name none.
  if (reading.namedAbove === null) {
    const named = new Set(
      (['amount', 'debit', 'credit'] as const)
        .map((f) => ((col[f] ?? -1) >= 0 ? currencyOfHeader(header[col[f] as number] as string) : null))
        .filter((c) => c !== null)
    )
    if (named.size === 1) {
      mapping.defaultCurrency = [...named][0] as string
      reading.statedWhere.set(mapping.defaultCurrency, "in the amount column's header")
    }
  }
  const at = (field: MappedField): number => col[field] ?? -1
  const amountFields = (['amount', 'debit', 'credit'] as const).filter((f) => (col[f] ?? -1) >= 0)
  return {
    col,
    DATE: at('date'),
    REFERENCE: at('reference'),
    DESCRIPTION: at('description'),
    COUNTERPARTY: at('counterparty'),
    CURRENCY: at('currency'),
    INDICATOR: at('indicator'),
    BALANCE: at('balance'),
    amountFields,
    amountColumns: amountFields.map((f) => at(f))
  }
}

/** A cell's text, trimmed; empty for a column not mapped. */
const cell = (row: readonly string[], index: number): string => (index < 0 ? '' : (row[index] ?? '').trim())

/** What the survey of the lines found: which are transactions, what they say of the forms, and what stands out. */
interface Survey {
  /** The data rows (by index) that are transactions, read again exactly once the forms are settled. */
  candidates: number[]
  dateTally: DateOrderTally
  decimalTally: DecimalTally
  /** A date text's shape, each text read once (a month has about thirty dates). */
  shapeOf: (dateText: string) => DateShape | null
  /** Rows (by their place in the grid) whose cells cannot be trusted: as the reader found them, and those with more cells than the header. */
  unreadableRows: Map<number, { reason: string; text: string }>
  /** Lines that could not be read: [index of their problem, index of their row], read in part once the number form is known. */
  unread: [number, number][]
  /** Balances and the account the statement states: above the header, or on a line of their own. */
  stated: { opening: string | null; closing: string | null; account: string | null }
  missingCurrency: boolean
  /** The one currency the statement states for all its lines (its header block, or its amount column's header); null when it leaves it to each line. */
  statementCurrency: string | null
  /** The currency a row names: its currency column, else a code in its amount; null when it names none. */
  namedCurrency: (row: readonly string[], amounts: (AmountText | null)[]) => string | null
  /** A row's amount cells as text, refilled for each row read (index as columns.amountFields). */
  amounts: (AmountText | null)[]
}

/**
 * Phase 3, pass 1 over the lines: which rows are transactions, and what their cells say about the date order and decimal
 * mark. Balance and totals lines are set aside, lines that cannot be read are named. Only counts and row numbers are kept
 * (a million rows leave little behind for the collector).
 */
function surveyLines(reading: GridReading, columns: Columns): Survey {
  const { grid, header, mapping, statedWhere, skipped, problems, dataCount, dataRow, dataLine, first, structured, headerIndex } = reading
  const { col, DATE, DESCRIPTION, CURRENCY, INDICATOR, BALANCE, amountFields, amountColumns } = columns
  const shapes = new Map<string, DateShape | null>()
  const shapeOf = (dateText: string): DateShape | null => {
    let shape = shapes.get(dateText)
    if (shape === undefined) {
      shape = readDateShape(dateText)
      if (shapes.size < 4096) shapes.set(dateText, shape)
    }
    return shape
  }
  const currencyColumn = CURRENCY >= 0
  const namedCurrency = (row: readonly string[], amounts: (AmountText | null)[]): string | null => {
    const fromColumn = currencyColumn ? cell(row, CURRENCY).toUpperCase() : ''
    if (fromColumn !== '') return fromColumn
    for (const t of amounts) if (t?.currency) return t.currency
    return null
  }
  const survey: Survey = {
    candidates: [],
    dateTally: new DateOrderTally(),
    decimalTally: new DecimalTally(),
    shapeOf,
    unreadableRows: new Map(grid.unreadable ?? []),
    unread: [],
    stated: balancesAbove(grid.rows.slice(0, first)),
    missingCurrency: false,
    statementCurrency: statedWhere.size === 1 && !currencyColumn ? ([...statedWhere.keys()][0] as string) : null,
    namedCurrency,
    amounts: amountFields.map(() => null)
  }
  const { candidates, dateTally, decimalTally, unreadableRows, unread, stated, amounts } = survey
  /** Notes row i as an opening or closing balance line (its balance: the balance column, else its last amount); true when it is one. */
  const statedBalance = (i: number, row: readonly string[], words: string): boolean => {
    const kind = OPENING_BALANCE.test(words) ? 'opening' : CLOSING_BALANCE.test(words) ? 'closing' : null
    if (kind === null) return false
    const fromBalance = BALANCE >= 0 ? cell(row, BALANCE) : ''
    const value = fromBalance || lastAmountCell(row)
    // A balance in the amount column takes its side from the line's debit/credit mark, as a transaction would (an overdrawn account).
    const overdrawn = fromBalance === '' && INDICATOR >= 0 && INDICATOR_DEBIT.test(cell(row, INDICATOR))
    if (value !== null) stated[kind] = overdrawn && !value.trim().startsWith('-') ? `-${value.trim()}` : value
    skipped.push({ line: dataLine(i), reason: `${kind} balance line` })
    return true
  }
  for (let i = 0; i < dataCount; i++) {
    const row = dataRow(i)
    const line = dataLine(i)
    const broken = unreadableRows.get(first + i)
    if (broken) {
      // A line the reader could not split into cells (a quote left open, cells too many): not read, its text as the file has it.
      unread.push([problems.length, i])
      problems.push({ line, column: null, code: 'malformed_line', message: broken.reason })
      continue
    }
    const dateText = cell(row, DATE)
    const shape = shapeOf(dateText)
    let hasAmount = false
    for (let k = 0; k < amountFields.length; k++) {
      const t = readAmountText(cell(row, amountColumns[k] as number))
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
      const reason = `The line has ${row.length} cells where its header has ${header.length}: a separator or a quote is out of place; it is not read.`
      unreadableRows.set(first + i, { reason, text: row.join(grid.separator) })
      unread.push([problems.length, i])
      problems.push({ line, column: null, code: 'malformed_line', message: reason })
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
        message: `The line is dated but ${amountFields.length > 1 ? `its ${amountFields.map((f) => header[col[f] as number]).join(' and ')} are` : 'its amount is'} empty.`
      })
      continue
    }
    dateTally.add(shape)
    const named = namedCurrency(row, amounts)
    if (named !== null && statedWhere.size < 20 && !statedWhere.has(named)) statedWhere.set(named, `on line ${line}`)
    const currency = named ?? mapping.defaultCurrency
    if (currency === null) survey.missingCurrency = true
    for (const t of amounts) if (t) decimalTally.add(t.body, currency)
    candidates.push(i)
  }
  return survey
}

/** The given currency fills only rows that name none, and only when the file does not state another: one it contradicts is refused. */
function refuseContradictedCurrency(reading: GridReading): void {
  const { givenCurrency, statedWhere } = reading
  if (givenCurrency !== null && statedWhere.size > 0 && !statedWhere.has(givenCurrency)) {
    const [stated, where] = [...statedWhere][0] as [string, string]
    throw new AppError(
      'currency_conflict',
      `${reading.facts.name} states its currency is ${stated} (${where}), not the ${givenCurrency} given: a currency the file states is never overridden. Leave the currency out, or import the right file.`
    )
  }
}

/** How every row's dates and amounts are read, settled by all of them. */
interface Forms {
  dateOrder: DateOrder
  decimalMark: DecimalMark
}

/** Phase 4, the forms: the date order and decimal mark every row agrees on, and a currency for rows naming none; null when a question is open. */
function settleForms(reading: GridReading, columns: Columns, survey: Survey): Forms | null {
  const { mapping, questions, header } = reading
  const dateOrder = mapping.dateOrder ?? survey.dateTally.choose().order
  if (dateOrder === null) {
    questions.push({
      field: 'dateOrder',
      message: `Every date in "${header[columns.DATE]}" reads both as day/month and as month/day (no day above 12); say which it is.`,
      choices: ['dmy', 'mdy']
    })
  }
  const decimals = survey.decimalTally.choose()
  const decimalMark: DecimalMark | null = mapping.decimalMark ?? decimals.mark ?? (decimals.ambiguous ? null : '.')
  if (decimalMark === null) {
    questions.push({
      field: 'decimalMark',
      message:
        'Amounts like "1,234" read both as thousands and as decimals in a three-decimal currency; say which mark is the decimal point.',
      choices: ['.', ',']
    })
  }
  if (survey.missingCurrency) {
    questions.push({
      field: 'defaultCurrency',
      message: 'The file names no currency for some rows; give the currency they are in.',
      choices: []
    })
  }
  return questions.length > 0 || dateOrder === null || decimalMark === null ? null : { dateOrder, decimalMark }
}

/** Whether the statement has balances to check its lines against: then each line's amount and balance are kept for the proof. */
const isProving = (columns: Columns, survey: Survey): boolean =>
  columns.BALANCE >= 0 || survey.stated.opening !== null || survey.stated.closing !== null

/** Phase 5, pass 2: each transaction's cells read again, exactly (cheaper than keeping a million half-read rows); a row that fails is a problem on its line and column. */
function readRows(reading: GridReading, columns: Columns, survey: Survey, forms: Forms): { rows: StatementRows; proofLines: ProofLines } {
  const { header, mapping, problems, dataRow, dataLine, letGo, statedWhere } = reading
  const { col, DATE, REFERENCE, DESCRIPTION, COUNTERPARTY, INDICATOR, BALANCE, amountFields, amountColumns } = columns
  const { shapeOf, unread, statementCurrency, namedCurrency, amounts } = survey
  const { dateOrder, decimalMark } = forms
  const idText = reading.options.idText
  const currencyColumn = columns.CURRENCY >= 0
  const rows = new StatementRows()
  // What the statement's proof reads of each line (kept only when the statement has balances to check).
  const proofLines = new ProofLines()
  // The currency of the last balance read, and its decimals (looked up once, not per line).
  let balanceCurrency = ''
  let balanceExponent = 2
  const proving = isProving(columns, survey)
  const ids = new RowIds()
  /** Row i's problem: its line, the column, and what is wrong. */
  const problem = (i: number, line: number, field: MappedField, code: LineProblemCode, message: string): void => {
    unread.push([problems.length, i])
    problems.push({ line, column: header[col[field] as number] ?? null, code, message })
  }
  for (const i of survey.candidates) {
    const row = dataRow(i)
    const line = dataLine(i)
    const shape = shapeOf(cell(row, DATE)) as DateShape
    for (let k = 0; k < amountFields.length; k++) amounts[k] = readAmountText(cell(row, amountColumns[k] as number))
    const currency = (namedCurrency(row, amounts) ?? mapping.defaultCurrency) as string
    if (!isKnownCurrency(currency)) {
      problem(
        i,
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
        i,
        line,
        amountFields[0] as MappedField,
        'currency_conflict',
        `The amount is in ${currency}, but the statement states its currency is ${statementCurrency} (${statedWhere.get(statementCurrency)}).`
      )
      continue
    }
    const day = dayOf(shape, dateOrder)
    if (day === null) {
      problem(
        i,
        line,
        'date',
        'invalid_date',
        `"${cell(row, DATE)}" is not a real day${shape.kind === 'numeric' ? ` when read as ${NUMERIC_FORMS[dateOrder]}` : ''}.`
      )
      continue
    }
    if (shape.kind === 'numeric' && !fitsOrder(shape, dateOrder)) {
      problem(
        i,
        line,
        'date',
        'date_order_conflict',
        `"${cell(row, DATE)}" cannot be ${NUMERIC_FORMS[dateOrder]}, which the other rows use.`
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
        value = parseAmountBody(t.body, decimalMark, currency)
      } catch (error) {
        problem(i, line, f, error instanceof AmountFormatError ? error.code : 'invalid_amount', (error as Error).message)
        bad = true
        break
      }
      if (t.currency && t.currency !== currency) {
        problem(i, line, f, 'currency_conflict', `The amount says ${t.currency} but the row's currency is ${currency}.`)
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
      problem(i, line, amountFields[0] as MappedField, 'amount_too_large', 'The amount is too large to be held exactly.')
      continue
    }
    if (INDICATOR >= 0) {
      const indicator = cell(row, INDICATOR)
      if (INDICATOR_DEBIT.test(indicator)) minor = -Math.abs(minor)
      else if (INDICATOR_CREDIT.test(indicator)) minor = Math.abs(minor)
      else {
        problem(i, line, 'indicator', 'invalid_indicator', `"${indicator}" is neither debit (DR, D, Debit) nor credit (CR, C, Credit).`)
        continue
      }
    }
    const reference = cell(row, REFERENCE) || null
    const description = cell(row, DESCRIPTION) || null
    const counterparty = cell(row, COUNTERPARTY) || null
    let id: string
    if (idText) {
      const parts = idText(i, reference, description, counterparty)
      id = ids.next(currency, day, minor, parts[0], parts[1], parts[2])
    } else id = ids.next(currency, day, minor, reference, description, counterparty)
    rows.push({ id, line, date: day, time: shape.time, amountMinor: minor, currency, reference, description, counterparty })
    if (proving) {
      if (currency !== balanceCurrency) balanceExponent = currencyExponent((balanceCurrency = currency))
      const balance = BALANCE >= 0 ? readBalance(row[BALANCE] ?? '', decimalMark, currency, balanceExponent) : null
      proofLines.push(line, day, minor, balance)
    }
    // Read: only the lines not read are looked at again.
    letGo(i)
  }
  return { rows: rows.finish(), proofLines }
}

/** Phase 6, the lines not read: each keeps its text and whatever of it could be read, and stays part of the session and its proof. */
function readUnreadLines(reading: GridReading, columns: Columns, survey: Survey, forms: Forms, proofLines: ProofLines): void {
  const { grid, mapping, problems, dataRow, dataLine, first } = reading
  const { DATE, REFERENCE, DESCRIPTION, BALANCE, amountFields, amountColumns } = columns
  const { unread, unreadableRows, shapeOf, namedCurrency, amounts, statementCurrency } = survey
  const { dateOrder, decimalMark } = forms
  const proving = isProving(columns, survey)
  const separator = grid.separator ?? ','
  for (const [k, i] of unread) {
    const row = dataRow(i)
    const broken = unreadableRows.get(first + i)
    if (broken) {
      // A line that could not be split into cells: its cells are guesses, so nothing of it is read but its text.
      problems[k] = {
        ...(problems[k] as ParseProblem),
        text: broken.text,
        read: { date: null, amountMinor: null, currency: null, reference: null, description: null }
      }
      if (proving) proofLines.push(dataLine(i), null, null, null)
      continue
    }
    const read: PartlyRead = {
      date: null,
      amountMinor: null,
      currency: null,
      reference: cell(row, REFERENCE) || null,
      description: cell(row, DESCRIPTION) || null
    }
    const shape = shapeOf(cell(row, DATE))
    if (shape) read.date = dayOf(shape, dateOrder)
    for (let f = 0; f < amountFields.length; f++) amounts[f] = readAmountText(cell(row, amountColumns[f] as number))
    const currency = namedCurrency(row, amounts) ?? mapping.defaultCurrency
    if (currency !== null && isKnownCurrency(currency)) {
      read.currency = currency
      // An amount whose direction could not be read is not read either.
      if ((problems[k] as ParseProblem).code !== 'invalid_indicator')
        read.amountMinor = readSignedAmount(amountFields, amounts, decimalMark, currency)
    }
    const source = reading.options.unreadLine?.(i)
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
        dataLine(i),
        read.date,
        inStatementCurrency ? read.amountMinor : null,
        BALANCE >= 0 && (statementCurrency ?? read.currency)
          ? readBalance(cell(row, BALANCE), decimalMark, (statementCurrency ?? read.currency) as string)
          : null
      )
  }
}

/** Phase 7, the proof: one currency, its stated balances, every line in file order. */
function proveGrid(reading: GridReading, survey: Survey, forms: Forms, rows: StatementRows, proofLines: ProofLines): StatementProof {
  const { problems, mapping } = reading
  const { stated, statementCurrency } = survey
  const currencies = new Set<string>()
  for (let i = 0; i < rows.length && currencies.size < 2; i++) currencies.add(rows.currencyAt(i))
  for (const p of problems) if (p.read?.currency) currencies.add(p.read.currency)
  const statedCurrency =
    statementCurrency ?? (currencies.size === 1 ? ([...currencies][0] as string) : currencies.size === 0 ? mapping.defaultCurrency : null)
  // A currency that is no ISO 4217 code (a damaged CURDEF "<NGN") proves nothing: its lines are already not read for it.
  const proofCurrency = statedCurrency !== null && isKnownCurrency(statedCurrency) ? statedCurrency : null
  const statedMinor = (value: string | null): number | null =>
    value === null || proofCurrency === null ? null : readBalance(value, forms.decimalMark, proofCurrency)
  return proveStatement({
    lines: proofLines,
    opening: statedMinor(stated.opening),
    closing: statedMinor(stated.closing),
    account: stated.account,
    currency: proofCurrency,
    unknownCurrency: proofCurrency === null ? statedCurrency : null,
    linesRead: rows.length,
    notRead: new Set(problems.map((p) => p.line)).size
  })
}

/** The reading as a statement: its rows (none while questions are open), how its numbers and dates were read, and its proof. */
function statementOf(
  reading: GridReading,
  rows: StatementRows,
  numberForm: string | null,
  dateForm: string | null,
  proof: StatementProof | null = null
): ParsedStatement {
  const { grid, header, headerIndex, skipped } = reading
  return {
    ...reading.facts,
    format: grid.sheet === null ? 'csv' : 'xlsx',
    label: null,
    pageStarts: null,
    account: proof?.account ?? null,
    separator: grid.separator,
    sheet: grid.sheet,
    header,
    headerLine: headerIndex === null ? null : (grid.lines[headerIndex] as number),
    headerSignature: headerSignature(header),
    rowSignatures: reading.rowSignatures,
    mapping: reading.mapping,
    numberForm,
    dateForm,
    rows,
    problems: reading.problems,
    skipped: grid.setAside ? [...skipped, ...grid.setAside].sort((a, b) => a.line - b.line) : skipped,
    questions: reading.questions,
    proof
  }
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

// One statement file → exact rows: encoding, table, header, mapping, number form and date order settled by every row; each bad row's problem on its line and column.
import crypto, { createHash } from 'node:crypto'
import { isKnownCurrency } from '../../../shared/money'
import type { DateOrder, DecimalMark, ImportQuestion, MappedField, ParseProblem, StatementMapping } from '../../../shared/reconcile'
import { AmountFormatError, chooseDecimalMark, describeNumberForm, parseAmountBody, readAmountText, type AmountText } from './amounts'
import { chooseDateOrder, dayOf, ordersFitting, readDateShape, type DateShape } from './dates'
import { decodeStatement } from './encoding'
import { guessColumns, headerSignature, normaliseHeader } from './mapping'
import { findHeaderRow, isXlsx, readCsvGrid, readXlsxGrid, type Grid } from './table'
import { normaliseReference } from '../references'

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
  sha256: string
  size: number
  encoding: string | null
  encodingHow: string | null
  separator: string | null
  sheet: string | null
  header: string[]
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
}

/** A row's id from its content: SHA-256, 132 bits kept (one-shot hashing where Node has it). */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string }).hash
function contentId(content: string): string {
  const digest = oneShot ? oneShot('sha256', content, 'base64url') : createHash('sha256').update(content).digest('base64url')
  return `f:${digest.slice(0, 22)}`
}

export const EMPTY_MAPPING: StatementMapping = { columns: {}, dateOrder: null, decimalMark: null, defaultCurrency: null, encoding: null, separator: null }

const TOTALS = /\b(total|totals|sub-?total|closing balance|opening balance|balance b\/?f|balance c\/?f|brought forward|carried forward|end of statement|balance as at)\b/i
const INDICATOR_DEBIT = /^(d|dr|debit|db|out|withdrawal|-)$/i
const INDICATOR_CREDIT = /^(c|cr|credit|in|deposit|\+)$/i
const DATE_FORMS: Record<DateOrder, string> = { ymd: 'YYYY-MM-DD', dmy: 'DD/MM/YYYY', mdy: 'MM/DD/YYYY' }

export async function parseStatement(bytes: Uint8Array, name: string, given: Partial<StatementMapping> = {}): Promise<ParsedStatement> {
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  const mapping: StatementMapping = { ...EMPTY_MAPPING, ...given, columns: { ...(given.columns ?? {}) } }
  let grid: Grid
  let encoding: string | null = null
  let encodingHow: string | null = null
  if (isXlsx(bytes, name)) grid = await readXlsxGrid(bytes)
  else {
    const decoded = decodeStatement(bytes, mapping.encoding)
    encoding = decoded.encoding
    encodingHow = decoded.how
    grid = readCsvGrid(decoded.text, mapping.separator)
  }
  return parseGrid(grid, { name, sha256, size: bytes.byteLength, encoding, encodingHow }, mapping)
}

interface FileFacts {
  name: string
  sha256: string
  size: number
  encoding: string | null
  encodingHow: string | null
}

export function parseGrid(grid: Grid, facts: FileFacts, mapping: StatementMapping): ParsedStatement {
  const skipped: ParsedStatement['skipped'] = []
  const problems: ParseProblem[] = []
  const questions: ImportQuestion[] = []
  const headerIndex = findHeaderRow(grid.rows, Object.values(mapping.columns))
  const width = Math.max(0, ...grid.rows.slice(0, 200).map((r) => r.length))
  const header = headerIndex === null ? Array.from({ length: width }, (_, i) => `Column ${i + 1}`) : (grid.rows[headerIndex] as string[]).map((h, i) => h.trim() || `Column ${i + 1}`)
  const first = headerIndex === null ? 0 : headerIndex + 1
  for (let i = 0; i < first; i++) skipped.push({ line: grid.lines[i] as number, reason: i === headerIndex ? 'header row' : 'above the header row' })
  const dataRows = grid.rows.slice(first)
  const dataLines = grid.lines.slice(first)

  const result = (rows: StatementRow[], numberForm: string | null, dateForm: string | null): ParsedStatement => ({
    ...facts,
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
    skipped,
    questions
  })

  // Columns: what was given wins; the rest is guessed.
  const indexOf = (column: string | undefined): number => (column === undefined ? -1 : header.findIndex((h) => normaliseHeader(h) === normaliseHeader(column)))
  for (const [field, column] of Object.entries(mapping.columns) as [MappedField, string][]) {
    if (indexOf(column) < 0) questions.push({ field: 'columns', message: `The mapping names the column "${column}" for ${field}, but the file has no such column (it has: ${header.join(', ')}).`, choices: header })
  }
  const given = Object.keys(mapping.columns).length > 0
  if (!given) {
    const guessed = guessColumns(header, dataRows.slice(0, 200))
    if (guessed.indicator !== undefined) {
      const column = indexOf(guessed.indicator)
      const values = dataRows.slice(0, 200).map((r) => (r[column] ?? '').trim()).filter((v) => v !== '')
      const sides = values.filter((v) => INDICATOR_DEBIT.test(v) || INDICATOR_CREDIT.test(v)).length
      // A "Type" column of words (POS, Transfer) is no debit/credit indicator; a stray bad value in a real one is a row problem.
      if (values.length === 0 || sides < values.length * 0.5) delete guessed.indicator
    }
    mapping.columns = guessed
  }
  const col = Object.fromEntries((Object.entries(mapping.columns) as [MappedField, string][]).map(([f, c]) => [f, indexOf(c)])) as Partial<Record<MappedField, number>>
  if (col.date === undefined || col.date < 0) questions.push({ field: 'columns', message: 'No date column was found; say which column holds the date.', choices: header })
  if ([col.amount, col.debit, col.credit].every((i) => i === undefined || i < 0)) {
    questions.push({ field: 'columns', message: 'No amount column (or debit and credit columns) was found; say which column holds the amount.', choices: header })
  }
  if (questions.length > 0) return result([], null, null)

  const cell = (row: readonly string[], field: MappedField): string => {
    const i = col[field]
    return i === undefined || i < 0 ? '' : (row[i] ?? '').trim()
  }
  const amountFields = (['amount', 'debit', 'credit'] as const).filter((f) => (col[f] ?? -1) >= 0)

  // Pass 1: which rows are transactions, and what their cells say about the date order and decimal mark.
  interface Candidate {
    line: number
    row: string[]
    shape: DateShape
    amounts: Partial<Record<'amount' | 'debit' | 'credit', AmountText>>
    /** Set once the columns are known: the currency column, a code in the amount, or the default. */
    currency: string | null
  }
  const candidates: Candidate[] = []
  for (let i = 0; i < dataRows.length; i++) {
    const row = dataRows[i] as string[]
    const line = dataLines[i] as number
    const dateText = cell(row, 'date')
    const shape = readDateShape(dateText)
    const amounts: Candidate['amounts'] = {}
    let hasAmount = false
    for (const field of amountFields) {
      const text = readAmountText(cell(row, field))
      if (text) {
        amounts[field] = text
        hasAmount = true
      }
    }
    if (!shape) {
      const words = row.join(' ')
      if (dateText === '' && (TOTALS.test(words) || !hasAmount || row.filter((c) => c.trim() !== '').length <= 1)) {
        skipped.push({ line, reason: TOTALS.test(words) ? 'totals or balance line' : 'no date and no amount' })
        continue
      }
      if (TOTALS.test(words)) {
        skipped.push({ line, reason: 'totals or balance line' })
        continue
      }
      problems.push({ line, column: header[col.date as number] as string, code: 'invalid_date', message: dateText === '' ? 'The date is empty.' : `"${dateText}" is not a date Ledgerline reads (YYYY-MM-DD, DD/MM/YYYY, MM/DD/YYYY, DD-MMM-YYYY).` })
      continue
    }
    if (!hasAmount) {
      skipped.push({ line, reason: TOTALS.test(row.join(' ')) ? 'totals or balance line' : 'no amount' })
      continue
    }
    candidates.push({ line, row, shape, amounts, currency: null })
  }

  const dates = chooseDateOrder(candidates.map((c) => c.shape))
  const dateOrder = mapping.dateOrder ?? dates.order
  if (dateOrder === null) {
    questions.push({
      field: 'dateOrder',
      message: `Every date in "${header[col.date as number]}" reads both as day/month and as month/day (no day above 12); say which it is.`,
      choices: ['dmy', 'mdy']
    })
  }
  const currencyColumn = (col.currency ?? -1) >= 0
  const rowCurrency = (c: Candidate): string | null => {
    const fromColumn = currencyColumn ? cell(c.row, 'currency').toUpperCase() : ''
    if (fromColumn !== '') return fromColumn
    for (const f of amountFields) if (c.amounts[f]?.currency) return c.amounts[f]?.currency as string
    return mapping.defaultCurrency
  }
  const bodies: string[] = []
  const bodyCurrencies: (string | null)[] = []
  for (const c of candidates) {
    const currency = (c.currency = rowCurrency(c))
    for (const f of amountFields) {
      const t = c.amounts[f]
      if (t) {
        bodies.push(t.body)
        bodyCurrencies.push(currency)
      }
    }
  }
  const decimals = chooseDecimalMark(bodies, (i) => bodyCurrencies[i] ?? null)
  const decimalMark: DecimalMark | null = mapping.decimalMark ?? decimals.mark ?? (decimals.ambiguous ? null : '.')
  if (decimalMark === null) {
    questions.push({ field: 'decimalMark', message: 'Amounts like "1,234" read both as thousands and as decimals in a three-decimal currency; say which mark is the decimal point.', choices: ['.', ','] })
  }
  if (candidates.some((c) => c.currency === null)) {
    questions.push({ field: 'defaultCurrency', message: 'The file names no currency for some rows; give the currency they are in.', choices: [] })
  }
  if (questions.length > 0) return result([], null, null)

  // Pass 2: exact rows.
  const rows: StatementRow[] = []
  const seen = new Map<string, number>()
  const spaces = bodies.some((b) => / \d{3}/.test(b))
  const problem = (line: number, field: MappedField, code: string, message: string): void => {
    problems.push({ line, column: header[col[field] as number] ?? null, code, message })
  }
  for (const c of candidates) {
    const currency = c.currency as string
    const fail = (field: MappedField, code: string, message: string): void => problem(c.line, field, code, message)
    if (!isKnownCurrency(currency)) {
      fail(currencyColumn ? 'currency' : amountFields[0] as MappedField, 'unknown_currency', `"${currency}" is not an ISO 4217 currency code.`)
      continue
    }
    const day = dayOf(c.shape, dateOrder as DateOrder)
    if (day === null) {
      fail('date', 'invalid_date', `"${cell(c.row, 'date')}" is not a real day when read as ${DATE_FORMS[dateOrder as DateOrder]}.`)
      continue
    }
    if (c.shape.kind === 'numeric' && !ordersFitting(c.shape).has(dateOrder as DateOrder)) {
      fail('date', 'date_order_conflict', `"${cell(c.row, 'date')}" cannot be ${DATE_FORMS[dateOrder as DateOrder]}, which the other rows use.`)
      continue
    }
    let minor = 0
    let bad = false
    for (const f of amountFields) {
      const t = c.amounts[f]
      if (!t) continue
      let value: number
      try {
        value = parseAmountBody(t.body, decimalMark as DecimalMark, currency)
      } catch (error) {
        fail(f, error instanceof AmountFormatError ? error.code : 'invalid_amount', (error as Error).message)
        bad = true
        break
      }
      if (t.currency && t.currency !== currency) {
        fail(f, 'currency_conflict', `The amount says ${t.currency} but the row's currency is ${currency}.`)
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
      fail(amountFields[0] as MappedField, 'amount_too_large', 'The amount is too large to be held exactly.')
      continue
    }
    if ((col.indicator ?? -1) >= 0) {
      const indicator = cell(c.row, 'indicator')
      if (INDICATOR_DEBIT.test(indicator)) minor = -Math.abs(minor)
      else if (INDICATOR_CREDIT.test(indicator)) minor = Math.abs(minor)
      else {
        fail('indicator', 'invalid_indicator', `"${indicator}" is neither debit (DR, D, Debit) nor credit (CR, C, Credit).`)
        continue
      }
    }
    const reference = cell(c.row, 'reference') || null
    const description = cell(c.row, 'description') || null
    const counterparty = cell(c.row, 'counterparty') || null
    const base = contentId(`${currency}\u001f${day}\u001f${minor}\u001f${normaliseReference(reference ?? '')}\u001f${description ?? ''}\u001f${counterparty ?? ''}`)
    const occurrence = seen.get(base) ?? 0
    seen.set(base, occurrence + 1)
    const id = occurrence > 0 ? `${base}#${occurrence}` : base
    rows.push({ id, line: c.line, date: day, time: c.shape.time, amountMinor: minor, currency, reference, description, counterparty })
  }
  mapping.dateOrder = dateOrder
  mapping.decimalMark = decimalMark
  return result(rows, describeNumberForm(decimalMark as DecimalMark, spaces), DATE_FORMS[dateOrder as DateOrder])
}

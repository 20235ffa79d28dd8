// Reports an auditor can open: the reconciled items and a summary that foots per currency, as Excel-safe CSV and as one XLSX workbook laid out for people (Reconciliation, Summary and Items).
import { createWriteStream, readFileSync, writeSync } from 'node:fs'
import { zipSync } from 'fflate'
import { unzipBounded } from '../files/zip'
import type { Writable } from 'node:stream'
import type ExcelJS from 'exceljs'
import {
  amount,
  date,
  headerLine,
  identifier,
  integer,
  measure,
  preamble,
  rowLine,
  text,
  toExcelCsv,
  type CsvCell,
  type CsvStyle
} from '../../shared/csv/excel-safe'
import { currencyExponent, moneyText, parseMajor, toMajorString } from '../../shared/money'
import {
  AGE_BUCKETS,
  AGEING_KINDS,
  type AgeingKind,
  carriedFromOf,
  expectedAmount,
  feeBasisInWords,
  OUTCOME_LABELS,
  OUTCOMES,
  settingName,
  shownAmount,
  type FileSide,
  shownDay,
  shortItemKey,
  type ReconItem,
  type ReconSummary,
  type SessionInfo,
  lineWhere
} from '../../shared/reconcile'
import { writeFileSafely } from '../files/safe-file'
import { pauseFor } from '../jobs/pause'
import { bankReconciliations } from '../../shared/bank-reconciliation'
import { describeEvent } from '../../shared/reconcile-events'
import type { AuditEvent } from './audit'
import { summaryOf, summing, totalsBasis, type ReportInput } from './totals'
import { auditTrailWords, bankRecAmount, bankRecStatement, type BankRecStatement } from './bank-rec-statement'

/**
 * The items report's columns, in the order people read them: the outcome in words and why, the
 * decision, the provider's side, the file's side; then what software keys on (the outcome's code,
 * the item's short key, the provider's record ids and the file's row ids), last. Each with the
 * heading and width the workbook gives it.
 */
const ITEM_LAYOUT = {
  outcome_in_words: ['Outcome', 24],
  difference: ['Difference', 16],
  score: ['Score', 7],
  reasons: ['Reasons', 60],
  decision: ['Decision', 12],
  note: ['Note', 30],
  reason_code: ['Reason', 16],
  resolved: ['Resolved', 9],
  decided_by: ['Decided by', 16],
  decided_at: ['Decided at', 20],
  carried_from: ['Carried from', 24],
  provider_reference: ['Provider reference', 24],
  provider_service_reference: ['Service reference', 20],
  provider_date: ['Provider date', 13],
  provider_status: ['Status', 13],
  provider_channel: ['Channel', 18],
  provider_currency: ['Provider currency', 11],
  provider_amount: ['Provider amount', 16],
  provider_fees: ['Provider fees', 14],
  provider_net: ['Provider net', 16],
  file_name: ['Statement', 24],
  file_line: ['Line', 9],
  file_reference: ['Statement reference', 24],
  file_description: ['Description', 40],
  file_counterparty: ['Counterparty', 24],
  file_date: ['Statement date', 13],
  file_currency: ['Statement currency', 11],
  file_amount: ['Statement amount', 16],
  outcome: ['Outcome code', 20],
  item_key: ['Item key', 14],
  provider_ids: ['Provider record ids', 28],
  file_row_ids: ['Statement row ids', 28]
} as const satisfies Record<string, readonly [string, number]>

export const ITEM_COLUMNS = Object.keys(ITEM_LAYOUT) as (keyof typeof ITEM_LAYOUT)[]

const join = (values: (string | null)[]): string | null => {
  const kept = values.filter((v): v is string => v !== null && v !== '')
  return kept.length === 0 ? null : kept.join(' + ')
}
const single = <T>(values: T[]): T | null => (new Set(values).size === 1 ? (values[0] as T) : null)
const sum = (values: number[]): number => values.reduce((s, v) => s + v, 0)

/** The session's statements' names by id: reasons and reports name a line as "line 14 of statement.csv". */
export function fileNamesOf(session: SessionInfo): Map<string, string> {
  return new Map(session.files.map((f) => [f.id, f.name]))
}

/** The session's PDF statements' pages by id: reasons name their lines "page 3, line 12". */
export function filePagesOf(session: SessionInfo): Map<string, number[]> {
  return new Map(session.files.flatMap((f) => (f.pageStarts ? [[f.id, f.pageStarts] as [string, number[]]] : [])))
}

/** One report row per item or group; a group's members are joined with " + " and its amounts summed. `fileNames`: each statement's name by its id. */
export function itemCells(
  item: ReconItem,
  fileNames: ReadonlyMap<string, string> = new Map(),
  filePages: ReadonlyMap<string, readonly number[]> = new Map()
): CsvCell[] {
  const pCurrency = single(item.provider.map((p) => p.currency))
  const fCurrency = single(item.file.map((f) => f.currency))
  const common = pCurrency ?? fCurrency
  const money = (minor: number | null, currency: string | null): CsvCell =>
    minor === null || currency === null ? null : amount(minor, currency)
  const hasP = item.provider.length > 0
  const hasF = item.file.length > 0
  const onlyLine = item.file.length === 1 && !filePages.has((item.file[0] as FileSide).fileId) ? (item.file[0] as FileSide).line : null
  return [
    text(OUTCOME_LABELS[item.outcome]),
    item.differenceMinor === null || common === null ? null : amount(item.differenceMinor, common),
    measure(item.score),
    text(item.reasons.join('; ')),
    text(item.decision),
    text(item.note),
    text(item.reasonCode),
    text(item.resolved ? 'yes' : 'no'),
    text(item.decidedBy),
    text(item.decidedAt),
    // The earlier period an open record or line was carried forward from, by its days.
    text(join(carriedFromOf(item).map((c) => `${c.from} to ${c.to}`))),
    identifier(join(item.provider.map((p) => p.reference))),
    identifier(join(item.provider.map((p) => p.serviceReference))),
    date(join([...new Set(item.provider.map((p) => p.date))])),
    text(join([...new Set(item.provider.map((p) => p.status))])),
    text(join([...new Set(item.provider.map((p) => p.channel))])),
    text(pCurrency ?? join(item.provider.map((p) => p.currency))),
    hasP ? money(pCurrency ? sum(item.provider.map((p) => p.amountMinor)) : null, pCurrency) : null,
    hasP ? money(pCurrency ? sum(item.provider.map((p) => p.feesMinor)) : null, pCurrency) : null,
    hasP ? money(pCurrency ? sum(item.provider.map((p) => expectedAmount(p, true))) : null, pCurrency) : null,
    text(join([...new Set(item.file.map((f) => fileNames.get(f.fileId) ?? f.carried?.file ?? null))])),
    // One line of a text file as a number; a PDF's line by its page ("page 3, line 12"), as the auditor finds it; a group's lines joined.
    onlyLine !== null
      ? integer(onlyLine)
      : text(join(item.file.map((f) => (filePages.has(f.fileId) ? lineWhere(f.line, filePages.get(f.fileId)) : String(f.line))))),
    identifier(join(item.file.map((f) => f.reference))),
    text(join(item.file.map((f) => f.description))),
    text(join([...new Set(item.file.map((f) => f.counterparty))])),
    // A line not read shows only what was read of it: no stand-in day or zero amount.
    date(join([...new Set(item.file.map(shownDay))])),
    text(fCurrency ?? join(item.file.map((f) => f.currency))),
    hasF && item.file.every((f) => shownAmount(f) !== null)
      ? money(fCurrency ? sum(item.file.map((f) => f.amountMinor)) : null, fCurrency)
      : null,
    text(item.outcome),
    // The short key (12 characters, stable across runs): what the CLI's decide and the review take back.
    identifier(shortItemKey(item.key)),
    identifier(join(item.provider.map((p) => p.id))),
    identifier(join(item.file.map((f) => f.id)))
  ]
}

/** Events after the session was first reopened: the discrepancy log an auditor reads. */
export function discrepancyLog(events: AuditEvent[]): AuditEvent[] {
  const first = events.findIndex((e) => e.kind === 'reopen')
  return first < 0 ? [] : events.slice(first)
}

export const SUMMARY_COLUMNS = [
  'section',
  'name',
  'currency',
  'outcome',
  'count',
  'provider_amount',
  'file_amount',
  'difference',
  'value'
] as const

/** The summary as rows: session facts, settings, files, per-currency outcome totals that foot, adjustments, the discrepancy log. */
export function summaryRows(summary: ReconSummary, input: ReportInput): CsvCell[][] {
  const fact = (section: string, name: string, value: string | null, id = false): CsvCell[] => [
    text(section),
    text(name),
    null,
    null,
    null,
    null,
    null,
    null,
    id ? identifier(value) : text(value)
  ]
  const count = (section: string, name: string, value: number): CsvCell[] => [...fact(section, name, null).slice(0, -1), integer(value)]
  const rows: CsvCell[][] = [
    fact('session', 'id', summary.sessionId, true),
    fact('session', 'name', input.session.name),
    fact('session', 'profile', summary.profile.name),
    fact('session', 'mode', summary.profile.mode),
    fact('session', 'source', summary.source),
    fact('session', 'period_from', summary.period.from),
    fact('session', 'period_to', summary.period.to),
    fact('session', 'time_zone', summary.period.timeZone),
    fact('session', 'closed_at', summary.closedAt ?? 'open'),
    fact('session', 'closed_by', summary.closedBy),
    fact('session', 'rule_version', summary.ruleVersion),
    count('session', 'exceptions_open', summary.exceptions),
    count('session', 'lines_not_read_open', summary.notReadOpen),
    // What may be said, as the one verdict says it (shared/verdict.ts): never decided here.
    fact('verdict', 'verdict', summary.verdict.headline),
    fact('verdict', 'difference_accounted_for', summary.verdict.accountedFor ? 'yes' : 'no'),
    fact('verdict', 'statements_complete', summary.verdict.complete ? 'yes' : 'no'),
    fact('verdict', 'nothing_left', summary.verdict.nothingLeft ? 'yes' : 'no'),
    ...summary.verdict.warnings.map((w) => fact('warning', 'warning', w)),
    fact('session', 'expected_amounts', feeBasisInWords(summary.basis)),
    ...(summary.lines === null ? [] : [count('lines', 'lines_in_statements', summary.lines.inStatements)])
  ]
  for (const v of summary.verdict.currencies)
    for (const why of v.why) rows.push([text('verdict'), text('why_not'), text(v.currency), null, null, null, null, null, text(why)])
  for (const [name, value] of Object.entries(summary.settings)) rows.push(fact('setting', settingName(name), String(value)))
  for (const f of summary.files)
    rows.push([text('file'), text(f.name), null, null, integer(f.rows), null, null, null, identifier(f.sha256)])
  // Each statement's own proof: its balances, whether it ties, where its running balance breaks, the lines not read.
  for (const s of summary.statements) {
    const money = (value: string | null): CsvCell =>
      value === null || s.currency === null ? null : amount(parseMajor(value, s.currency), s.currency)
    const row = (section: string, name: string, difference: CsvCell, value: string | null, id = false): CsvCell[] => [
      text(section),
      text(name),
      text(s.currency),
      null,
      null,
      null,
      null,
      difference,
      id ? identifier(value) : text(value)
    ]
    rows.push(row('statement', s.file, null, `${s.complete ? 'complete' : 'not complete'}: ${s.verdict}`))
    if (s.account !== null) rows.push(row('statement_account', s.file, null, s.account, true))
    rows.push(row('statement_opening_balance', s.file, money(s.opening), s.opening === null ? 'not stated' : null))
    rows.push(row('statement_closing_balance', s.file, money(s.closing), s.closing === null ? 'not stated' : null))
    for (const b of s.balanceBreaks)
      rows.push(
        row(
          'balance_break',
          `${lineWhere(b.line, s.pageStarts)} of ${s.file}`,
          money(b.gap),
          `running balance ${moneyText(parseMajor(b.found, s.currency as string), s.currency as string)} where ${moneyText(parseMajor(b.expected, s.currency as string), s.currency as string)} was expected`
        )
      )
    for (const l of s.notRead)
      rows.push(row('line_not_read', `${lineWhere(l.line, s.pageStarts)} of ${s.file}`, null, `${l.reason}: ${l.text}`))
  }
  for (const c of summary.currencies) {
    for (const o of OUTCOMES) {
      const b = c.outcomes[o]
      if (b.count === 0) continue
      rows.push([
        text('outcome'),
        text(o),
        text(c.currency),
        text(o),
        integer(b.count),
        amount(b.providerMinor, c.currency),
        amount(b.fileMinor, c.currency),
        amount(b.differenceMinor, c.currency),
        null
      ])
    }
    const count = OUTCOMES.reduce((s, o) => s + c.outcomes[o].count, 0)
    rows.push([
      text('total'),
      text('provider against file'),
      text(c.currency),
      null,
      integer(count),
      amount(c.providerTotalMinor, c.currency),
      amount(c.fileTotalMinor, c.currency),
      amount(c.fileTotalMinor - c.providerTotalMinor, c.currency),
      null
    ])
    rows.push([
      text('foots'),
      text('difference not accounted for by outcomes'),
      text(c.currency),
      null,
      null,
      null,
      null,
      amount(c.unexplainedMinor, c.currency),
      null
    ])
    if (c.adjustmentsMinor !== 0)
      rows.push([
        text('adjustments'),
        text('recorded adjustments'),
        text(c.currency),
        null,
        null,
        null,
        null,
        amount(c.adjustmentsMinor, c.currency),
        null
      ])
    // The provider's fees per outcome, on every record of the period: what the ledger books as fee expense (matched), and what waits.
    for (const o of OUTCOMES)
      if (c.outcomes[o].feesMinor !== 0)
        rows.push([
          text('fees'),
          text(o),
          text(c.currency),
          text(o),
          integer(c.outcomes[o].count),
          null,
          null,
          amount(c.outcomes[o].feesMinor, c.currency),
          null
        ])
    // Money outstanding at the period's end, by age.
    for (const kind of Object.keys(AGEING_KINDS) as AgeingKind[])
      c.ageing[kind].forEach((b, k) => {
        if (b.count !== 0)
          rows.push([
            text(`ageing_${AGEING_KINDS[kind].name}`),
            text((AGE_BUCKETS[k] as (typeof AGE_BUCKETS)[number]).label),
            text(c.currency),
            null,
            integer(b.count),
            null,
            null,
            amount(b.minor, c.currency),
            null
          ])
      })
  }
  // The bank reconciliation statement, per currency: opening, the provider's records, each class of reconciling item, closing, the difference left.
  for (const rec of bankReconciliations(summary))
    for (const line of rec.lines)
      rows.push([
        text('bank_reconciliation'),
        text(line.label),
        text(rec.currency),
        null,
        line.count === null ? null : integer(line.count),
        null,
        null,
        line.amountMinor === null ? null : amount(line.amountMinor, rec.currency),
        text(
          line.amountMinor === null ? 'not stated' : line.kind === 'difference' ? (line.amountMinor === 0 ? 'nothing left' : 'LEFT') : null
        )
      ])
  for (const a of input.folded.adjustments)
    rows.push([
      text('adjustment'),
      text(a.reason),
      text(a.currency),
      null,
      null,
      null,
      null,
      amount(a.amountMinor, a.currency),
      text(`${a.by} at ${a.at}${a.itemKey ? ` on ${a.itemKey}` : ''}`)
    ])
  for (const e of discrepancyLog(input.events))
    rows.push([
      text('discrepancy_log'),
      text(e.kind),
      null,
      null,
      integer(e.seq),
      null,
      null,
      null,
      text(`${e.at} by ${e.user}: ${describeEvent(e)}`)
    ])
  return rows
}

/** Items written to the file per write call. */
const ITEMS_PER_WRITE = 5_000

/**
 * Writes every item of the session, a row each, and returns how many and the summary summed from
 * those very items as they were written: a million items are read once for both, and the summary the
 * other reports carry is the one of the rows this file holds.
 */
export async function writeItemsCsv(
  file: string,
  input: ReportInput,
  style: CsvStyle = 'excel',
  pausing?: PausingWrite
): Promise<{ rows: number; summary: ReconSummary }> {
  const sum = summing(totalsBasis(input.session))
  const pause = pausing && pauseFor(pausing.signal)
  const total = Object.values(input.session.counts ?? {}).reduce((n, c) => n + c, 0)
  const rows = await writeFileSafely(
    file,
    async (fd) => {
      let count = 0
      const names = fileNamesOf(input.session)
      const pages = filePagesOf(input.session)
      let chunk = preamble(style) + headerLine(ITEM_COLUMNS, style)
      await pause?.()
      for (const item of sum.counting(input.items())) {
        chunk += rowLine(itemCells(item, names, pages), ITEM_COLUMNS.length, style)
        if (++count % ITEMS_PER_WRITE === 0) {
          writeSync(fd, chunk)
          chunk = ''
          pausing?.onRows?.(count, total)
          await pause?.()
        }
      }
      writeSync(fd, chunk)
      return count
    },
    pausing?.signal
  )
  return { rows, summary: summaryOf(input.session, input.profile, sum.result(input.folded.adjustments, input.facts)) }
}

/**
 * A report written by a caller that may cancel it (the CLI's Ctrl+C): the writer pauses for the
 * event loop between its writes, and a cancel leaves no file. The items are being read from the cache
 * meanwhile, so only a caller with the connection to itself may ask for it.
 */
export interface PausingWrite {
  signal: AbortSignal
  /** How many rows are written, of how many the session's counts hold. */
  onRows?: (done: number, total: number) => void
}

export async function writeSummaryCsv(file: string, summary: ReconSummary, input: ReportInput, style: CsvStyle = 'excel'): Promise<void> {
  await writeFileSafely(file, (fd) => {
    writeSync(fd, toExcelCsv(SUMMARY_COLUMNS, summaryRows(summary, input), style))
  })
}

/** One workbook for people: the Reconciliation statement, the Summary, the Items (then Sign-off for a team session), each with bold headings, widths, frozen heading rows and filters; identifiers as text cells, amounts as numbers with their currency's decimals. */
/**
 * The workbook. `fixedTime` makes it the same bytes each time it is written from the same session
 * (its document dates and every part's zip time set to it): an evidence pack's workbook is bound by
 * its SHA-256 when the session closes, and written again later.
 */
export async function writeXlsx(file: string, summary: ReconSummary, input: ReportInput, fixedTime?: Date): Promise<void> {
  await writeFileSafely(file, (fd) => writeWorkbook(createWriteStream('', { fd, autoClose: false }), summary, input, fixedTime))
  if (fixedTime) {
    // The workbook is this process's own: no ceiling on what it inflates to.
    const parts = unzipBounded(readFileSync(file), file, () => true, { perEntry: Number.MAX_SAFE_INTEGER, total: Number.MAX_SAFE_INTEGER })
    const zipped = zipSync(Object.fromEntries([...parts].map(([name, data]) => [name, [data, { mtime: fixedTime, level: 6 }]])))
    await writeFileSafely(file, (fd) => {
      writeSync(fd, zipped)
    })
  }
}

/** A row of cells put on a sheet, in a font, some of them formulas (by column, their figure kept as the result); its row number. */
type Put = (
  sheet: ExcelJS.Worksheet,
  cells: CsvCell[],
  font?: Partial<ExcelJS.Font>,
  formulas?: (string | undefined)[],
  /** The first cell's text wraps in its column (a sentence of the statement), to print within the page. */
  wrapFirst?: boolean
) => number

/** The schedule of reconciling items' columns, with their widths. */
const SCHEDULE_LAYOUT = [
  ['Currency', 10],
  ['Class', 52],
  ['Day', 12],
  ['Age (days)', 10],
  ['Reference', 26],
  ['Who or what', 60],
  ['Where', 28],
  ['State', 30],
  ['Note', 40],
  ['Amount', 18]
] as const

/** How a sheet prints (given as the sheet is made: a streamed sheet writes it first): fitted to the page's width, its heading row on every page, its name, the page and the page count in the footer. */
function printed(name: string, options: { landscape: boolean; headingRow: boolean }): Partial<ExcelJS.AddWorksheetOptions> {
  return {
    pageSetup: {
      paperSize: 9,
      orientation: options.landscape ? 'landscape' : 'portrait',
      fitToPage: true,
      fitToWidth: 1,
      fitToHeight: 0,
      ...(options.headingRow ? { printTitlesRow: '1:1' } : {})
    },
    headerFooter: { oddFooter: `&L${name.replace(/&/g, '&&')}&RPage &P of &N` }
  }
}

/** Column widths of the Summary sheet, in characters. */
const SUMMARY_WIDTHS = [20, 60, 9, 20, 9, 18, 18, 18, 80]
const BOLD = { bold: true }

async function writeWorkbook(stream: Writable, summary: ReconSummary, input: ReportInput, fixedTime?: Date): Promise<void> {
  // exceljs is read only when a workbook is written (it costs a command's start a quarter of a second).
  const { default: excel } = await import('exceljs')
  const workbook = new excel.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: true })
  if (fixedTime) {
    workbook.created = fixedTime
    workbook.modified = fixedTime
  }
  const put: Put = (sheet, cells, font, formulas, wrapFirst) => {
    // A formula keeps its figure as its cached result: a reader that does not calculate still sees it.
    const row = sheet.addRow(
      cells.map((cell, i) => {
        const value = xlsxValue(cell)
        const formula = formulas?.[i]
        return formula === undefined || typeof value !== 'number' ? value : { formula, result: value }
      })
    )
    cells.forEach((cell, i) => {
      if (cell === null) return
      const target = row.getCell(i + 1)
      if (cell.kind === 'amount') target.numFmt = amountFormat(cell.currency)
      else if (cell.kind === 'date') target.numFmt = 'yyyy-mm-dd'
      else if (cell.kind === 'identifier' || cell.kind === 'text') target.numFmt = '@'
      if (font) target.font = font
      if (wrapFirst && i === 0) target.alignment = { wrapText: true, vertical: 'top' }
    })
    row.commit()
    return row.number
  }
  /** A sheet of rows under one bold heading row, frozen below it, with filters on every column. */
  const table = (name: string, headings: readonly string[], widths: readonly number[]): ExcelJS.Worksheet => {
    const sheet = workbook.addWorksheet(name, {
      views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }],
      ...printed(name, { landscape: true, headingRow: true })
    })
    sheet.columns = headings.map((header, i) => ({ header, width: widths[i] ?? 14 }))
    sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: headings.length } }
    sheet.getRow(1).font = BOLD
    sheet.getRow(1).alignment = { wrapText: true, vertical: 'top' }
    return sheet
  }
  const statement = bankRecStatement(summary, input)
  writeReconciliationSheet(workbook, statement, put)
  const scheduleSheet = table(
    'Reconciling items',
    SCHEDULE_LAYOUT.map((c) => c[0]),
    SCHEDULE_LAYOUT.map((c) => c[1])
  )
  for (const k of statement.schedule) {
    for (const r of k.rows)
      put(scheduleSheet, [
        text(k.currency),
        text(k.label),
        date(r.day),
        r.age === null ? null : integer(r.age),
        identifier(r.reference || null),
        text(r.words || null),
        text(r.where || null),
        text(r.state),
        text(r.note),
        amount(r.amountMinor, k.currency)
      ])
    if (k.more.count > 0)
      put(scheduleSheet, [
        text(k.currency),
        text(k.label),
        null,
        null,
        null,
        text(`… and ${k.more.count.toLocaleString('en-US')} more, newer (in the Items sheet)`),
        null,
        null,
        null,
        amount(k.more.amountMinor, k.currency)
      ])
  }
  scheduleSheet.commit()
  const summarySheet = table('Summary', SUMMARY_COLUMNS, SUMMARY_WIDTHS)
  for (const row of summaryRows(summary, input)) put(summarySheet, row)
  summarySheet.commit()
  const itemsSheet = table(
    'Items',
    ITEM_COLUMNS.map((c) => ITEM_LAYOUT[c][0]),
    ITEM_COLUMNS.map((c) => ITEM_LAYOUT[c][1])
  )
  const names = fileNamesOf(input.session)
  const pages = filePagesOf(input.session)
  for (const item of input.items()) put(itemsSheet, itemCells(item, names, pages))
  itemsSheet.commit()
  if (input.signOff) {
    const signOffSheet = table('Sign-off', input.signOff.columns, [])
    for (const row of input.signOff.rows) put(signOffSheet, row)
    signOffSheet.commit()
  }
  await workbook.commit()
}

/** The Reconciliation sheet: the bank reconciliation statement as the PDF lays it out, one currency after another, the figures as numbers. */
function writeReconciliationSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, statement: BankRecStatement, putCells: Put): void {
  const put: Put = (sheet, cells, font, formulas) => putCells(sheet, cells, font, formulas, true)
  const sheet = workbook.addWorksheet('Reconciliation', printed('Reconciliation', { landscape: false, headingRow: false }))
  sheet.columns = [{ width: 86 }, { width: 10 }, { width: 22 }]
  const heading = (words: string, size = 12): void => {
    put(sheet, [text(words)], { bold: true, size })
  }
  const blank = (): void => {
    put(sheet, [])
  }
  heading(statement.title, 14)
  for (const f of statement.facts) put(sheet, [text(`${f.label}: ${f.value}`)])
  for (const rec of statement.reconciliations) {
    blank()
    heading(`Reconciliation in ${rec.currency}`)
    put(sheet, [null, text('Items'), text('Amount')], BOLD)
    let memo = false
    // The closing the lines make is a SUM of the opening and the lines above it, the difference left the stated closing less it: the sheet adds up as it is read.
    let first: number | null = null
    let previous = 0
    let total: number | null = null
    let closing: number | null = null
    for (const line of rec.lines) {
      if (line.kind === 'memo' && !memo) {
        memo = true
        put(sheet, [text('Memo (said, not added):')], { italic: true })
      }
      const strong = line.kind === 'balance' || line.kind === 'total' || line.kind === 'difference'
      const formula =
        line.kind === 'total' && first !== null
          ? `SUM(C${first}:C${previous})`
          : line.kind === 'difference' && total !== null && closing !== null
            ? `C${closing}-C${total}`
            : undefined
      const row = put(
        sheet,
        [
          text(line.label),
          line.count === null ? null : integer(line.count),
          line.amountMinor === null ? text(bankRecAmount(line, rec.currency) || null) : amount(line.amountMinor, rec.currency)
        ],
        strong ? BOLD : line.kind === 'memo' ? { italic: true } : undefined,
        [undefined, undefined, formula]
      )
      if (first === null) first = row
      previous = row
      if (line.kind === 'total') total = row
      if (line.kind === 'balance' && total !== null && line.amountMinor !== null) closing = row
    }
  }
  blank()
  heading('What may be said')
  put(sheet, [text(statement.verdict.headline)], BOLD)
  for (const why of statement.verdict.why) put(sheet, [text(`• ${why}`)])
  blank()
  heading("The period among the account's others")
  for (const line of statement.chain) put(sheet, [text(line)])
  blank()
  heading("Each statement's own proof")
  for (const p of statement.proofs) {
    put(sheet, [text(p.heading)], BOLD)
    put(sheet, [text(p.sentence)])
    for (const problem of p.problems) put(sheet, [text(`• ${problem}`)])
  }
  blank()
  heading('Files reconciled, as imported')
  put(sheet, [text('File (its SHA-256 below it)'), text('Lines')], BOLD)
  for (const f of statement.files) {
    put(sheet, [text(f.name), integer(f.lines)])
    put(sheet, [identifier(`SHA-256 ${f.sha256}`)])
  }
  blank()
  heading('Sign-off')
  const s = statement.signOff
  put(sheet, [text('Prepared by'), null, text('Date')], BOLD)
  put(sheet, [text(s.preparedBy ?? ''), null, text(s.preparedAt ?? '')])
  put(sheet, [text('Reviewed by'), null, text('Date')], BOLD)
  put(sheet, [text(s.reviewedBy ?? ''), null, text(s.reviewedAt ?? '')])
  put(sheet, [text(auditTrailWords(s))])
  if (s.chainHead !== null) put(sheet, [identifier(s.chainHead)])
  sheet.commit()
}

function xlsxValue(cell: CsvCell): string | number | Date | null {
  if (cell === null) return null
  switch (cell.kind) {
    case 'date':
      // A day as a date cell: midnight UTC, which a workbook holds as that calendar day.
      return new Date(`${cell.value}T00:00:00Z`)
    case 'amount':
      return Number(toMajorString(cell.minor, cell.currency))
    case 'integer':
    case 'number':
      return cell.value
    case 'identifier':
    case 'text':
      return cell.value
  }
}

function amountFormat(currency: string): string {
  const exponent = currencyExponent(currency)
  return exponent === 0 ? '#,##0' : `#,##0.${'0'.repeat(exponent)}`
}

// Reports an auditor can open: the reconciled items and a summary that foots per currency, as Excel-safe CSV and as one XLSX workbook (Summary and Items).
import { createWriteStream, writeSync } from 'node:fs'
import type { Writable } from 'node:stream'
import ExcelJS from 'exceljs'
import {
  amount,
  date,
  headerLine,
  identifier,
  integer,
  preamble,
  rowLine,
  text,
  toExcelCsv,
  type CsvCell,
  type CsvStyle
} from '../../shared/csv/excel-safe'
import { currencyExponent, moneyText, parseMajor, toMajorString } from '../../shared/money'
import {
  expectedAmount,
  isException,
  OUTCOMES,
  shownAmount,
  shownDay,
  RULE_VERSION,
  type CurrencySummary,
  type LineNotRead,
  type Outcome,
  type ReconItem,
  type ReconSettings,
  type ReconSummary,
  statementCheck,
  type SessionInfo,
  lineWhere
} from '../../shared/reconcile'
import { writeFileSafely } from '../export/safe-file'
import { bankReconciliations } from '../../shared/bank-reconciliation'
import { describeEvent } from '../../shared/reconcile-events'
import type { AuditEvent } from './audit'
import type { FoldedDecisions } from './fold'

export const ITEM_COLUMNS = [
  'outcome',
  'difference',
  'score',
  'reasons',
  'decision',
  'note',
  'reason_code',
  'resolved',
  'decided_by',
  'decided_at',
  'provider_ids',
  'provider_reference',
  'provider_service_reference',
  'provider_date',
  'provider_status',
  'provider_channel',
  'provider_currency',
  'provider_amount',
  'provider_fees',
  'provider_net',
  'file_row_ids',
  'file_name',
  'file_line',
  'file_reference',
  'file_description',
  'file_counterparty',
  'file_date',
  'file_currency',
  'file_amount',
  'item_key'
] as const

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
  return [
    text(item.outcome),
    item.differenceMinor === null || common === null ? null : amount(item.differenceMinor, common),
    item.score === null ? null : text(String(item.score)),
    text(item.reasons.join('; ')),
    text(item.decision),
    text(item.note),
    text(item.reasonCode),
    text(item.resolved ? 'yes' : 'no'),
    text(item.decidedBy),
    text(item.decidedAt),
    identifier(join(item.provider.map((p) => p.id))),
    identifier(join(item.provider.map((p) => p.reference))),
    identifier(join(item.provider.map((p) => p.serviceReference))),
    date(join([...new Set(item.provider.map((p) => p.date))])),
    text(join([...new Set(item.provider.map((p) => p.status))])),
    text(join([...new Set(item.provider.map((p) => p.channel))])),
    text(pCurrency ?? join(item.provider.map((p) => p.currency))),
    hasP ? money(pCurrency ? sum(item.provider.map((p) => p.amountMinor)) : null, pCurrency) : null,
    hasP ? money(pCurrency ? sum(item.provider.map((p) => p.feesMinor)) : null, pCurrency) : null,
    hasP ? money(pCurrency ? sum(item.provider.map((p) => expectedAmount(p, true))) : null, pCurrency) : null,
    identifier(join(item.file.map((f) => f.id))),
    text(join([...new Set(item.file.map((f) => fileNames.get(f.fileId) ?? null))])),
    // A PDF's line by its page ("page 3, line 12"), as the auditor finds it; any other file's by its number.
    text(join(item.file.map((f) => (filePages.has(f.fileId) ? lineWhere(f.line, filePages.get(f.fileId)) : String(f.line))))),
    identifier(join(item.file.map((f) => f.reference))),
    text(join(item.file.map((f) => f.description))),
    text(join([...new Set(item.file.map((f) => f.counterparty))])),
    // A line not read shows only what was read of it: no stand-in day or zero amount.
    date(join([...new Set(item.file.map(shownDay))])),
    text(fCurrency ?? join(item.file.map((f) => f.currency))),
    hasF && item.file.every((f) => shownAmount(f) !== null)
      ? money(fCurrency ? sum(item.file.map((f) => f.amountMinor)) : null, fCurrency)
      : null,
    identifier(item.key)
  ]
}

/** What a summary counts: items per outcome, totals per currency and outcome, and the items still needing the user. */
export interface SummaryTotals {
  counts: Record<Outcome, number>
  currencies: CurrencySummary[]
  exceptions: number
  /** Lines not read that are still open (neither read by hand nor left out): while any is, nothing is accounted for. */
  notReadOpen: number
  /** Those lines by statement (file id). */
  notReadLines: Record<string, LineNotRead[]>
}

/**
 * Totals per currency and outcome, built up item by item: every item adds its provider side (net
 * when the session nets fees) and its file side to its currencies. Items can be taken out again
 * (sign −1), so one decision updates a stored summary without reading every item.
 */
export class Totals {
  private readonly counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>
  private readonly byCurrency = new Map<string, CurrencySummary>()
  private exceptions = 0
  private notReadOpen = 0
  private notReadLines: Record<string, LineNotRead[]> = {}

  constructor(
    private readonly settings: ReconSettings,
    from?: SummaryTotals
  ) {
    if (!from) return
    Object.assign(this.counts, from.counts)
    this.exceptions = from.exceptions
    this.notReadOpen = from.notReadOpen ?? 0
    this.notReadLines = Object.fromEntries(Object.entries(from.notReadLines ?? {}).map(([k, v]) => [k, [...v]]))
    for (const c of from.currencies)
      this.byCurrency.set(c.currency, {
        ...c,
        outcomes: Object.fromEntries(OUTCOMES.map((o) => [o, { ...c.outcomes[o] }])) as CurrencySummary['outcomes']
      })
  }

  private of(currency: string): CurrencySummary {
    let c = this.byCurrency.get(currency)
    if (!c) {
      c = {
        currency,
        providerTotalMinor: 0,
        fileTotalMinor: 0,
        adjustmentsMinor: 0,
        outcomes: Object.fromEntries(
          OUTCOMES.map((o) => [o, { count: 0, providerMinor: 0, fileMinor: 0, differenceMinor: 0 }])
        ) as CurrencySummary['outcomes'],
        unexplainedMinor: 0
      }
      this.byCurrency.set(currency, c)
    }
    return c
  }

  add(item: ReconItem, sign: 1 | -1 = 1): void {
    this.counts[item.outcome] += sign
    if (isException(item.outcome) && !item.resolved) this.exceptions += sign
    if (item.outcome === 'not_read' && !item.resolved) {
      this.notReadOpen += sign
      for (const f of item.file) {
        if (!f.notRead || f.notRead.fixed) continue
        const list = (this.notReadLines[f.fileId] ??= [])
        if (sign === 1) list.push({ line: f.line, text: f.notRead.text, reason: f.notRead.reason })
        else this.notReadLines[f.fileId] = list.filter((l) => l.line !== f.line)
      }
    }
    const touched = new Set<string>()
    for (const p of item.provider) {
      const c = this.of(p.currency)
      const value = sign * expectedAmount(p, item.netOfFees ?? this.settings.netOfFees)
      c.providerTotalMinor += value
      c.outcomes[item.outcome].providerMinor += value
      touched.add(p.currency)
    }
    for (const f of item.file) {
      const c = this.of(f.currency)
      c.fileTotalMinor += sign * f.amountMinor
      c.outcomes[item.outcome].fileMinor += sign * f.amountMinor
      touched.add(f.currency)
    }
    for (const currency of touched) this.of(currency).outcomes[item.outcome].count += sign
  }

  adjust(currency: string, amountMinor: number): void {
    this.of(currency).adjustmentsMinor += amountMinor
  }

  result(): SummaryTotals {
    for (const c of this.byCurrency.values()) {
      let explained = 0
      for (const o of OUTCOMES) {
        const bucket = c.outcomes[o]
        bucket.differenceMinor = bucket.fileMinor - bucket.providerMinor
        explained += bucket.differenceMinor
      }
      c.unexplainedMinor = c.fileTotalMinor - c.providerTotalMinor - explained
      for (const v of [c.providerTotalMinor, c.fileTotalMinor, c.unexplainedMinor])
        if (!Number.isSafeInteger(v)) throw new Error('A total is too large to be held exactly')
    }
    // A currency whose last item and adjustment went away leaves the summary.
    const currencies = [...this.byCurrency.values()]
      .filter((c) => c.adjustmentsMinor !== 0 || OUTCOMES.some((o) => c.outcomes[o].count !== 0))
      .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
    for (const list of Object.values(this.notReadLines)) list.sort((a, b) => a.line - b.line)
    return {
      counts: { ...this.counts },
      currencies,
      exceptions: this.exceptions,
      notReadOpen: this.notReadOpen,
      notReadLines: this.notReadLines
    }
  }
}

export function summarise(items: Iterable<ReconItem>, settings: ReconSettings, adjustments: FoldedDecisions['adjustments']): SummaryTotals {
  const totals = new Totals(settings)
  for (const item of items) totals.add(item)
  for (const a of adjustments) totals.adjust(a.currency, a.amountMinor)
  return totals.result()
}

export interface ReportInput {
  session: SessionInfo
  profile: { name: string; mode: string }
  items: () => Iterable<ReconItem>
  folded: FoldedDecisions
  events: AuditEvent[]
  /** Who prepared, reviewed and approved it (a session shared in a team workspace): a sheet of its own in the workbook. */
  signOff?: { columns: readonly string[]; rows: CsvCell[][] }
}

/** The summary a report carries: its totals summed from every item as the report writes them. */
export function buildSummary(input: ReportInput): ReconSummary {
  return summaryOf(input.session, input.profile, summarise(input.items(), input.session.settings, input.folded.adjustments))
}

/** A session's summary from totals already at hand (the stored ones the screen shows): no item, decision or event is read. */
export function summaryOf(session: SessionInfo, profile: ReportInput['profile'], totals: SummaryTotals): ReconSummary {
  const { counts, currencies, exceptions, notReadOpen, notReadLines } = totals
  return {
    sessionId: session.id,
    ruleVersion: RULE_VERSION,
    profile,
    source: session.source,
    period: { from: session.from, to: session.to, timeZone: session.timeZone },
    settings: session.settings,
    files: session.files.map((f) => ({ id: f.id, name: f.name, sha256: f.sha256, rows: f.rows })),
    statements: session.files.map((f) =>
      statementCheck({ fileId: f.id, file: f.name, rows: f.rows, proof: f.proof, pageStarts: f.pageStarts }, notReadLines?.[f.id] ?? [])
    ),
    counts,
    currencies,
    exceptions,
    notReadOpen: notReadOpen ?? 0,
    closedAt: session.closedAt,
    closedBy: session.closedBy
  }
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
    fact('session', 'exceptions_open', String(summary.exceptions)),
    fact('session', 'lines_not_read_open', String(summary.notReadOpen)),
    // Never "accounted for" while a line is not read, or any currency's difference is not explained by its outcomes.
    fact(
      'session',
      'difference_accounted_for',
      summary.notReadOpen > 0
        ? `no: ${summary.notReadOpen} line(s) not read`
        : summary.currencies.some((c) => c.unexplainedMinor !== 0)
          ? 'no'
          : 'yes'
    )
  ]
  for (const [name, value] of Object.entries(summary.settings)) rows.push(fact('setting', name, String(value)))
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

export async function writeItemsCsv(file: string, input: ReportInput, style: CsvStyle = 'excel'): Promise<number> {
  return writeFileSafely(file, (fd) => {
    let count = 0
    const names = fileNamesOf(input.session)
    const pages = filePagesOf(input.session)
    let chunk = preamble(style) + headerLine(ITEM_COLUMNS, style)
    for (const item of input.items()) {
      chunk += rowLine(itemCells(item, names, pages), ITEM_COLUMNS.length, style)
      if (++count % ITEMS_PER_WRITE === 0) {
        writeSync(fd, chunk)
        chunk = ''
      }
    }
    writeSync(fd, chunk)
    return count
  })
}

export async function writeSummaryCsv(file: string, summary: ReconSummary, input: ReportInput, style: CsvStyle = 'excel'): Promise<void> {
  await writeFileSafely(file, (fd) => {
    writeSync(fd, toExcelCsv(SUMMARY_COLUMNS, summaryRows(summary, input), style))
  })
}

/** One workbook, Summary then Items (then Sign-off for a team session): identifiers as text cells, amounts as numbers with their currency's decimals. */
export async function writeXlsx(file: string, summary: ReconSummary, input: ReportInput): Promise<void> {
  await writeFileSafely(file, (fd) => writeWorkbook(createWriteStream('', { fd, autoClose: false }), summary, input))
}

async function writeWorkbook(stream: Writable, summary: ReconSummary, input: ReportInput): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: true })
  const put = (sheet: ExcelJS.Worksheet, cells: CsvCell[]): void => {
    const row = sheet.addRow(cells.map(xlsxValue))
    cells.forEach((cell, i) => {
      if (cell === null) return
      const target = row.getCell(i + 1)
      if (cell.kind === 'amount') target.numFmt = amountFormat(cell.currency)
      else if (cell.kind === 'date') target.numFmt = 'yyyy-mm-dd'
      else if (cell.kind === 'identifier' || cell.kind === 'text') target.numFmt = '@'
    })
    row.commit()
  }
  const summarySheet = workbook.addWorksheet('Summary')
  summarySheet.addRow([...SUMMARY_COLUMNS]).commit()
  for (const row of summaryRows(summary, input)) put(summarySheet, row)
  summarySheet.commit()
  const itemsSheet = workbook.addWorksheet('Items')
  itemsSheet.addRow([...ITEM_COLUMNS]).commit()
  const names = fileNamesOf(input.session)
  const pages = filePagesOf(input.session)
  for (const item of input.items()) put(itemsSheet, itemCells(item, names, pages))
  itemsSheet.commit()
  if (input.signOff) {
    const signOffSheet = workbook.addWorksheet('Sign-off')
    signOffSheet.addRow([...input.signOff.columns]).commit()
    for (const row of input.signOff.rows) put(signOffSheet, row)
    signOffSheet.commit()
  }
  await workbook.commit()
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

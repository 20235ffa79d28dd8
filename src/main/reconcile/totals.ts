// A session's totals: per currency and outcome, built item by item (and taken apart again, so one decision updates them in place), with what the run counted of the statements' lines; and the summary every report and screen reads, verdict included.
import {
  AGE_BUCKETS,
  AGEING_KINDS,
  ageAtPeriodEnd,
  bookedCharge,
  CHARGE_KINDS,
  type ChargeKind,
  ageBucket,
  expectedAmount,
  itemAgeDay,
  needsReview,
  OUTCOMES,
  RULE_VERSION,
  statementCheck,
  stillOpen,
  type AgeBucket,
  type AgeingKind,
  type CurrencySummary,
  type LineNotRead,
  type Outcome,
  type ReconItem,
  type ReconSettings,
  type ReconSummary,
  type RunFacts,
  type SessionInfo
} from '../../shared/reconcile'
import type { CsvCell } from '../../shared/csv/excel-safe'
import { bankReconciliations } from '../../shared/bank-reconciliation'
import { moneyText } from '../../shared/money'
import { verdictOf } from '../../shared/verdict'
import type { AuditEvent } from './audit'
import type { FoldedDecisions } from './fold'

/** What a summary counts: items per outcome, totals per currency and outcome, and the items still needing the user. */
export interface SummaryTotals {
  counts: Record<Outcome, number>
  currencies: CurrencySummary[]
  exceptions: number
  /** Lines not read that are still open (neither read by hand nor left out): while any is, nothing is accounted for. */
  notReadOpen: number
  /** Those lines by statement (file id). */
  notReadLines: Record<string, LineNotRead[]>
  /** Lines not read, left out with a reason, whose amount was never read, by statement (file id): their statement is not complete. */
  leftOutUnread?: Record<string, LineNotRead[]>
  /** What the run counted of the statements' lines and the basis it read amounts on; null for totals kept before runs kept them. */
  facts?: RunFacts | null
}

/** What the totals are summed under: the session's settings and the last day of its period (items are aged to it). */
export interface TotalsBasis {
  settings: ReconSettings
  periodTo: string
}

const emptyCharges = (): CurrencySummary['charges'] =>
  Object.fromEntries(Object.keys(CHARGE_KINDS).map((k) => [k, { count: 0, minor: 0 }])) as CurrencySummary['charges']

const emptyBuckets = (): AgeBucket[] => AGE_BUCKETS.map(() => ({ count: 0, minor: 0 }))

/** The ageing kind of each outcome whose age is kept. */
const AGED = new Map<Outcome, AgeingKind>(
  Object.entries(AGEING_KINDS).flatMap(([kind, k]) => k.outcomes.map((o): [Outcome, AgeingKind] => [o, kind as AgeingKind]))
)

const emptyAgeing = (): CurrencySummary['ageing'] =>
  Object.fromEntries(Object.keys(AGEING_KINDS).map((k) => [k, emptyBuckets()])) as CurrencySummary['ageing']

function emptyCurrency(currency: string): CurrencySummary {
  return {
    currency,
    providerTotalMinor: 0,
    fileTotalMinor: 0,
    adjustmentsMinor: 0,
    outcomes: Object.fromEntries(
      OUTCOMES.map((o) => [o, { count: 0, providerMinor: 0, fileMinor: 0, differenceMinor: 0, feesMinor: 0 }])
    ) as CurrencySummary['outcomes'],
    unexplainedMinor: 0,
    fileLines: 0,
    providerRecords: 0,
    excluded: { count: 0, fileMinor: 0, providerMinor: 0 },
    ageing: emptyAgeing(),
    carried: { records: 0, providerMinor: 0, lines: 0, fileMinor: 0, items: 0, open: 0 },
    charges: emptyCharges()
  }
}

/** A currency's totals as stored, with what later versions added at zero (totals kept before fees, ageing and line counts were). */
function copyCurrency(c: CurrencySummary): CurrencySummary {
  const empty = emptyCurrency(c.currency)
  return {
    ...empty,
    ...c,
    outcomes: Object.fromEntries(OUTCOMES.map((o) => [o, { ...empty.outcomes[o], ...c.outcomes[o] }])) as CurrencySummary['outcomes'],
    excluded: { ...empty.excluded, ...c.excluded },
    carried: { ...empty.carried, ...c.carried },
    charges: Object.fromEntries(
      (Object.keys(CHARGE_KINDS) as ChargeKind[]).map((k) => [k, { ...empty.charges[k], ...c.charges?.[k] }])
    ) as CurrencySummary['charges'],
    ageing: Object.fromEntries(
      (Object.keys(AGEING_KINDS) as AgeingKind[]).map((k) => [k, (c.ageing?.[k] ?? empty.ageing[k]).map((b) => ({ ...b }))])
    ) as CurrencySummary['ageing']
  }
}

/**
 * Totals per currency and outcome, built up item by item: every item adds its provider side (as
 * expected at the bank) and its file side to its currencies. Items can be taken out again (sign −1),
 * so one decision updates a stored summary without reading every item.
 */
export class Totals {
  private readonly counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>
  private readonly byCurrency = new Map<string, CurrencySummary>()
  private exceptions = 0
  private notReadOpen = 0
  private notReadLines: Record<string, LineNotRead[]> = {}
  private leftOutUnread: Record<string, LineNotRead[]> = {}
  private facts: RunFacts | null = null

  constructor(
    private readonly basis: TotalsBasis,
    from?: SummaryTotals
  ) {
    if (!from) return
    Object.assign(this.counts, from.counts)
    this.exceptions = from.exceptions
    this.notReadOpen = from.notReadOpen ?? 0
    this.notReadLines = Object.fromEntries(Object.entries(from.notReadLines ?? {}).map(([k, v]) => [k, [...v]]))
    this.leftOutUnread = Object.fromEntries(Object.entries(from.leftOutUnread ?? {}).map(([k, v]) => [k, [...v]]))
    this.facts = from.facts ?? null
    for (const c of from.currencies) this.byCurrency.set(c.currency, copyCurrency(c))
  }

  private of(currency: string): CurrencySummary {
    let c = this.byCurrency.get(currency)
    if (!c) this.byCurrency.set(currency, (c = emptyCurrency(currency)))
    return c
  }

  /**
   * A matched pair (or one whose amount differs) of records with fees counts towards the basis as the
   * statement shows it, net or gross, as the run counted it (feeBasis in runs.ts); a decision in place
   * keeps the count. A basis the statement decides follows the most pairs.
   */
  private countBasisPair(item: ReconItem, sign: 1 | -1): void {
    const basis = this.facts?.basis
    if (!this.facts || !basis || (item.outcome !== 'matched' && item.outcome !== 'amount_differs')) return
    if (item.provider.length === 0 || item.file.length === 0 || !item.provider.some((p) => p.feesMinor !== 0)) return
    const next = { ...basis }
    if (item.netOfFees ?? this.basis.settings.netOfFees) next.netPairs += sign
    else next.grossPairs += sign
    if (next.from === 'statement') next.net = next.netPairs > next.grossPairs
    this.facts = { ...this.facts, basis: next }
  }

  /** Keeps what the run counted of the statements' lines, and its basis. */
  setFacts(facts: RunFacts): void {
    this.facts = facts
  }

  /** Whether the amounts are read net of fees (the run's basis), or null before runs kept it. */
  basisNet(): boolean | null {
    return this.facts?.basis.net ?? null
  }

  add(item: ReconItem, sign: 1 | -1 = 1): void {
    const { settings, periodTo } = this.basis
    this.countBasisPair(item, sign)
    this.counts[item.outcome] += sign
    if (needsReview(item, periodTo, settings)) this.exceptions += sign
    if (item.outcome === 'not_read' && !item.resolved) this.notReadOpen += sign
    const leftOut = item.outcome === 'not_read' && item.resolved && item.reasonCode === 'excluded'
    if (item.outcome === 'not_read' && (!item.resolved || leftOut))
      for (const f of item.file) {
        if (!f.notRead || f.notRead.fixed || (leftOut && f.notRead.amountRead)) continue
        const lists = leftOut ? this.leftOutUnread : this.notReadLines
        const list = (lists[f.fileId] ??= [])
        if (sign === 1) list.push({ line: f.line, text: f.notRead.text, reason: f.notRead.reason })
        else lists[f.fileId] = list.filter((l) => l.line !== f.line)
      }
    const touched = new Set<string>()
    const net = item.netOfFees ?? settings.netOfFees
    const carried = new Set<string>()
    for (const p of item.provider) {
      const c = this.of(p.currency)
      const value = sign * expectedAmount(p, net)
      c.providerTotalMinor += value
      c.outcomes[item.outcome].providerMinor += value
      c.outcomes[item.outcome].feesMinor += sign * Math.abs(p.feesMinor)
      c.providerRecords += sign
      touched.add(p.currency)
      if (p.carried) {
        c.carried.records += sign
        c.carried.providerMinor += value
        carried.add(p.currency)
      }
    }
    for (const f of item.file) {
      const c = this.of(f.currency)
      c.fileTotalMinor += sign * f.amountMinor
      c.outcomes[item.outcome].fileMinor += sign * f.amountMinor
      touched.add(f.currency)
      // A line of an earlier statement is in an item here, but no line of this session's statements.
      if (f.carried) {
        c.carried.lines += sign
        c.carried.fileMinor += sign * f.amountMinor
        carried.add(f.currency)
      } else c.fileLines += sign
      const charge = bookedCharge(item.outcome, f)
      if (charge !== null) {
        c.charges[charge].count += sign
        c.charges[charge].minor -= sign * f.amountMinor
      }
    }
    for (const currency of touched) this.of(currency).outcomes[item.outcome].count += sign
    for (const currency of carried) {
      const c = this.of(currency).carried
      c.items += sign
      if (stillOpen(item)) c.open += sign
    }
    if (leftOut) {
      // Counted as items are, once in each currency the item is in: a line left out that names a record in another currency is a class of that currency too.
      for (const currency of touched) this.of(currency).excluded.count += sign
      for (const f of item.file) this.of(f.currency).excluded.fileMinor += sign * f.amountMinor
      for (const p of item.provider) this.of(p.currency).excluded.providerMinor += sign * expectedAmount(p, net)
    }
    // An open item's age: a one-sided one by its own amount, one with both sides by what the file shows beyond the provider.
    const aged = item.resolved ? undefined : AGED.get(item.outcome)
    if (aged !== undefined) {
      const day = itemAgeDay(item)
      if (day !== null) {
        const bucket = ageBucket(ageAtPeriodEnd(day, periodTo))
        const amounts = new Map<string, number>()
        const providerSign = item.file.length > 0 ? -1 : 1
        for (const p of item.provider) amounts.set(p.currency, (amounts.get(p.currency) ?? 0) + providerSign * expectedAmount(p, net))
        for (const f of item.file) amounts.set(f.currency, (amounts.get(f.currency) ?? 0) + f.amountMinor)
        for (const [currency, minor] of amounts) {
          const b = this.of(currency).ageing[aged][bucket] as AgeBucket
          b.count += sign
          b.minor += sign * minor
        }
      }
    }
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
    for (const list of [...Object.values(this.notReadLines), ...Object.values(this.leftOutUnread)]) list.sort((a, b) => a.line - b.line)
    return {
      counts: { ...this.counts },
      currencies,
      exceptions: this.exceptions,
      notReadOpen: this.notReadOpen,
      notReadLines: this.notReadLines,
      leftOutUnread: this.leftOutUnread,
      facts: this.facts
    }
  }
}

export function summarise(
  items: Iterable<ReconItem>,
  basis: TotalsBasis,
  adjustments: FoldedDecisions['adjustments'],
  facts: RunFacts | null = null
): SummaryTotals {
  const sum = summing(basis)
  for (const _ of sum.counting(items));
  return sum.result(adjustments, facts)
}

/**
 * The totals of items summed as they pass by (a run storing them, a report writing them), so a
 * million items are summed without being held at once: `counting` hands each item on after adding
 * it; `result` adds the adjustments and the run's facts, as summarise does.
 */
export function summing(basis: TotalsBasis): {
  counting: (items: Iterable<ReconItem>) => Generator<ReconItem>
  result: (adjustments: FoldedDecisions['adjustments'], facts?: RunFacts | null) => SummaryTotals
} {
  const totals = new Totals(basis)
  return {
    *counting(items) {
      for (const item of items) {
        totals.add(item)
        yield item
      }
    },
    result(adjustments, facts = null) {
      for (const a of adjustments) totals.adjust(a.currency, a.amountMinor)
      if (facts) totals.setFacts(facts)
      return totals.result()
    }
  }
}

/** What the totals of a session are summed under. */
export function totalsBasis(session: Pick<SessionInfo, 'settings' | 'to'>): TotalsBasis {
  return { settings: session.settings, periodTo: session.to }
}

export interface ReportInput {
  session: SessionInfo
  profile: { name: string; mode: string }
  items: () => Iterable<ReconItem>
  folded: FoldedDecisions
  events: AuditEvent[]
  /** What the last run counted of the statements' lines, and its basis (null before a run kept them). */
  facts: RunFacts | null
  /** Who prepared, reviewed and approved it (a session shared in a team workspace): a sheet of its own in the workbook. */
  signOff?: SignOffSheet
  /** How the reports people read (the PDF, the workbook's Reconciliation sheet) write days and times (shared/locale.ts); ISO when absent. Files meant for software keep ISO days. */
  locale?: string
}

/** A shared session's sign-off as its reports carry it: every step as rows, and the submission and approval in force. */
export interface SignOffSheet {
  columns: readonly string[]
  rows: CsvCell[][]
  submitted: { by: string; at: string } | null
  approved: { by: string; at: string } | null
}

/** The summary a report carries: its totals summed from every item as the report writes them. */
export function buildSummary(input: ReportInput): ReconSummary {
  return summaryOf(
    input.session,
    input.profile,
    summarise(input.items(), totalsBasis(input.session), input.folded.adjustments, input.facts)
  )
}

/** A session's summary from totals already at hand (the stored ones the screen shows): no item, decision or event is read. */
export function summaryOf(session: SessionInfo, profile: ReportInput['profile'], totals: SummaryTotals): ReconSummary {
  const { counts, currencies, exceptions, notReadOpen, notReadLines, leftOutUnread } = totals
  const facts = totals.facts ?? null
  const summary: Omit<ReconSummary, 'verdict'> = {
    sessionId: session.id,
    ruleVersion: RULE_VERSION,
    profile,
    account: session.account,
    chain: session.chain,
    source: session.source,
    period: { from: session.from, to: session.to, timeZone: session.timeZone },
    settings: session.settings,
    files: session.files.map((f) => ({ id: f.id, name: f.name, sha256: f.sha256, rows: f.rows })),
    statements: session.files.map((f) =>
      statementCheck(
        { fileId: f.id, file: f.name, rows: f.rows, proof: f.proof, pageStarts: f.pageStarts },
        notReadLines?.[f.id] ?? [],
        leftOutUnread?.[f.id] ?? []
      )
    ),
    counts,
    currencies: currencies.map(copyCurrency),
    exceptions,
    notReadOpen: notReadOpen ?? 0,
    lines: facts?.lines ?? null,
    basis: facts?.basis ?? null,
    closedAt: session.closedAt,
    closedBy: session.closedBy
  }
  // A statement ties with its lines as the session has them (read by hand too), not only as imported: else it is not complete.
  for (const rec of bankReconciliations(summary)) {
    if (rec.differenceMinor === null || rec.differenceMinor === 0) continue
    const left = moneyText(rec.differenceMinor, rec.currency)
    summary.statements = summary.statements.map((st) =>
      st.currency === rec.currency && st.complete
        ? { ...st, complete: false, verdict: `${st.verdict}; but with its lines as this session has them, ${left} is left` }
        : st
    )
  }
  return { ...summary, verdict: verdictOf(summary) }
}

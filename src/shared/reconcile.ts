// The reconciliation vocabulary shared by host, CLI and renderer: outcomes, sources, settings, file columns, decisions and the result shapes.
import { z } from 'zod'
import { moneyText, toMajorString } from './money'

/** Outcomes as they are named in reports and JSON; one per item or group. */
export const OUTCOMES = [
  'matched',
  'amount_differs',
  'currency_differs',
  'status_differs',
  'only_in_provider',
  'pending_at_provider',
  'only_in_file',
  'not_read',
  'duplicate_in_file',
  'duplicate_in_provider',
  'suggested',
  'ambiguous'
] as const
export type Outcome = (typeof OUTCOMES)[number]

/** Each outcome in words, as the review, the reports people read and the bank reconciliation name it. */
export const OUTCOME_LABELS: Record<Outcome, string> = {
  matched: 'Matched',
  amount_differs: 'Amount differs',
  currency_differs: 'Currency differs',
  status_differs: 'Status differs',
  only_in_provider: 'Only at the provider',
  pending_at_provider: 'Pending at the provider',
  not_read: 'Line not read',
  only_in_file: 'Only in the file',
  duplicate_in_file: 'Duplicate in the file',
  duplicate_in_provider: 'Duplicate at the provider',
  suggested: 'Suggested',
  ambiguous: 'Ambiguous'
}

/**
 * Outcomes that need nobody: the money agrees, or it is not due yet (a payment still pending at the
 * provider with no line is an outstanding item of the reconciliation, counted and totalled apart).
 */
const SETTLED_OUTCOMES: ReadonlySet<Outcome> = new Set<Outcome>(['matched', 'pending_at_provider'])

/** Whether an item is an exception the user must review (until it is resolved). */
export function isException(outcome: Outcome): boolean {
  return !SETTLED_OUTCOMES.has(outcome)
}

/** What the provider side of a session is made of. */
export const RECON_SOURCES = ['payments', 'payouts', 'subscriptions', 'virtual-accounts'] as const
export type ReconSource = (typeof RECON_SOURCES)[number]

/** Bumped whenever a rule changes what the engine decides; written into every report. */
export const RULE_VERSION = 'ledgerline-match/2'

export interface ReconSettings {
  /** Largest amount difference, in major units as text (e.g. "0.00", "1.50"), that still counts as the same amount. */
  amountTolerance: string
  /** The file's date may be this many days before the provider's. */
  daysBefore: number
  /** …and this many days after it (money reaches the bank later). */
  daysAfter: number
  /** Compare the file with the provider's amount less its fees (settlements arrive net). */
  netOfFees: boolean
  /** Two candidates whose scores differ by less than this are a tie: the item is ambiguous. */
  ambiguityMargin: number
  /** Most provider records the subset search for one settlement line looks at. */
  groupSearchLimit: number
  /** A payment still pending at the provider this many days before the period's end is an item to review, not just outstanding. */
  pendingAgeDays: number
}

/** The one check of a session's settings (the IPC contract, the CLI and the host all use it). */
export const reconSettingsSchema = z.strictObject({
  amountTolerance: z
    .string()
    .max(20)
    .regex(/^\d{1,12}(\.\d{1,4})?$/),
  daysBefore: z.number().int().min(0).max(366),
  daysAfter: z.number().int().min(0).max(366),
  netOfFees: z.boolean(),
  ambiguityMargin: z.number().min(0).max(10),
  groupSearchLimit: z.number().int().min(2).max(40),
  pendingAgeDays: z.number().int().min(0).max(3650)
}) satisfies z.ZodType<ReconSettings>

/** Each setting's rule, as the user is told it when a value breaks it. */
const SETTING_RULES: Record<keyof ReconSettings, string> = {
  amountTolerance: 'The amount tolerance must be a plain non-negative amount with at most 4 decimals, such as 0 or 1.50',
  daysBefore: 'daysBefore must be a whole number of days from 0 to 366',
  daysAfter: 'daysAfter must be a whole number of days from 0 to 366',
  netOfFees: 'netOfFees must be true or false',
  ambiguityMargin: 'ambiguityMargin must be a number from 0 to 10',
  groupSearchLimit: 'groupSearchLimit must be a whole number from 2 to 40',
  pendingAgeDays: 'pendingAgeDays must be a whole number of days from 0 to 3650'
}

/** Settings that pass the check, or what is wrong with the first that does not (in words, with the value given). */
export function checkReconSettings(
  settings: Record<string, unknown>
): { ok: true; settings: ReconSettings } | { ok: false; message: string } {
  const checked = reconSettingsSchema.safeParse(settings)
  if (checked.success) return { ok: true, settings: checked.data }
  const issue = checked.error.issues[0] as z.core.$ZodIssue
  const name = issue.path[0]
  if (typeof name === 'string' && name in SETTING_RULES) {
    return { ok: false, message: `${SETTING_RULES[name as keyof ReconSettings]} (got ${JSON.stringify(settings[name]) ?? 'nothing'}).` }
  }
  return { ok: false, message: `The settings are not what a session takes: ${issue.message}.` }
}

/** The settings as an accountant reads them, in one sentence. */
export function settingsInWords(settings: ReconSettings): string {
  const days = (n: number): string => `${n} ${n === 1 ? 'day' : 'days'}`
  return [
    Number(settings.amountTolerance) === 0 ? 'amounts equal to the cent' : `amounts within ${settings.amountTolerance} of each other`,
    `a line from ${days(settings.daysBefore)} before to ${days(settings.daysAfter)} after its record`,
    settings.netOfFees
      ? "expected amounts net of the provider's fees"
      : "expected amounts as the statement shows them (net or gross of the provider's fees)",
    `candidates within ${settings.ambiguityMargin} point(s) of each other ambiguous`,
    `up to ${settings.groupSearchLimit} records tried for one settlement line`,
    `a payment pending over ${days(settings.pendingAgeDays)} before the period's end to review`
  ].join('; ')
}

/** A setting's name as the summary CSV writes it (snake_case, as its other names are). */
export const settingName = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

export const DEFAULT_SETTINGS: ReconSettings = {
  amountTolerance: '0',
  daysBefore: 2,
  daysAfter: 5,
  netOfFees: false,
  ambiguityMargin: 1,
  groupSearchLimit: 24,
  pendingAgeDays: 7
}

/** Settings as a session stored them, with what a later version added at its default (a session from before pendingAgeDays gets 7). */
export function storedSettings(json: string): ReconSettings {
  return { ...DEFAULT_SETTINGS, ...(JSON.parse(json) as Partial<ReconSettings>) }
}

/** The columns a statement can be mapped to; each holds the header text of the file's column, or null. */
export const MAPPED_FIELDS = [
  'date',
  'reference',
  'amount',
  'debit',
  'credit',
  'indicator',
  'currency',
  'description',
  'counterparty',
  'balance'
] as const
export type MappedField = (typeof MAPPED_FIELDS)[number]

export type DateOrder = 'ymd' | 'dmy' | 'mdy'
export type DecimalMark = '.' | ','

/** How a statement is read: which column is which and how its numbers and dates are written. */
export interface StatementMapping {
  columns: Partial<Record<MappedField, string>>
  /** null: decide from the values (and ask when they do not settle it). */
  dateOrder: DateOrder | null
  decimalMark: DecimalMark | null
  /** Used for rows without a currency (column or code in the amount). */
  defaultCurrency: string | null
  /** 'utf-8', 'utf-16le', 'utf-16be', 'windows-1252', …; null: detect. */
  encoding: string | null
  /** ',', ';', '\t' or '|'; null: detect. */
  separator: string | null
}

/** Why a statement line was not read, as its problem's code says: the cells could not be split, or a cell could not be read (money's own codes included). */
export const LINE_PROBLEM_CODES = [
  'malformed_line',
  'invalid_date',
  'date_order_conflict',
  'no_amount',
  'invalid_amount',
  'too_many_decimals',
  'amount_too_large',
  'unknown_currency',
  'currency_conflict',
  'currency_mismatch',
  'invalid_indicator'
] as const
export type LineProblemCode = (typeof LINE_PROBLEM_CODES)[number]

export interface ParseProblem {
  /** 1-based line (CSV) or row (XLSX) in the file as the user sees it. */
  line: number
  /** The file's column header, or null for a problem with the whole line. */
  column: string | null
  code: LineProblemCode
  message: string
  /** The line as the file has it (its cells joined by the separator); absent in files imported before it was kept. */
  text?: string
  /** What could be read of the line all the same: a line not read is still part of the session. */
  read?: PartlyRead
}

/** What could be read of a line that could not be read in full; null where that part could not be read. */
export interface PartlyRead {
  date: string | null
  amountMinor: number | null
  currency: string | null
  reference: string | null
  description: string | null
}

/** A question the import cannot settle from the values; answered in the mapping (dateOrder, decimalMark, defaultCurrency). */
export interface ImportQuestion {
  field: 'dateOrder' | 'decimalMark' | 'defaultCurrency' | 'columns'
  message: string
  choices: string[]
}

/** Where a statement's running balance does not follow from the line before: the balance expected, the one found, and the gap (a line missing or doubled). */
/** Where a line of a statement file is, as the user finds it: "line 12", or in a PDF (its pages' first lines given) "page 3, line 12". */
export function lineWhere(line: number, pageStarts?: readonly number[] | null): string {
  if (!pageStarts || pageStarts.length === 0) return `line ${line}`
  let page = 1
  while (page < pageStarts.length && (pageStarts[page] as number) <= line) page++
  return `page ${page}, line ${line - (pageStarts[page - 1] as number) + 1}`
}

export interface BalanceBreak {
  line: number
  expectedMinor: number
  foundMinor: number
  gapMinor: number
}

/** What a statement says of itself, checked: its account and currency, opening and closing balances, running balance breaks and lines not read. */
export interface StatementProof {
  account: string | null
  /** The statement's one currency; null when its lines are in several (its balances are then not checked). */
  currency: string | null
  openingMinor: number | null
  /** Where the opening balance comes from: a line of the statement that says it, or the first running balance less its line. */
  openingFrom: 'statement' | 'running balance' | null
  closingMinor: number | null
  closingFrom: 'statement' | 'running balance' | null
  /** Lines read, and lines with a running balance. */
  linesRead: number
  runningBalances: number
  /** Listed newest first (read oldest first for the checks). */
  newestFirst: boolean
  breaks: BalanceBreak[]
  /** closing − (opening + every line): 0 when the statement ties; null without both balances. */
  tieGapMinor: number | null
  /** Balances the statement states that cannot prove it (in another currency than its lines, no credit/debit mark), each on its line. */
  balanceProblems?: { line: number; message: string }[]
  /** Balances exist and tie, no break, no balance problem, and every line was read (as imported: a session also counts lines read by hand or left out). */
  complete: boolean
  /** The check in a sentence: "ties: opening NGN 1,000.00 + lines = closing NGN 2,000.00", "no balances to check", … */
  verdict: string
}

/** One side's key fields in a result item. */
export interface ProviderSide {
  id: string
  reference: string | null
  serviceReference: string | null
  date: string
  amountMinor: number
  feesMinor: number
  currency: string
  status: string
  channel: string | null
  name: string | null
  /** A record still open when an earlier period of the account closed, brought forward into this one. */
  carried?: CarriedFrom
}

/** Where a carried-forward record or line was open: the account's period it comes from (the first it was open in), and a line's statement. */
export interface CarriedFrom {
  sessionId: string
  /** The session's name, as the user gave it. */
  name: string
  from: string
  to: string
  /** A line's statement file, by its name. */
  file?: string
}

export interface FileSide {
  id: string
  fileId: string
  line: number
  date: string
  reference: string | null
  description: string | null
  counterparty: string | null
  amountMinor: number
  currency: string
  /** A line that could not be read in full: its text as the file has it, why, and whether the user has since read it by hand. */
  notRead?: NotReadLine
  /** A line of an earlier period's statement, still open when that period closed, brought forward into this one. */
  carried?: CarriedFrom
}

export interface NotReadLine {
  text: string
  reason: string
  /** Corrected by hand (an audit event): the line's date, amount and currency are the user's. */
  fixed: boolean
  /** Whether the line's day and amount were read from the file (else they stand in: the period's first day, zero). */
  dateRead: boolean
  amountRead: boolean
}

/** A line that could not be read and has not been read by hand since. */
export function stillNotRead(line: { notRead?: NotReadLine | undefined }): boolean {
  return line.notRead !== undefined && !line.notRead.fixed
}

/** The day a line shows: null for a line still not read whose day could not be read (its stored day only stands in). */
export function shownDay(line: FileSide): string | null {
  return stillNotRead(line) && !line.notRead?.dateRead ? null : line.date
}

/** The amount a line shows: null for a line still not read whose amount could not be read (its stored zero only stands in). */
export function shownAmount(line: FileSide): number | null {
  return stillNotRead(line) && !line.notRead?.amountRead ? null : line.amountMinor
}

/** An item whose line is still to be read by hand or left out with a reason. */
export function awaitsReading(item: ReconItem): boolean {
  return item.outcome === 'not_read' && !item.resolved && item.file.some(stillNotRead)
}

export type DecisionState = 'accepted' | 'manual' | null

/** The reason an item decided by a rule gives (`rule`: ruleMark's words for it). */
export const ruleReason = (rule: string): string => `decided by ${rule}, an enabled rule`

/**
 * How an item's pairing was decided, in words: accepted (a suggestion), by hand, or by the enabled rule
 * that paired it (its pin is kept as one by hand; its reasons name the rule, as `decidedBy` does).
 */
export function decisionInWords(item: Pick<ReconItem, 'decision' | 'decidedBy' | 'reasons'>): string | null {
  if (item.decision === 'accepted') return 'accepted'
  if (item.decision !== 'manual') return null
  const by = item.decidedBy
  return by !== null && item.reasons.includes(ruleReason(by)) ? `by ${by}` : 'by hand'
}

/** One item or group of the result, in its stable order. */
export interface ReconItem {
  key: string
  outcome: Outcome
  provider: ProviderSide[]
  file: FileSide[]
  /** File side less the provider side (net of fees when the item was read so), per currency when both sides share it; null otherwise. */
  differenceMinor: number | null
  /** The provider side was read net of its fees (the file shows what reached the bank); absent in items stored before, which follow the session's setting. */
  netOfFees?: boolean
  score: number | null
  reasons: string[]
  decision: DecisionState
  note: string | null
  reasonCode: string | null
  resolved: boolean
  /** Who made the last decision or note about this item, and when. */
  decidedBy: string | null
  decidedAt: string | null
}

/** The ages an auditor reads outstanding money in: days from an item's day to the period's last day. */
export const AGE_BUCKETS = [
  { label: '0–7 days', upTo: 7 },
  { label: '8–30 days', upTo: 30 },
  { label: '31–60 days', upTo: 60 },
  { label: '61–90 days', upTo: 90 },
  { label: 'over 90 days', upTo: Infinity }
] as const

/**
 * The classes of open item whose age is kept (as the bank reconciliation groups them), by their
 * outcomes, how each is said, and its name in the summary CSV (ageing_<name>). An item is aged while it
 * is open (not resolved): a one-sided one by its own amount, one with both sides by its difference.
 */
export const AGEING_KINDS = {
  pending: { outcomes: ['pending_at_provider'], label: 'pending at the provider', name: 'pending_at_provider' },
  providerOnly: { outcomes: ['only_in_provider'], label: 'only at the provider', name: 'only_in_provider' },
  differences: { outcomes: ['amount_differs'], label: 'amount differences', name: 'amount_differs', byDifference: true },
  toReview: {
    outcomes: ['suggested', 'ambiguous', 'status_differs', 'currency_differs'],
    label: 'still to review',
    name: 'to_review',
    byDifference: true
  },
  duplicates: { outcomes: ['duplicate_in_provider', 'duplicate_in_file'], label: 'duplicates', name: 'duplicates' },
  fileOnly: { outcomes: ['only_in_file'], label: 'only in the file', name: 'only_in_file' },
  notRead: { outcomes: ['not_read'], label: 'lines not read', name: 'not_read' }
} as const satisfies Record<string, { outcomes: readonly Outcome[]; label: string; name: string; byDifference?: boolean }>
export type AgeingKind = keyof typeof AGEING_KINDS

/**
 * One age bucket's amount in words: a class of items with both sides is aged by what the file shows
 * beyond the provider, so its amount is said as a difference ("difference NGN 0.00" for suggestions of
 * the very amount, not "NGN 0.00" as if nothing were open).
 */
export function agedAmountInWords(kind: AgeingKind, amount: string): string {
  return 'byDifference' in AGEING_KINDS[kind] ? `difference ${amount}` : amount
}

/** Items of one age bucket: how many, and their amount (a pending record's as expected at the bank, a line's as read). */
export interface AgeBucket {
  count: number
  minor: number
}

/** One outcome's items in one currency: how many, both sides' amounts, their difference, and the provider's fees on its records. */
export interface OutcomeTotals {
  count: number
  providerMinor: number
  fileMinor: number
  differenceMinor: number
  /** The provider's fees on these records (a positive amount: what the ledger books as fee expense). */
  feesMinor: number
}

export interface CurrencySummary {
  currency: string
  providerTotalMinor: number
  fileTotalMinor: number
  adjustmentsMinor: number
  /** Per outcome: how many items, the provider and file amounts in this currency, their difference and the provider's fees. */
  outcomes: Record<Outcome, OutcomeTotals>
  /** file − provider − Σ outcome differences: zero when the report foots. */
  unexplainedMinor: number
  /** Statement lines in this currency that are in an item (each counted once), and the provider's records that are. */
  fileLines: number
  providerRecords: number
  /** Lines not read that the user left out with a reason (counted as items, a line each): a class of their own in the bank reconciliation, as far as their amounts were read, with any record they name. */
  excluded: { count: number; fileMinor: number; providerMinor: number }
  /** Money outstanding at the period's end by age (AGE_BUCKETS): pending at the provider, and on one side only (each side apart: their amounts have opposite senses). */
  ageing: Record<AgeingKind, AgeBucket[]>
  /** What came forward from the account's earlier periods, still open there (see CarriedTotals). */
  carried: CarriedTotals
  /** Debits only in the file that read as the bank's charges (this period's own lines), by kind: what the journal books (a positive amount). */
  charges: Record<ChargeKind, { count: number; minor: number }>
}

/** The bank's charges a statement line can read as, in the order they are told apart, and how each is said. */
export const CHARGE_KINDS = {
  vat: 'VAT on bank charges',
  stamp_duty: 'Stamp duty',
  levies: 'Levies',
  bank_charges: 'Bank charges'
} as const
export type ChargeKind = keyof typeof CHARGE_KINDS

/** What a debit only in the file reads as by its words ("SMS ALERT CHARGES", "VAT ON COMMISSION", "STAMP DUTY", "EMTL"), or null: never guessed from an amount. */
export function chargeKind(text: string | null): ChargeKind | null {
  if (!text) return null
  if (/\bVAT\b/i.test(text)) return 'vat'
  if (/stamp\s*duty/i.test(text)) return 'stamp_duty'
  if (/\blev(?:y|ies)\b|\bEMTL\b/i.test(text)) return 'levies'
  if (/charges?\b|\bfees?\b|commission|\bcomm\b|\bsms\b|maintenance|\bCOT\b/i.test(text)) return 'bank_charges'
  return null
}

/** Whether a line is money out that only this period's own statement shows (a carried line was the earlier period's). */
export const ownDebitOnlyInFile = (outcome: Outcome, f: Pick<FileSide, 'amountMinor' | 'carried'>): boolean =>
  outcome === 'only_in_file' && f.amountMinor < 0 && !f.carried

/** A line's charge kind when it is one the journal books: a debit only in the file, of this period's own statement. */
export function bookedCharge(
  outcome: Outcome,
  f: Pick<FileSide, 'amountMinor' | 'description' | 'reference' | 'carried'>
): ChargeKind | null {
  if (!ownDebitOnlyInFile(outcome, f)) return null
  return chargeKind([f.description, f.reference].filter(Boolean).join(' '))
}

/**
 * Records and lines carried forward from the account's earlier periods: the records are expected at
 * the bank in this period; the lines are on an earlier statement, in items here but no line of this
 * session's statements. Items: how many hold anything carried, and how many of those are still open.
 */
export interface CarriedTotals {
  records: number
  providerMinor: number
  lines: number
  fileMinor: number
  items: number
  open: number
}

/** The earlier periods an item's records and lines were carried forward from (each once, earliest first); empty for an item of this period alone. */
export function carriedFromOf(item: Pick<ReconItem, 'provider' | 'file'>): CarriedFrom[] {
  const found = new Map<string, CarriedFrom>()
  for (const side of [...item.provider, ...item.file])
    if (side.carried && !found.has(side.carried.sessionId)) found.set(side.carried.sessionId, side.carried)
  return [...found.values()].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
}

/** What a currency's totals hold of earlier periods, in words; null when nothing was carried forward into them. */
export function carriedInWords(c: Pick<CurrencySummary, 'currency' | 'carried'>): string | null {
  const k = c.carried
  if (!k || k.items === 0) return null
  const parts = [
    k.records > 0 ? `${k.records.toLocaleString('en-US')} provider record(s) (${moneyText(k.providerMinor, c.currency)})` : null,
    k.lines > 0 ? `${k.lines.toLocaleString('en-US')} line(s) of earlier statements (${moneyText(k.fileMinor, c.currency)})` : null
  ].filter((p) => p !== null)
  return `carried forward from earlier periods, in the totals above: ${parts.join(' and ')}; ${(k.items - k.open).toLocaleString('en-US')} item(s) cleared here, ${k.open.toLocaleString('en-US')} still open`
}

/** Whether an item is still open at its period's close, to be carried into the account's next one: anything neither matched nor resolved (a payment pending at the provider too). */
export const stillOpen = (item: Pick<ReconItem, 'outcome' | 'resolved'>): boolean => !item.resolved && item.outcome !== 'matched'

/** Statement lines of one currency that are in no item, counted apart: their number and their total as read (a line whose amount was not read is counted, not added). */
export interface LinesApart {
  currency: string
  count: number
  minor: number
  amountNotRead: number
}

/**
 * What a run counted of the session's statement lines, from what the import stored and apart from
 * the matching: every line must be in an item, or outside the period, or the same line as one of
 * another statement of the session (counted once).
 */
export interface StatementLineCount {
  /** Lines the session's statements hold: rows read, and lines not read (each once). */
  inStatements: number
  /** Lines dated outside the period, per currency. */
  outsidePeriod: LinesApart[]
  /** Lines another statement of the session holds too, per currency: counted once, in the first. */
  sameLineTwice: LinesApart[]
  /** Lines in a currency none of the provider's records the session reads is in. */
  inOtherCurrencies: number
  /** The currencies the provider's records the session reads are in. */
  providerCurrencies: string[]
}

/** What the expected amounts are read as: net of the provider's fees (what reached the bank) or gross, and why. */
export interface FeeBasis {
  net: boolean
  /** 'setting': the session says so; 'statement': the pairs the engine matched say what the statement shows. */
  from: 'setting' | 'statement'
  /** Matched pairs with fees that the statement shows net, and gross. */
  netPairs: number
  grossPairs: number
}

/** The basis in words, as the reports and the screens say it. */
export function feeBasisInWords(basis: FeeBasis | null): string {
  if (basis === null) return 'each record as it matched (this session was run before the basis was kept: run it again)'
  const why =
    basis.from === 'setting'
      ? 'as the session is set'
      : `as the statement shows them (${(basis.netPairs + basis.grossPairs).toLocaleString('en-US')} pair(s) of a record with fees and a line, matched or differing in amount: ${basis.netPairs.toLocaleString('en-US')} net of the fees, ${basis.grossPairs.toLocaleString('en-US')} gross)`
  return `${basis.net ? "net of the provider's fees" : "gross, before the provider's fees"}, ${why}`
}

/** What a run knows of the session beyond its items: its statement lines counted, and the basis of its expected amounts. */
export interface RunFacts {
  lines: StatementLineCount
  basis: FeeBasis
}

/** What Ledgerline may say of one currency of a session (see shared/verdict.ts, the one place it is decided). */
export interface CurrencyVerdict {
  currency: string
  /** The statement's stated closing balance less the closing its lines make; null when its statements do not state both balances. */
  differenceLeftMinor: number | null
  /** Every statement in this currency ties, its running balance does not break, and no line of it is still not read. */
  statementComplete: boolean
  /** Every line is in an item or counted apart, every line not read is read or left out as a reconciling item, and nothing is left over. */
  accountedFor: boolean
  /** Accounted for, and no item is left to review. */
  nothingLeft: boolean
  /** Why not, each in words; empty when all three hold. */
  why: string[]
}

/** What Ledgerline may say of a session: the one verdict every output (summary, bank reconciliation, review, reports, --json, exit code) reads. */
export interface Verdict {
  accountedFor: boolean
  complete: boolean
  nothingLeft: boolean
  /** 0 only when all three hold in every currency and no warning stands; else 1. */
  exitCode: 0 | 1
  /** The verdict in one sentence. */
  headline: string
  /** What is wrong beyond the items (a statement in another currency than the provider's records). */
  warnings: string[]
  currencies: CurrencyVerdict[]
}

export interface ReconSummary {
  sessionId: string
  ruleVersion: string
  profile: { name: string; mode: string }
  /** The account the session is of, and its place among the account's periods (absent from summaries written before accounts chained). */
  account?: SessionAccount
  chain?: PeriodChain | null
  source: ReconSource
  period: { from: string; to: string; timeZone: string }
  settings: ReconSettings
  files: { id: string; name: string; sha256: string; rows: number }[]
  /** Each statement's own proof: its balances, breaks and lines not read. */
  statements: StatementCheck[]
  counts: Record<Outcome, number>
  currencies: CurrencySummary[]
  /** Items that still need the user: everything but matched and pending at the provider (and resolved ones), and payments pending too long. */
  exceptions: number
  /** Lines not read and still open: while any is, the difference is not accounted for. */
  notReadOpen: number
  /** What the last run counted of the statements' lines, and the basis of the expected amounts; null before a run that kept them. */
  lines: StatementLineCount | null
  basis: FeeBasis | null
  /** What may be said of the session: computed by verdictOf (shared/verdict.ts) and nowhere else. */
  verdict: Verdict
  closedAt: string | null
  closedBy: string | null
}

/** Whole days from `day` to `periodTo` (both YYYY-MM-DD): how long an item had been outstanding at the period's end. */
export function ageAtPeriodEnd(day: string, periodTo: string): number {
  const ms = (d: string): number => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)))
  return Math.round((ms(periodTo) - ms(day)) / 86_400_000)
}

/** The AGE_BUCKETS index of an age in days (an item dated after the period's end is in the first). */
export function ageBucket(days: number): number {
  return AGE_BUCKETS.findIndex((b) => days <= b.upTo)
}

/** The day an item is aged from: its earliest record's for what waits at the provider, else its earliest line's. */
export function itemAgeDay(item: Pick<ReconItem, 'provider' | 'file'>): string | null {
  const days = (item.provider.length > 0 ? item.provider.map((p) => p.date) : item.file.map((f) => f.date)).sort()
  return days[0] ?? null
}

/** A payment still pending at the provider longer than the session allows before the period's end: no longer just outstanding, an item to review. */
export function pendingTooLong(
  item: Pick<ReconItem, 'outcome' | 'provider' | 'file'>,
  periodTo: string,
  settings: ReconSettings
): number | null {
  if (item.outcome !== 'pending_at_provider') return null
  const day = itemAgeDay(item)
  if (day === null) return null
  const age = ageAtPeriodEnd(day, periodTo)
  return age > settings.pendingAgeDays ? age : null
}

/** Whether an item is left for the user: an exception not resolved, or a payment pending too long. */
export function needsReview(
  item: Pick<ReconItem, 'outcome' | 'provider' | 'file' | 'resolved'>,
  periodTo: string,
  settings: ReconSettings
): boolean {
  if (item.resolved) return false
  return isException(item.outcome) || pendingTooLong(item, periodTo, settings) !== null
}

/** What the review shows of a session's items: every part is optional and they all hold at once. */
export interface ItemFilter {
  outcome?: Outcome | undefined
  currency?: string | undefined
  /** Days in the session's time zone, YYYY-MM-DD (the item's first line, else its first record). */
  from?: string | undefined
  to?: string | undefined
  /** Major units as text, compared with either side's total. */
  minAmount?: string | undefined
  maxAmount?: string | undefined
  /** Any part of a reference, id, name, description, note or reason code. */
  text?: string | undefined
}

const itemKey = z.string().min(1).max(20_000)
const memberIds = z.array(z.string().min(1).max(200)).max(1000)
const currencyCode = z
  .string()
  .max(3)
  .regex(/^[A-Za-z]{3}$/)

/** What the user decides about an item; each becomes one audit event. Items are named by their stable key. */
export const decisionSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('accept'), itemKey }),
  z.strictObject({ kind: z.literal('reject'), itemKey }),
  z.strictObject({ kind: z.literal('match'), providerIds: memberIds.min(1), fileIds: memberIds.min(1) }),
  z.strictObject({ kind: z.literal('unmatch'), itemKey }),
  z.strictObject({ kind: z.literal('note'), itemKey, note: z.string().max(2000) }),
  z.strictObject({ kind: z.literal('reason'), itemKey, code: z.string().trim().max(60) }),
  z.strictObject({ kind: z.literal('resolve'), itemKey, resolved: z.boolean() }),
  z.strictObject({
    kind: z.literal('adjust'),
    currency: currencyCode,
    amount: z.string().trim().min(1).max(30),
    reason: z.string().trim().min(1).max(500),
    itemKey: itemKey.optional()
  }),
  /** Takes back the last decision not yet taken back: the event stays in the trail, the fold skips it. */
  z.strictObject({ kind: z.literal('undo') }),
  /** A line not read, read by hand: its day, its signed amount as typed and its currency. */
  z.strictObject({
    kind: z.literal('fix'),
    itemKey,
    date: z
      .string()
      .max(10)
      .regex(/^\d{4}-\d{2}-\d{2}$/),
    amount: z.string().trim().min(1).max(30),
    currency: currencyCode
  }),
  /** A line not read, left out of the reconciliation on purpose, with the reason. */
  z.strictObject({ kind: z.literal('exclude'), itemKey, reason: z.string().trim().min(1).max(500) })
])
export type Decision = z.infer<typeof decisionSchema>

/** The stable key of an item, a suggestion or a decision: its members' ids, sorted, so it survives any re-run. */
export function pairKey(providerIds: readonly string[], fileIds: readonly string[]): string {
  return `${[...providerIds].sort().join('+')}|${[...fileIds].sort().join('+')}`
}

/** Crockford's base-32 digits (no I, L, O or U): a short key is read aloud and typed without mistaking one for another. */
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/**
 * An item's short key: 12 characters (60 bits) of a hash of its stable key, as reports show it and
 * the CLI takes it ("K7F3QW9ZP2XA"), where the full key of a group runs to thousands of characters.
 * Two 32-bit multiply-xor lanes over the key's UTF-16 code units, each finished by murmur3's mix.
 * Never changes: short keys are stored, printed and typed back.
 */
export function shortItemKey(key: string): string {
  let a = 0x811c9dc5 | 0
  let b = 0x01000193 | 0
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    a = Math.imul(a ^ c, 0x5bd1e995)
    b = Math.imul(b ^ c, 0x27d4eb2f)
  }
  const mix = (h: number): number => {
    h ^= h >>> 16
    h = Math.imul(h, 0x85ebca6b)
    h ^= h >>> 13
    h = Math.imul(h, 0xc2b2ae35)
    return (h ^ (h >>> 16)) >>> 0
  }
  const hi = mix(a ^ key.length)
  const lo = mix(b ^ hi)
  // 30 bits of each lane, 5 bits a digit.
  let out = ''
  for (const lane of [hi & 0x3fffffff, lo & 0x3fffffff]) for (let k = 25; k >= 0; k -= 5) out += BASE32[(lane >>> k) & 31]
  return out
}

/** What the file should show for a provider record: its amount, less its fees when read net of them (fees always reduce what arrives and add to what leaves). */
export function expectedAmount(p: { amountMinor: number; feesMinor: number }, netOfFees: boolean): number {
  return netOfFees ? p.amountMinor - Math.abs(p.feesMinor) : p.amountMinor
}

export interface SessionInfo {
  id: string
  profileId: string
  name: string
  source: ReconSource
  filter: { bulkFileIds?: string[]; references?: string[] }
  from: string
  to: string
  timeZone: string
  settings: ReconSettings
  files: ImportedFileInfo[]
  createdAt: string
  createdBy: string
  lastRunAt: string | null
  closedAt: string | null
  closedBy: string | null
  counts: Record<Outcome, number> | null
  /** Items left for the user as the last run and the decisions since leave them (exceptions not resolved, payments pending too long); null before a run. */
  toReview: number | null
  /**
   * Its place in a team workspace (HOST:PORT/DATABASE), or null: a replay of the shared session
   * `sharedId` (decided through the workspace), or a session shared from here, whose replayed copy on
   * this computer is `copyId`.
   */
  team: { workspace: string; sharedId: string; replay: boolean; copyId: string | null } | null
  /** The account the session is of: its periods chain with the account's other sessions. */
  account: SessionAccount
  /** Where its period sits among the account's others; null when the session is of no account. */
  chain: PeriodChain | null
}

/** The bank account a session reconciles, as its statements state it or as the user named it. */
export interface SessionAccount {
  /** The account as stated or named; null when its statements state none (or several) and the user named none. */
  name: string | null
  /** The statements' one currency; null when they state none (or several). */
  currency: string | null
  namedBy: 'statement' | 'user' | null
}

/** A session's period among its account's others: its opening against the last closed period's closing, and the days between. */
export interface PeriodChain {
  /** The account's last closed period before this one (ending before it starts); null for the first. */
  previous: { id: string; name: string; from: string; to: string } | null
  /** The previous period's closing balance and this one's opening, as their statements state them; null where one states none. */
  previousClosing: string | null
  opening: string | null
  /** Whether the opening ties to the previous closing; null when either is not stated (or there is no previous period). */
  ties: boolean | null
  /** Days between the previous period and this one that no period of the account holds. */
  gap: { from: string; to: string } | null
  /** The account's other sessions whose periods share days with this one; a closed one locks the days it holds. */
  overlaps: { id: string; name: string; from: string; to: string; closed: boolean }[]
  /** Each break, gap and overlap in a sentence (amounts with their currency, periods by their days); empty when the chain holds. */
  said: string[]
}

/** The formats the Sandbox's sample statement is written in. */
export const SAMPLE_FORMATS = ['csv', 'xlsx', 'xls', 'pdf', 'mt940', 'camt053', 'ofx', 'qif'] as const
export type SampleFormat = (typeof SAMPLE_FORMATS)[number]

export interface ImportedFileInfo {
  id: string
  name: string
  sha256: string
  rows: number
  problems: number
  importedAt: string
  importedBy: string
  numberForm: string | null
  dateForm: string | null
  encoding: string | null
  separator: string | null
  mapping: StatementMapping
  /** What the statement says of itself, checked at import; null for files imported before it was kept. */
  proof: StatementProof | null
  /** What the file is (csv, xlsx, xls, pdf, mt940, camt, ofx, qif). */
  format: string
  /** Which statement of its file this is ("sheet March", "account 0123456789 NGN, …"); null when the file holds one. */
  statement: string | null
  account: string | null
  /** A PDF's pages as the file-wide line each starts on (lineWhere names its lines "page 3, line 12"); null for other formats. */
  pageStarts: number[] | null
}

/** A line not read, as the summary lists it. */
export interface LineNotRead {
  line: number
  text: string
  reason: string
}

/** One statement of a session, proved: amounts as decimal strings in its currency (as --json and the reports give them). */
export interface StatementCheck {
  fileId: string
  file: string
  account: string | null
  currency: string | null
  opening: string | null
  closing: string | null
  linesRead: number
  /** Lines not read and still open in the session (neither read by hand nor left out). */
  notRead: LineNotRead[]
  balanceBreaks: { line: number; expected: string; found: string; gap: string }[]
  /** A PDF's pages (lineWhere names its lines by page and line); null for other formats. */
  pageStarts: number[] | null
  /** Balances exist and tie, no break, and no line of it is still not read. */
  complete: boolean
  /** The check in a sentence. */
  verdict: string
}

export interface AdjustmentInfo {
  currency: string
  amountMinor: number
  reason: string
  itemKey: string | null
  by: string
  at: string
}

/**
 * Why a statement that ties is still not complete when a balance was taken from its running balance, not
 * stated: the first and last running balances prove that the lines chain, not that none was cut from
 * either end (a file cut short after a line chains just as well). Null when both balances are stated.
 */
export function unstatedBalancesNote(
  openingFrom: StatementProof['openingFrom'],
  closingFrom: StatementProof['closingFrom']
): string | null {
  const opening = openingFrom === 'running balance'
  const closing = closingFrom === 'running balance'
  if (!opening && !closing) return null
  if (opening && closing)
    return '; but the statement states neither balance (both are taken from its running balance): lines cut from its start or end would not show'
  return opening
    ? '; but the statement does not state its opening balance (taken from its first running balance): lines cut from its start would not show'
    : '; but the statement does not state its closing balance (taken from its last running balance): lines cut from its end would not show'
}

/**
 * A statement's proof as the session stands: its lines read by hand no longer count against it; a
 * line left out with a reason does only while its amount was never read (nothing then shows what it
 * moved, though the running balance may imply it).
 */
export function statementCheck(
  file: { fileId: string; file: string; rows: number; proof: StatementProof | null; pageStarts?: number[] | null },
  notRead: LineNotRead[],
  leftOutUnread: LineNotRead[] = []
): StatementCheck {
  const proof = file.proof
  const currency = proof?.currency ?? null
  const major = (minor: number | null): string | null => (minor === null || currency === null ? null : toMajorString(minor, currency))
  const unstated = proof === null ? null : unstatedBalancesNote(proof.openingFrom, proof.closingFrom)
  const ties = proof !== null && proof.tieGapMinor === 0 && proof.breaks.length === 0 && unstated === null
  let said = proof === null ? 'no balances to check' : proof.verdict.replace(/; \d+ line\(s\) not read$/, '')
  // A proof stored before balances taken from the running balance stopped making a statement complete says so now.
  if (proof !== null && unstated !== null && proof.tieGapMinor === 0 && proof.breaks.length === 0 && !said.includes(unstated))
    said += unstated
  return {
    fileId: file.fileId,
    file: file.file,
    account: proof?.account ?? null,
    currency,
    opening: major(proof?.openingMinor ?? null),
    closing: major(proof?.closingMinor ?? null),
    linesRead: proof?.linesRead ?? file.rows,
    notRead,
    balanceBreaks: (proof?.breaks ?? []).map((b) => ({
      line: b.line,
      expected: major(b.expectedMinor) as string,
      found: major(b.foundMinor) as string,
      gap: major(b.gapMinor) as string
    })),
    pageStarts: file.pageStarts ?? null,
    complete: ties && notRead.length === 0 && leftOutUnread.length === 0 && (proof?.balanceProblems ?? []).length === 0,
    verdict: [
      said,
      notRead.length > 0 ? `${notRead.length} line(s) not read` : null,
      leftOutUnread.length > 0 ? `${leftOutUnread.length} line(s) left out whose amount was never read` : null
    ]
      .filter(Boolean)
      .join('; ')
  }
}

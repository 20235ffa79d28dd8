// What Ledgerline learns from the user's confirmations and rejections (aliases, recurring amounts and days), how that evidence is said in words, and the gate a pattern passes before it is proposed as a rule.
import { moneyText } from './money'
import type { Rule } from './rules'

/**
 * What the user decided in the profile's other sessions about one statement wording (the line's
 * steady words) and one of the provider's parties (a customer's email, an account number, a name).
 */
export interface AliasEvidence {
  /** The line's steady words, as the engine compares them ("TUNDE ADE"). */
  lineWords: string
  /** The line's field the words were read from (its counterparty when it has one). */
  field: 'counterparty' | 'description'
  /** The provider's party, as compared (an email, an account number, a name in lower case). */
  partyKey: string
  /** The party as a person reads it ("Babatunde Adeyemi (ade@example.com)"). */
  partyLabel: string
  /** Pairs of such a line and such a record the user confirmed (accepted or matched by hand), and rejected or unmatched. */
  confirmed: number
  rejected: number
  /** The day of the earliest confirmed line, YYYY-MM-DD (null when none was confirmed). */
  since: string | null
  /** The confirmed lines' amounts, "NGN 1500000" (currency, minor units) → how many times. */
  amounts: Record<string, number>
  /** The confirmed lines' days of the month, in the order they were seen. */
  days: number[]
}

/** Evidence by the line's words, then by party key. */
export type LearnedAliases = ReadonlyMap<string, ReadonlyMap<string, AliasEvidence>>

/**
 * The gate a learned pattern passes before Ledgerline proposes it as a rule (after Midday's): at least
 * 3 confirmations, at least 90% of the times it was decided confirmed, at most one rejection.
 */
export const PROPOSAL_GATE = { minConfirmed: 3, minShare: 0.9, maxRejected: 1 } as const

/** Whether a pattern passes the gate. */
export function passesGate(e: Pick<AliasEvidence, 'confirmed' | 'rejected'>): boolean {
  const decided = e.confirmed + e.rejected
  return (
    e.confirmed >= PROPOSAL_GATE.minConfirmed &&
    decided > 0 &&
    e.confirmed / decided >= PROPOSAL_GATE.minShare &&
    e.rejected <= PROPOSAL_GATE.maxRejected
  )
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December'
]

/** "August 2026" for 2026-08-14. */
export function monthOf(day: string): string {
  return `${MONTH_NAMES[Number(day.slice(5, 7)) - 1] ?? day.slice(5, 7)} ${day.slice(0, 4)}`
}

function times(n: number): string {
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`
}

/** The evidence in words: "you confirmed "TUNDE ADE" as the provider's Babatunde Adeyemi (ade@example.com) 4 times since August 2026; rejected once". */
export function aliasInWords(e: AliasEvidence): string {
  const parts: string[] = []
  if (e.confirmed > 0)
    parts.push(
      `you confirmed "${e.lineWords}" as the provider's ${e.partyLabel} ${times(e.confirmed)}${e.since ? ` since ${monthOf(e.since)}` : ''}`
    )
  if (e.rejected > 0)
    parts.push(`${e.confirmed > 0 ? '' : `"${e.lineWords}" with the provider's ${e.partyLabel}: `}rejected ${times(e.rejected)}`)
  return parts.join('; ')
}

/** The gate's figures in words: "confirmed 4 of the 4 times decided (100%), rejected 0 times". */
export function gateInWords(e: Pick<AliasEvidence, 'confirmed' | 'rejected'>): string {
  const decided = e.confirmed + e.rejected
  const share = decided === 0 ? 0 : Math.floor((e.confirmed / decided) * 100)
  return `confirmed ${e.confirmed} of the ${decided} time(s) decided (${share}%), rejected ${e.rejected} time(s); a rule is proposed from ${PROPOSAL_GATE.minConfirmed} confirmations, ${PROPOSAL_GATE.minShare * 100}% confirmed and at most ${PROPOSAL_GATE.maxRejected} rejection`
}

/** An amount the evidence has seen confirmed at least twice, in words, or null. */
export function recurringAmount(e: AliasEvidence, currency: string, amountMinor: number): string | null {
  const seen = e.amounts[`${currency} ${amountMinor}`] ?? 0
  return seen >= 2 ? `the same amount (${moneyText(Math.abs(amountMinor), currency)}) confirmed ${times(seen)} before` : null
}

/** Whether a day of the month is within two days of at least two confirmed lines' days, in words, or null. */
export function recurringDay(e: AliasEvidence, dayOfMonth: number): string | null {
  const near = e.days.filter((d) => Math.abs(d - dayOfMonth) <= 2).length
  return near >= 2 ? `about the same day of the month (the ${dayOfMonth}${ordinal(dayOfMonth)}) as ${times(near)} before` : null
}

function ordinal(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return 'th'
  return n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th'
}

/**
 * What evidence adds to a suggestion's score, and why: a confirmed alias up to +3 (one point a
 * confirmation), each rejection −2, and while confirmations outweigh rejections +1 for an amount
 * confirmed twice before and +0.5 for about the same day of the month.
 */
export function evidenceScore(
  e: AliasEvidence,
  currency: string,
  amountMinor: number,
  dayOfMonth: number
): { score: number; reasons: string[] } {
  const alias = Math.min(3, e.confirmed) - 2 * e.rejected
  const reasons = [`learned: ${aliasInWords(e)} ${alias >= 0 ? '+' : ''}${alias}`]
  let score = alias
  if (e.confirmed > e.rejected) {
    const amount = recurringAmount(e, currency, amountMinor)
    if (amount) {
      score += 1
      reasons.push(`learned: ${amount} +1`)
    }
    const day = recurringDay(e, dayOfMonth)
    if (day) {
      score += 0.5
      reasons.push(`learned: ${day} +0.5`)
    }
  }
  return { score, reasons }
}

/** A rule Ledgerline proposes from a pattern that passed the gate: never enabled by itself. */
export interface ProposedRule {
  rule: Rule
  evidence: AliasEvidence
  /** The gate's figures in words. */
  gate: string
  /** Whether a rule of its name is saved already (then it is only shown). */
  saved: boolean
}

/** How suggestions did against what the user confirmed: right of those suggested (precision), and of those confirmed (recall). */
export interface SuggestionFigures {
  suggested: number
  right: number
  /** Pairs the user confirmed (accepted or matched by hand) in the sessions replayed. */
  confirmed: number
  /** right / suggested, null when nothing was suggested. */
  precision: number | null
  /** right / confirmed, null when nothing was confirmed. */
  recall: number | null
}

/** How an enabled rule did over the closed sessions: as the user left its items, and of the items the user decided its way. */
export interface RuleFigures {
  name: string
  version: number
  acted: number
  asDecided: number
  otherwise: number
  undecided: number
  /** Items the user left decided the rule's way (the same reason code, left out, or paired). */
  decidedSo: number
  precision: number | null
  recall: number | null
}

/** `rules evaluate`: the closed sessions replayed in order, each learning only from those before it. */
export interface Evaluation {
  sessions: { sessionId: string; name: string; from: string; to: string; without: SuggestionFigures; with: SuggestionFigures }[]
  without: SuggestionFigures
  with: SuggestionFigures
  rules: RuleFigures[]
}

/** A share as a person reads it: "97.9%", or "–" for none. */
export function percent(share: number | null): string {
  if (share === null) return '–'
  // Rounded as a spreadsheet rounds, but never up to 100.0% when one was missed.
  const tenths = Math.round(share * 1000)
  return `${((share < 1 && tenths === 1000 ? 999 : tenths) / 10).toFixed(1)}%`
}

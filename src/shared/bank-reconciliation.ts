// The bank reconciliation statement an auditor reads, per currency: the statement's opening balance, plus the provider's records, each class of reconciling item, the lines counted apart, the closing balance the lines add up to against the one stated, and the difference left.
import { parseMajor } from './money'
import { CHARGE_KINDS, OUTCOMES, type ChargeKind, type Outcome, type ReconSummary } from './reconcile'

export interface BankRecLine {
  label: string
  /** How many items the line stands for, where it stands for items. */
  count: number | null
  /** Null where the statement states no such balance. */
  amountMinor: number | null
  /** balance: a balance the statement states; item: one class added or taken off; total: what the lines above add up to; difference: what is left; memo: said, not added. */
  kind: 'balance' | 'item' | 'total' | 'difference' | 'memo'
}

export interface BankReconciliation {
  currency: string
  lines: BankRecLine[]
  /** Stated closing − (opening + every line); null when the statements in this currency do not state both balances. */
  differenceMinor: number | null
}

/**
 * Each class of reconciling item, in the order an auditor reads them, with the outcomes it gathers,
 * and how the provider's fees on its records are said in the memo (only the matched ones are booked now).
 */
export const BANK_REC_CLASSES: readonly { label: string; outcomes: readonly Outcome[]; fees: string }[] = [
  {
    label: 'Pending at the provider: not yet due at the bank',
    outcomes: ['pending_at_provider'],
    fees: "The provider's fees on records still pending"
  },
  {
    label: 'Only at the provider: not on the statement',
    outcomes: ['only_in_provider'],
    fees: "The provider's fees on records not on the statement"
  },
  {
    label: 'Duplicates at the provider',
    outcomes: ['duplicate_in_provider'],
    fees: "The provider's fees on records it holds twice"
  },
  {
    label: 'Amount differences',
    outcomes: ['amount_differs'],
    fees: "The provider's fees on records whose amount differs (to book once the difference is settled)"
  },
  {
    label: 'Matched within the tolerance',
    outcomes: ['matched'],
    fees: "The provider's fees on matched records (to book as fee expense)"
  },
  {
    label: 'Still to review: suggested, ambiguous, status or currency differs',
    outcomes: ['suggested', 'ambiguous', 'status_differs', 'currency_differs'],
    fees: "The provider's fees on records still to review (to book once decided)"
  },
  { label: 'Only in the file: not at the provider', outcomes: ['only_in_file'], fees: "The provider's fees on records only in the file" },
  { label: 'Duplicates in the file', outcomes: ['duplicate_in_file'], fees: "The provider's fees on records of lines in the file twice" },
  {
    label: 'Lines not read (as far as they could be read)',
    outcomes: ['not_read'],
    fees: "The provider's fees on records named by lines not read"
  }
]

/**
 * The reconciliation per currency. Every item adds its provider side to the provider's records and
 * its file less its provider side to its class, so the provider's records and the classes add up to
 * exactly the statement's lines in items; the lines counted apart (outside the period, the same line
 * in two statements) are added as classes of their own: opening + every line = the closing balance
 * the lines make, set against the closing balance the statement states. Adjustments and the
 * provider's fees are listed, not added: they explain items above, not the statement.
 */
export function bankReconciliations(summary: Omit<ReconSummary, 'verdict'>): BankReconciliation[] {
  return summary.currencies.map((c) => {
    const statements = (summary.statements ?? []).filter((s) => s.currency === c.currency)
    const stated = (pick: (s: (typeof statements)[number]) => string | null): number | null => {
      if (statements.length === 0 || statements.some((s) => pick(s) === null)) return null
      return statements.reduce((sum, s) => sum + parseMajor(pick(s) as string, c.currency), 0)
    }
    const opening = stated((s) => s.opening)
    const closing = stated((s) => s.closing)
    // The records, not the items they are in (a settlement group holds many).
    const providerCount =
      c.providerRecords ?? OUTCOMES.filter((o) => c.outcomes[o].providerMinor !== 0).reduce((n, o) => n + c.outcomes[o].count, 0)
    const carried = c.carried ?? { records: 0, providerMinor: 0, lines: 0, fileMinor: 0, items: 0, open: 0 }
    const lines: BankRecLine[] = [
      { label: 'Statement opening balance', count: null, amountMinor: opening, kind: 'balance' },
      {
        label: `Provider's records for the period, as expected at the bank${summary.basis ? (summary.basis.net ? ", net of the provider's fees" : ", gross of the provider's fees") : ''}`,
        count: providerCount - carried.records,
        amountMinor: c.providerTotalMinor - carried.providerMinor,
        kind: 'item'
      }
    ]
    if (carried.records > 0)
      lines.push({
        label: "Provider's records carried forward from earlier periods, still open there",
        count: carried.records,
        amountMinor: carried.providerMinor,
        kind: 'item'
      })
    const excluded = c.excluded ?? { count: 0, fileMinor: 0, providerMinor: 0 }
    const excludedMinor = excluded.fileMinor - excluded.providerMinor
    for (const k of BANK_REC_CLASSES) {
      let amount = k.outcomes.reduce((sum, o) => sum + c.outcomes[o].differenceMinor, 0)
      let count = k.outcomes.reduce((n, o) => n + c.outcomes[o].count, 0)
      // Lines not read that the user left out with a reason are a class of their own, below.
      if (k.outcomes.includes('not_read')) {
        amount -= excludedMinor
        count -= excluded.count
      }
      // A class with nothing to add is not listed; lines not read are, even when no amount of theirs could be read.
      if (count === 0 || (amount === 0 && !k.outcomes.includes('not_read'))) continue
      lines.push({ label: k.label, count, amountMinor: amount, kind: 'item' })
    }
    if (excluded.count > 0)
      lines.push({
        label: 'Lines not read, left out with a reason (as far as they could be read)',
        count: excluded.count,
        amountMinor: excludedMinor,
        kind: 'item'
      })
    // Lines of earlier statements carried forward are in items here, but this statement does not hold them.
    if (carried.lines > 0)
      lines.push({
        label: "Lines of earlier periods' statements carried forward (on those statements, not this one)",
        count: carried.lines,
        amountMinor: -carried.fileMinor,
        kind: 'item'
      })
    // Lines in no item, each counted apart: the statement's total holds them.
    let apart = 0
    for (const [list, label] of [
      [summary.lines?.outsidePeriod, `Statement lines dated outside the period ${summary.period.from} to ${summary.period.to}`],
      [summary.lines?.sameLineTwice, 'The same line in two statements of the session, counted once']
    ] as const) {
      const here = list?.find((l) => l.currency === c.currency)
      if (!here || here.count === 0) continue
      apart += here.minor
      lines.push({
        label: here.amountNotRead > 0 ? `${label} (${here.amountNotRead} of them with no amount read)` : label,
        count: here.count,
        amountMinor: here.minor,
        kind: 'item'
      })
    }
    const fileTotal = c.fileTotalMinor - carried.fileMinor + apart
    const made = opening === null ? null : opening + fileTotal
    lines.push({
      label: opening === null ? "The statement's lines add up to (no opening balance stated)" : 'Closing balance as the lines add up',
      count: null,
      amountMinor: made ?? fileTotal,
      kind: 'total'
    })
    lines.push({ label: 'Statement closing balance, as stated', count: null, amountMinor: closing, kind: 'balance' })
    const differenceMinor = made === null || closing === null ? null : closing - made
    lines.push({
      label: differenceMinor === null ? 'Difference left: not checked, the statement does not state both balances' : 'Difference left',
      count: null,
      amountMinor: differenceMinor,
      kind: 'difference'
    })
    if (carried.items > 0)
      lines.push({
        label: `Items carried forward from earlier periods: ${carried.items - carried.open} cleared in this period, ${carried.open} still open (in the classes above)`,
        count: null,
        amountMinor: null,
        kind: 'memo'
      })
    if (c.adjustmentsMinor !== 0)
      lines.push({
        label: 'Adjustments recorded (they explain items above; not added)',
        count: null,
        amountMinor: c.adjustmentsMinor,
        kind: 'memo'
      })
    // The provider's fees on every record of the period, by class: they add up to all its fees, of which the matched ones are booked now.
    let feeLines = 0
    let allFees = 0
    for (const k of BANK_REC_CLASSES) {
      const fees = k.outcomes.reduce((sum, o) => sum + (c.outcomes[o].feesMinor ?? 0), 0)
      if (fees === 0) continue
      feeLines++
      allFees += fees
      lines.push({ label: k.fees, count: null, amountMinor: fees, kind: 'memo' })
    }
    if (feeLines > 1)
      lines.push({
        label: "The provider's fees on all its records of the period (the lines above)",
        count: null,
        amountMinor: allFees,
        kind: 'memo'
      })
    for (const [kind, label] of Object.entries(CHARGE_KINDS) as [ChargeKind, string][]) {
      const charge = c.charges?.[kind]
      if (charge && charge.count > 0)
        lines.push({
          label: `${label} among the lines only in the file (to book)`,
          count: charge.count,
          amountMinor: charge.minor,
          kind: 'memo'
        })
    }
    return { currency: c.currency, lines, differenceMinor }
  })
}

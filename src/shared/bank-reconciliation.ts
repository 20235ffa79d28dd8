// The bank reconciliation statement an auditor reads, per currency: the statement's opening balance, plus the provider's records, each class of reconciling item, the closing balance the lines add up to against the one stated, and the difference left.
import { parseMajor } from './money'
import { OUTCOMES, type Outcome, type ReconSummary } from './reconcile'

export interface BankRecLine {
  label: string
  /** How many items the line stands for, where it stands for items. */
  count: number | null
  /** Null where the statement states no such balance. */
  amountMinor: number | null
  /** balance: a balance the statement states; item: one class added or taken off; total: what the lines above add up to; difference: what is left. */
  kind: 'balance' | 'item' | 'total' | 'difference' | 'memo'
}

export interface BankReconciliation {
  currency: string
  lines: BankRecLine[]
  /** Stated closing − (opening + every line); null when the statements in this currency do not state both balances. */
  differenceMinor: number | null
}

/** Each class of reconciling item, in the order an auditor reads them, with the outcomes it gathers. */
const CLASSES: { label: string; outcomes: Outcome[] }[] = [
  { label: 'Pending at the provider: not yet due at the bank', outcomes: ['pending_at_provider'] },
  { label: 'Only at the provider: not on the statement', outcomes: ['only_in_provider'] },
  { label: 'Duplicates at the provider', outcomes: ['duplicate_in_provider'] },
  { label: 'Amount differences', outcomes: ['amount_differs'] },
  { label: 'Matched within the tolerance', outcomes: ['matched'] },
  {
    label: 'Still to review: suggested, ambiguous, status or currency differs',
    outcomes: ['suggested', 'ambiguous', 'status_differs', 'currency_differs']
  },
  { label: 'Only in the file: not at the provider', outcomes: ['only_in_file'] },
  { label: 'Duplicates in the file', outcomes: ['duplicate_in_file'] },
  { label: 'Lines not read (as far as they could be read)', outcomes: ['not_read'] }
]

/**
 * The reconciliation per currency. Every item adds its provider side to the provider's records and
 * its file less its provider side to its class, so the provider's records and the classes add up to
 * exactly the statement's lines: opening + lines = the closing balance the lines make, set against
 * the closing balance the statement states. Adjustments are listed, not added: they explain items
 * above, not the statement.
 */
export function bankReconciliations(summary: ReconSummary): BankReconciliation[] {
  return summary.currencies.map((c) => {
    const statements = (summary.statements ?? []).filter((s) => s.currency === c.currency)
    const stated = (pick: (s: (typeof statements)[number]) => string | null): number | null => {
      if (statements.length === 0 || statements.some((s) => pick(s) === null)) return null
      return statements.reduce((sum, s) => sum + parseMajor(pick(s) as string, c.currency), 0)
    }
    const opening = stated((s) => s.opening)
    const closing = stated((s) => s.closing)
    const providerCount = OUTCOMES.filter((o) => c.outcomes[o].providerMinor !== 0).reduce((n, o) => n + c.outcomes[o].count, 0)
    const lines: BankRecLine[] = [
      { label: 'Statement opening balance', count: null, amountMinor: opening, kind: 'balance' },
      {
        label: "Provider's records for the period, as expected at the bank",
        count: providerCount,
        amountMinor: c.providerTotalMinor,
        kind: 'item'
      }
    ]
    for (const k of CLASSES) {
      const amount = k.outcomes.reduce((sum, o) => sum + c.outcomes[o].differenceMinor, 0)
      if (amount === 0) continue
      const count = k.outcomes.reduce((n, o) => n + c.outcomes[o].count, 0)
      lines.push({ label: k.label, count, amountMinor: amount, kind: 'item' })
    }
    const made = opening === null ? null : opening + c.fileTotalMinor
    lines.push({
      label: opening === null ? "The statement's lines add up to (no opening balance stated)" : 'Closing balance as the lines add up',
      count: null,
      amountMinor: made ?? c.fileTotalMinor,
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
    if (c.adjustmentsMinor !== 0)
      lines.push({
        label: 'Adjustments recorded (they explain items above; not added)',
        count: null,
        amountMinor: c.adjustmentsMinor,
        kind: 'memo'
      })
    return { currency: c.currency, lines, differenceMinor }
  })
}

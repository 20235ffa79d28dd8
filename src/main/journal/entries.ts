// The journal for the ledger, from a closed session: the provider's fees on the records that reached the bank, the bank's charges found as lines only in the file (VAT, levies and stamp duty apart) and the adjustments made in the session, as balanced entries with their references and the items they come from.
import { moneyText } from '../../shared/money'
import {
  bookedCharge,
  CHARGE_KINDS,
  ownDebitOnlyInFile,
  shortItemKey,
  type ChargeKind,
  type ReconItem,
  type SessionInfo
} from '../../shared/reconcile'
import { AppError } from '../errors'
import type { FoldedDecisions } from '../reconcile/fold'
import { fileNamesOf } from '../reconcile/report'
import type { ReconService } from '../reconcile/service'
import { buildSummary } from '../reconcile/totals'
import type { AccountMaps } from './account-map'
import type { AccountMap, Journal, JournalAccount, JournalEntry, JournalLine, JournalTotals } from '../../shared/journal'

const newTotals = (currency: string): JournalTotals => ({
  currency,
  feesMinor: 0,
  charges: Object.fromEntries(Object.keys(CHARGE_KINDS).map((k) => [k, 0])) as Record<ChargeKind, number>,
  adjustmentsMinor: 0,
  debitMinor: 0,
  creditMinor: 0
})

/** The account of each charge kind. */
const CHARGE_ACCOUNT: Record<ChargeKind, JournalAccount> = {
  vat: 'vat',
  stamp_duty: 'stamp_duty',
  levies: 'levies',
  bank_charges: 'bank_charges'
}

/**
 * The session's journal. Fees: those on records of matched items (what the bank received net of
 * them), debited to the fees account per item and credited in one line to the provider's clearing
 * account. Charges: debits only in this period's own statement whose words read as the bank's
 * charges, each to its kind's account, credited in one line to the bank. Adjustments: each against
 * the bank. Every entry balances by construction, and each is checked again.
 */
export function journalOf(input: {
  session: SessionInfo
  items: Iterable<ReconItem>
  adjustments: FoldedDecisions['adjustments']
  map: AccountMap
  /** The statements' names by id: a charge is said as "line 14 of october.csv". */
  fileNames?: ReadonlyMap<string, string>
}): Journal {
  const { session, map } = input
  const code = (account: JournalAccount): string => map.accounts[account]
  const totals = new Map<string, JournalTotals>()
  const totalsOf = (currency: string): JournalTotals => {
    let t = totals.get(currency)
    if (!t) totals.set(currency, (t = newTotals(currency)))
    return t
  }
  const fees = new Map<string, JournalLine[]>()
  const charges = new Map<string, JournalLine[]>()
  let notCharges = 0
  let otherCurrency = 0
  const line = (
    account: JournalAccount,
    debitMinor: number,
    creditMinor: number,
    rest: Omit<JournalLine, 'account' | 'code' | 'debitMinor' | 'creditMinor'>
  ): JournalLine => ({
    account,
    code: code(account),
    debitMinor,
    creditMinor,
    ...rest
  })
  for (const item of input.items) {
    if (item.outcome === 'currency_differs') otherCurrency++
    if (item.outcome === 'matched') {
      const byCurrency = new Map<string, number>()
      for (const p of item.provider) byCurrency.set(p.currency, (byCurrency.get(p.currency) ?? 0) + Math.abs(p.feesMinor))
      for (const [currency, minor] of byCurrency) {
        if (minor === 0) continue
        const refs = item.provider.map((p) => p.reference ?? p.serviceReference).filter((r): r is string => r !== null)
        const list = fees.get(currency) ?? []
        list.push(
          line('fees', minor, 0, {
            description: `The provider's fees on ${refs.length > 1 ? `${refs.length} records (${refs.join(', ')})` : (refs[0] ?? 'a record with no reference')}`,
            reference: refs[0] ?? null,
            items: [shortItemKey(item.key)],
            day: item.provider.map((p) => p.date).sort()[0] ?? session.to
          })
        )
        fees.set(currency, list)
        totalsOf(currency).feesMinor += minor
      }
    }
    for (const f of item.file) {
      if (!ownDebitOnlyInFile(item.outcome, f)) continue
      const kind = bookedCharge(item.outcome, f)
      if (kind === null) {
        if (!item.resolved) notCharges++
        continue
      }
      const list = charges.get(f.currency) ?? []
      list.push(
        line(CHARGE_ACCOUNT[kind], -f.amountMinor, 0, {
          description: `${CHARGE_KINDS[kind]}: ${[f.reference, f.description].filter(Boolean).join(' ') || 'a line with no words'} (line ${f.line}${input.fileNames?.has(f.fileId) ? ` of ${input.fileNames.get(f.fileId)}` : ''})`,
          reference: f.reference,
          items: [shortItemKey(item.key)],
          day: f.date
        })
      )
      charges.set(f.currency, list)
      totalsOf(f.currency).charges[kind] += -f.amountMinor
    }
  }
  const entries: JournalEntry[] = []
  const number = (): string => `LL-${session.id.slice(0, 8)}-${entries.length + 1}`
  const period = `${session.from} to ${session.to}`
  const sum = (lines: readonly JournalLine[]): number => lines.reduce((s, l) => s + l.debitMinor, 0)
  /** Each currency's lines of one kind as an entry, balanced by one line to the account they are taken from. */
  const balancedBy = (
    byCurrency: Map<string, JournalLine[]>,
    narration: string,
    against: JournalAccount,
    said: (n: number) => string
  ): void => {
    for (const currency of [...byCurrency.keys()].sort()) {
      const lines = byCurrency.get(currency) as JournalLine[]
      entries.push({
        number: number(),
        date: session.to,
        currency,
        narration: `${narration}, ${period}`,
        lines: [...lines, line(against, 0, sum(lines), { description: said(lines.length), reference: null, items: [], day: session.to })]
      })
    }
  }
  balancedBy(
    fees,
    "The provider's fees on records paid into the bank",
    'clearing',
    (n) => `The provider's fees on ${n} item(s), taken from what it paid out`
  )
  balancedBy(charges, 'Bank charges on the statement', 'bank', (n) => `Bank charges: ${n} line(s) of the statement`)
  const adjustments = [...input.adjustments].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
  for (const currency of [...new Set(adjustments.map((a) => a.currency))]) {
    const lines: JournalLine[] = []
    for (const a of adjustments.filter((x) => x.currency === currency)) {
      if (a.amountMinor === 0) continue
      const size = Math.abs(a.amountMinor)
      const rest = {
        description: `Adjustment: ${a.reason}`,
        reference: null,
        items: a.itemKey ? [shortItemKey(a.itemKey)] : [],
        day: session.to
      }
      // Less in the bank than the items explain is booked against the adjustments account; more, the other way.
      if (a.amountMinor < 0) lines.push(line('adjustments', size, 0, rest), line('bank', 0, size, rest))
      else lines.push(line('bank', size, 0, rest), line('adjustments', 0, size, rest))
      totalsOf(currency).adjustmentsMinor += a.amountMinor
    }
    if (lines.length > 0)
      entries.push({ number: number(), date: session.to, currency, narration: `Reconciliation adjustments, ${period}`, lines })
  }
  for (const e of entries) {
    const debit = e.lines.reduce((s, l) => s + l.debitMinor, 0)
    const credit = e.lines.reduce((s, l) => s + l.creditMinor, 0)
    if (debit !== credit)
      throw new Error(
        `Journal entry ${e.number} does not balance: ${moneyText(debit, e.currency)} against ${moneyText(credit, e.currency)}`
      )
    const t = totalsOf(e.currency)
    t.debitMinor += debit
    t.creditMinor += credit
  }
  const notes: string[] = []
  if (notCharges > 0)
    notes.push(
      `${notCharges} debit line(s) only in the file do not read as the bank's charges (no "charge", "fee", "commission", "VAT", "levy" or "stamp duty" in their words): not journaled; explain each in the review.`
    )
  if (otherCurrency > 0)
    notes.push(
      `${otherCurrency} item(s) matched across two currencies: no exchange difference is journaled, as no rate is known to Ledgerline.`
    )
  return {
    session: { id: session.id, name: session.name, from: session.from, to: session.to },
    entries,
    totals: [...totals.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1)),
    taxRate: map.taxRate,
    notes
  }
}

/** A journal books what was signed off: an open session is refused. */
export function closedForJournal(session: SessionInfo): void {
  if (!session.closedAt)
    throw new AppError('session_open', `Close the session "${session.name}" first: a journal books what was signed off.`)
}

/**
 * A closed session's journal, as the CLI writes it and the app previews it: refused for a session not
 * closed (a journal books what was signed off), and checked against the session's summary before it is
 * given: its fees, charges and adjustments, currency by currency.
 */
export function closedSessionJournal(
  service: ReconService,
  maps: AccountMaps,
  session: SessionInfo,
  profile: { name: string; mode: string }
): { journal: Journal; map: AccountMap; mapSaved: boolean } {
  closedForJournal(session)
  const { map, saved } = maps.get(session.profileId)
  const input = service.reportInput(session.id, profile)
  const journal = journalOf({ session, items: input.items(), adjustments: input.folded.adjustments, map, fileNames: fileNamesOf(session) })
  const summary = buildSummary(input)
  for (const t of journal.totals) {
    const c = summary.currencies.find((x) => x.currency === t.currency)
    const charges = (Object.keys(CHARGE_KINDS) as ChargeKind[]).every((k) => t.charges[k] === (c?.charges[k].minor ?? 0))
    if (!c || t.feesMinor !== c.outcomes.matched.feesMinor || !charges || t.adjustmentsMinor !== c.adjustmentsMinor)
      throw new Error(`The journal's ${t.currency} figures do not tie to the session's summary`)
  }
  return { journal, map, mapSaved: saved }
}

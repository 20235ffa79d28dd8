// The journal for the ledger as every process sees it: the accounts a journal posts to, the account map, the entries and the formats it is written in.
import { z } from 'zod'
import type { ChargeKind } from './reconcile'

/** Every account a journal posts to, with what it holds, in the order the map is shown. */
export const JOURNAL_ACCOUNTS = {
  fees: "The provider's fees (expense)",
  bank_charges: 'Bank charges (expense)',
  vat: 'VAT on bank charges',
  levies: 'Levies (expense)',
  stamp_duty: 'Stamp duty (expense)',
  adjustments: 'Reconciliation adjustments',
  clearing: "The provider's clearing account (what it owes you before it pays out)",
  bank: 'The bank account the statement is of'
} as const
export type JournalAccount = keyof typeof JOURNAL_ACCOUNTS

export interface AccountMap {
  accounts: Record<JournalAccount, string>
  /** The tax rate name a ledger asks on each line (Xero's TaxRate): one the user's ledger has. */
  taxRate: string
}

const accountCode = z.string().trim().min(1).max(100)
/** An account map as it is saved and sent: every account a code or name of 1 to 100 characters, and the tax rate too. */
export const accountMapSchema = z.strictObject({
  accounts: z.strictObject(
    Object.fromEntries(Object.keys(JOURNAL_ACCOUNTS).map((k) => [k, accountCode])) as Record<JournalAccount, typeof accountCode>
  ),
  taxRate: accountCode
})

export interface JournalLine {
  account: JournalAccount
  /** The account as the user's ledger names it (the map's code). */
  code: string
  debitMinor: number
  creditMinor: number
  description: string
  /** The provider's reference or the statement line it comes from. */
  reference: string | null
  /** The short keys of the session's items it comes from (what the review and the report show). */
  items: string[]
  /** The day the money moved (a fee's record, a charge's line); the entry's own date otherwise. */
  day: string
}

export interface JournalEntry {
  /** LL-<session>-<n>: the same for every line of one entry, as ledgers group lines into entries. */
  number: string
  date: string
  currency: string
  narration: string
  lines: JournalLine[]
}

/** What a journal books per currency: the figures it ties to the session's summary. */
export interface JournalTotals {
  currency: string
  feesMinor: number
  charges: Record<ChargeKind, number>
  /** The session's adjustments, signed as recorded. */
  adjustmentsMinor: number
  debitMinor: number
  creditMinor: number
}

export interface Journal {
  session: { id: string; name: string; from: string; to: string }
  entries: JournalEntry[]
  totals: JournalTotals[]
  /** The tax rate name a ledger asks on each line (the account map's). */
  taxRate: string
  /** What the journal does not book, and why, in words. */
  notes: string[]
}

export const JOURNAL_FORMATS = ['xero', 'qbo', 'zoho', 'sage', 'csv'] as const
export type JournalFormat = (typeof JOURNAL_FORMATS)[number]

// A journal as the file each ledger's import takes: Xero's manual journal CSV, QuickBooks Online's and Zoho Books' journal imports, Sage Business Cloud's journal import, and a plain CSV (one line per debit or credit) for Excel and anything else.
import Papa from 'papaparse'
import { toMajorString } from '../../shared/money'
import { AppError } from '../errors'
import { type Journal, type JournalEntry, type JournalFormat, type JournalLine } from '../../shared/journal'

/** Xero takes up to 300 lines in one manual journal import file. */
export const XERO_MAX_LINES = 300

/** DD/MM/YYYY, as Xero, QuickBooks Online and Sage in Nigeria and Ghana read a day. */
const dmy = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`

/** An amount as ledgers read it: plain digits and a decimal point, nothing for zero. */
const amount = (minor: number, currency: string): string => (minor === 0 ? '' : toMajorString(minor, currency))

/** Each line of each entry, with its entry. */
function* linesOf(journal: Journal): Generator<[JournalEntry, JournalLine]> {
  for (const e of journal.entries) for (const l of e.lines) yield [e, l]
}

/**
 * The lines a ledger's file carries: one per item for the plain CSV; for a ledger, the fees of one
 * day in one line (a month of payments would be thousands of lines), each with how many items it holds.
 */
function ledgerLines(entry: JournalEntry): JournalLine[] {
  const out: JournalLine[] = []
  const byDay = new Map<string, JournalLine>()
  for (const l of entry.lines) {
    if (l.account !== 'fees') {
      out.push(l)
      continue
    }
    const same = byDay.get(l.day)
    if (!same) {
      const first = { ...l, items: [...l.items] }
      byDay.set(l.day, first)
      out.push(first)
      continue
    }
    same.debitMinor += l.debitMinor
    same.items.push(...l.items)
    same.reference = null
    same.description = `The provider's fees on ${same.items.length} item(s) of ${l.day}`
  }
  return out
}

function table(header: string[], rows: string[][]): string {
  return `${Papa.unparse({ fields: header, data: rows }, { newline: '\r\n' })}\r\n`
}

/** The journal as the format's file (text, CSV); refused in words when the ledger would refuse it. */
export function journalFile(journal: Journal, format: JournalFormat): string {
  switch (format) {
    case 'csv':
      return table(
        ['entry', 'date', 'currency', 'account', 'account_code', 'debit', 'credit', 'description', 'reference', 'items', 'day'],
        [...linesOf(journal)].map(([e, l]) => [
          e.number,
          e.date,
          e.currency,
          l.account,
          l.code,
          amount(l.debitMinor, e.currency),
          amount(l.creditMinor, e.currency),
          l.description,
          l.reference ?? '',
          l.items.join(' '),
          l.day
        ])
      )
    case 'xero': {
      // Xero reads one signed Amount (a debit positive) and groups lines into journals by Narration and Date.
      const rows = journal.entries.flatMap((e) =>
        ledgerLines(e).map((l) => [
          `${e.narration} (${e.number})`,
          dmy(e.date),
          l.description,
          l.code,
          journal.taxRate,
          toMajorString(l.debitMinor - l.creditMinor, e.currency)
        ])
      )
      if (rows.length > XERO_MAX_LINES)
        throw new AppError(
          'journal_not_importable',
          `The journal has ${rows.length} lines; Xero takes up to ${XERO_MAX_LINES} in one manual journal import. Write it as --format csv, or reconcile a shorter period.`
        )
      return table(['*Narration', '*Date', 'Description', '*AccountCode', '*TaxRate', '*Amount'], rows)
    }
    case 'qbo':
      return table(
        ['Journal No.', 'Journal Date', 'Currency', 'Account Name', 'Debits', 'Credits', 'Description', 'Memo'],
        journal.entries.flatMap((e) =>
          ledgerLines(e).map((l) => [
            e.number,
            dmy(e.date),
            e.currency,
            l.code,
            amount(l.debitMinor, e.currency),
            amount(l.creditMinor, e.currency),
            l.description,
            e.narration
          ])
        )
      )
    case 'zoho':
      return table(
        [
          'Journal Date',
          'Journal Number',
          'Reference Number',
          'Notes',
          'Journal Type',
          'Currency',
          'Account',
          'Description',
          'Debit',
          'Credit'
        ],
        journal.entries.flatMap((e) =>
          ledgerLines(e).map((l) => [
            e.date,
            e.number,
            l.reference ?? '',
            e.narration,
            'both',
            e.currency,
            l.code,
            l.description,
            amount(l.debitMinor, e.currency),
            amount(l.creditMinor, e.currency)
          ])
        )
      )
    case 'sage':
      return table(
        ['Date', 'Reference', 'Ledger Account', 'Details', 'Debit', 'Credit'],
        journal.entries.flatMap((e) =>
          ledgerLines(e).map((l) => [
            dmy(e.date),
            e.number,
            l.code,
            l.description,
            amount(l.debitMinor, e.currency),
            amount(l.creditMinor, e.currency)
          ])
        )
      )
  }
}

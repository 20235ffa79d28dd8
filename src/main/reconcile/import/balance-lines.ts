// Which lines of a statement are balances or totals, not transactions, and what a header block states (balances, account, currency).
import { currencyExponent, isKnownCurrency } from '../../../shared/money'
import type { DecimalMark } from '../../../shared/reconcile'
import { parseAmountBody, readAmountText, wellFormedMinor } from './amounts'
import { CLOSING_BALANCE, OPENING_BALANCE } from './balances'
import { readDateShape } from './dates'

/** Words every opening or closing balance label holds one of: looked for before the full labels are. */
export const BALANCE_WORDS = /bal|forward|b\/f|c\/f|solde|saldo|likutis/i
/** Words a balance line may hold beside its phrase: when, from which period ("Balance brought forward from February"). */
const BALANCE_LINE_WORDS =
  /\b(?:as|at|of|on|from|to|for|the|period|statement|date|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/giu

/**
 * Whether a dated line that moves money is a balance line: its description is the balance phrase and nothing else that says
 * what moved ("Opening balance", "Balance b/f as at 01/03"); "Closing balance adjustment fee" is a transaction and is kept.
 */
export function onlyBalanceWords(description: string): boolean {
  const rest = description.replace(OPENING_BALANCE, ' ').replace(CLOSING_BALANCE, ' ').replace(BALANCE_LINE_WORDS, ' ')
  return !/\p{L}/u.test(rest)
}

export const TOTALS =
  /\b(total|totals|sub-?total|closing balance|opening balance|balance b\/?f|balance c\/?f|brought forward|carried forward|end of statement|balance as at|apyvarta|obroty|omsättning)\b/i

/** A balance as the statement writes it ("1,234.56", "-50.00", "1,234.56 DR" overdrawn), in minor units; null when it reads as none. */
export function readBalance(
  cell: string,
  decimalMark: DecimalMark,
  currency: string,
  exponent = currencyExponent(currency)
): number | null {
  // Most balances are plain ("1,234.56"): read in one pass, with no text object made.
  const plain = wellFormedMinor(cell, decimalMark, exponent)
  if (plain !== null) return plain
  const t = readAmountText(cell)
  if (!t) return null
  try {
    const value = parseAmountBody(t.body, decimalMark, currency)
    return t.side === 'debit' || t.negative ? -Math.abs(value) : value
  } catch {
    return null
  }
}

/** The last cell of a row that reads as an amount (a balance line's balance when there is no balance column). */
export function lastAmountCell(row: readonly string[]): string | null {
  for (let k = row.length - 1; k >= 0; k--) {
    const whole = (row[k] ?? '').trim()
    // "Closing balance: 1,000.00" in one cell: the amount after the colon.
    const cell = /[:=]\s*([^:=]+)$/.exec(whole)?.[1]?.trim() ?? whole
    if (cell !== '' && readAmountText(cell) && /\d/.test(cell) && !readDateShape(cell)) return cell
  }
  return null
}

/** What a header block states: an opening or closing balance, and the account ("Account number,0123456789", "Opening balance: 1,000.00"). */
export function balancesAbove(rows: readonly (readonly string[])[]): {
  opening: string | null
  closing: string | null
  account: string | null
} {
  const found: { opening: string | null; closing: string | null; account: string | null } = { opening: null, closing: null, account: null }
  const ACCOUNT = /^(?:account\s*(?:number|no\.?|#)?|acct\.?\s*(?:no\.?)?|iban)\s*[:=]?\s*(.*)$/i
  for (const row of rows) {
    const cells = row.map((c) => c.trim()).filter((c) => c !== '')
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i] as string
      // The value: after a colon in the cell, else the next cell.
      const value = (): string | null => {
        const colon = /[:=]\s*(.+)$/.exec(cell)?.[1]?.trim()
        return colon || cells[i + 1] || null
      }
      if (OPENING_BALANCE.test(cell)) found.opening ??= value()
      else if (CLOSING_BALANCE.test(cell)) found.closing ??= value()
      else {
        const account = ACCOUNT.exec(cell)
        if (account && !/name/i.test(cell)) {
          const v = account[1]?.trim() || cells[i + 1] || ''
          if (/\d{4}/.test(v)) found.account ??= v
        }
      }
    }
  }
  return found
}

/** The currency a header block names: a "Currency" label with a known ISO code beside it or after a colon. */
export function currencyNamedAbove(rows: readonly (readonly string[])[]): string | null {
  const LABEL = /^(?:account\s+)?currency\s*[:=]?\s*(?:([A-Za-z]{3}))?$/i
  for (const row of rows) {
    const cells = row.map((c) => c.trim()).filter((c) => c !== '')
    for (let i = 0; i < cells.length; i++) {
      const label = LABEL.exec(cells[i] as string)
      if (!label) continue
      const code = (label[1] ?? cells[i + 1] ?? '').toUpperCase()
      if (/^[A-Z]{3}$/.test(code) && isKnownCurrency(code)) return code
    }
  }
  return null
}

// What the review filters a session's items by (currency, day, amount range, text, outcome), stored in columns beside each item and turned into one WHERE clause.
import { parseMajor } from '../../shared/money'
import type { ItemFilter, ReconItem } from '../../shared/reconcile'
import { AppError } from '../errors'
import { likeText } from '../cache/text-match'

/** The filter columns of one item, as schema v6 stores them (its migration fills older items the same way). */
export interface ItemColumns {
  currency: string | null
  day: string | null
  providerMinor: number | null
  fileMinor: number | null
  search: string
}

const total = (list: readonly { amountMinor: number }[]): number | null =>
  list.length === 0 ? null : list.reduce((s, x) => s + x.amountMinor, 0)
const joined = (parts: readonly (string | number | null | undefined)[]): string =>
  parts.filter((p) => p !== null && p !== undefined && p !== '').join(' ')

export function itemColumns(item: ReconItem): ItemColumns {
  return {
    currency: item.provider[0]?.currency ?? item.file[0]?.currency ?? null,
    day: (item.file[0]?.date ?? item.provider[0]?.date ?? null)?.slice(0, 10) ?? null,
    providerMinor: total(item.provider),
    fileMinor: total(item.file),
    search: [
      item.provider.map((p) => joined([p.id, p.reference, p.serviceReference, p.name, p.channel, p.status])).join(' '),
      item.file.map((f) => joined([f.reference, f.description, f.counterparty])).join(' '),
      item.note ?? '',
      item.reasonCode ?? ''
    ]
      .join(' ')
      .toLowerCase()
  }
}

/**
 * The WHERE clause of a filter (after `session_id = ?`), with its arguments. An amount range is in
 * major units, so it is read in each currency the session holds (exactly, from text) and matched
 * against either side's total in that currency.
 */
export function filterClause(filter: ItemFilter, currencies: readonly string[]): { sql: string; args: unknown[] } {
  const parts: string[] = []
  const args: unknown[] = []
  if (filter.outcome) {
    parts.push('outcome = ?')
    args.push(filter.outcome)
  }
  if (filter.currency) {
    parts.push('currency = ?')
    args.push(filter.currency.toUpperCase())
  }
  if (filter.from) {
    parts.push('day >= ?')
    args.push(filter.from)
  }
  if (filter.to) {
    parts.push('day <= ?')
    args.push(filter.to)
  }
  if (filter.text && filter.text.trim() !== '') {
    parts.push("search like ? escape '\\'")
    args.push(likeText(filter.text.trim()))
  }
  if (filter.minAmount || filter.maxAmount) {
    const inCurrency: string[] = []
    for (const currency of filter.currency ? [filter.currency.toUpperCase()] : currencies) {
      const read = (text: string | undefined, which: string): number | null => {
        if (!text) return null
        try {
          return Math.abs(parseMajor(text, currency))
        } catch (error) {
          throw new AppError('invalid_amount', `${which} amount "${text}": ${(error as Error).message}`)
        }
      }
      const min = read(filter.minAmount, 'Smallest')
      const max = read(filter.maxAmount, 'Largest')
      const within = (column: string): string =>
        [min !== null ? `abs(${column}) >= ${min}` : '', max !== null ? `abs(${column}) <= ${max}` : ''].filter(Boolean).join(' and ')
      inCurrency.push(`(currency = ? and ((${within('provider_minor')}) or (${within('file_minor')})))`)
      args.push(currency)
    }
    parts.push(inCurrency.length > 0 ? `(${inCurrency.join(' or ')})` : '0')
  }
  return { sql: parts.length > 0 ? ` and ${parts.join(' and ')}` : '', args }
}

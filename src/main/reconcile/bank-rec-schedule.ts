// The schedule of reconciling items behind the bank reconciliation statement: each class's items one by one (oldest first), so an auditor can tick every figure of a class to the items that make it.
import { BANK_REC_CLASSES } from '../../shared/bank-reconciliation'
import { moneyText } from '../../shared/money'
import {
  ageAtPeriodEnd,
  carriedFromOf,
  expectedAmount,
  itemAgeDay,
  lineWhere,
  needsReview,
  shownDay,
  type ReconItem,
  type SessionInfo
} from '../../shared/reconcile'

/** One reconciling item as the schedule lists it: its amount is what it adds to its class's line. */
export interface ScheduleRow {
  /** The day it is aged from, as the item shows it (null where no day was read); YYYY-MM-DD. */
  day: string | null
  /** The day as the reader writes it (the locale's), for documents people read. */
  dayText: string | null
  /** Days outstanding at the period's end. */
  age: number | null
  /** The provider's references and the lines' references, as they are. */
  reference: string
  /** Who or what: the provider's customer, the lines' words. */
  words: string
  /** Where its lines are: "line 14 of oct.csv". */
  where: string
  amountMinor: number
  /** Open, or how it was resolved; and the period it was carried from. */
  state: string
  /** The user's note on it, as written. */
  note: string | null
}

/** One class in one currency: its items listed (at most SCHEDULE_ROWS, oldest first) and what was left out of the list. */
export interface ScheduleClass {
  currency: string
  label: string
  count: number
  amountMinor: number
  rows: ScheduleRow[]
  /** The items not listed (the class's newest beyond the first SCHEDULE_ROWS), counted and summed: the listed rows and these add up to the class. */
  more: { count: number; amountMinor: number }
  /** Matched items with no difference, not listed: they add nothing. */
  unlisted: number
}

/** Rows a class lists; the rest are in the workbook's Items sheet, counted and summed here. */
export const SCHEDULE_ROWS = 200

const LEFT_OUT = 'Lines not read, left out with a reason (as far as they could be read)'
const joined = (values: (string | null | undefined)[]): string => [...new Set(values.filter((v): v is string => !!v))].join(' + ')

/** The schedule, per currency and class in the bank reconciliation's order, from every item of the session. */
export function reconcilingSchedule(
  session: Pick<SessionInfo, 'to' | 'settings' | 'files'>,
  items: Iterable<ReconItem>,
  limit = SCHEDULE_ROWS
): ScheduleClass[] {
  const names = new Map(session.files.map((f) => [f.id, f.name]))
  const pages = new Map(session.files.map((f) => [f.id, f.pageStarts ?? null]))
  const classes = new Map<string, ScheduleClass>()
  const order = [...BANK_REC_CLASSES.map((k) => k.label), LEFT_OUT]
  const classOf = (item: ReconItem): string => {
    if (item.outcome === 'not_read' && item.resolved && item.reasonCode === 'excluded') return LEFT_OUT
    return (BANK_REC_CLASSES.find((k) => k.outcomes.includes(item.outcome)) as (typeof BANK_REC_CLASSES)[number]).label
  }
  for (const item of items) {
    const label = classOf(item)
    const net = item.netOfFees ?? session.settings.netOfFees
    const amounts = new Map<string, number>()
    for (const f of item.file) amounts.set(f.currency, (amounts.get(f.currency) ?? 0) + f.amountMinor)
    for (const p of item.provider) amounts.set(p.currency, (amounts.get(p.currency) ?? 0) - expectedAmount(p, net))
    for (const [currency, amountMinor] of amounts) {
      const key = `${currency}\u0000${label}`
      let k = classes.get(key)
      if (!k)
        classes.set(key, (k = { currency, label, count: 0, amountMinor: 0, rows: [], more: { count: 0, amountMinor: 0 }, unlisted: 0 }))
      k.count++
      k.amountMinor += amountMinor
      if (item.outcome === 'matched' && amountMinor === 0) {
        k.unlisted++
        continue
      }
      // A line not read whose day could not be read has only a stand-in day: none is shown, nor an age.
      const day = item.provider.length === 0 && item.file.some((f) => shownDay(f) === null) ? null : itemAgeDay(item)
      const carried = carriedFromOf(item)
      k.rows.push({
        day,
        dayText: day,
        age: day === null ? null : ageAtPeriodEnd(day, session.to),
        reference: joined([...item.provider.map((p) => p.reference ?? p.serviceReference), ...item.file.map((f) => f.reference)]),
        words: [
          joined([...item.provider.map((p) => p.name), ...item.file.map((f) => f.description ?? f.counterparty)]),
          // Both sides' amounts where there are two: what the difference is the difference of.
          item.provider.length > 0 && item.file.length > 0
            ? `the provider's ${moneyText(
                item.provider.filter((p) => p.currency === currency).reduce((t, p) => t + expectedAmount(p, net), 0),
                currency
              )} against the statement's ${moneyText(
                item.file.filter((f) => f.currency === currency).reduce((t, f) => t + f.amountMinor, 0),
                currency
              )}`
            : ''
        ]
          .filter(Boolean)
          .join('; '),
        where: joined(
          item.file.map(
            (f) => `${lineWhere(f.line, pages.get(f.fileId))} of ${names.get(f.fileId) ?? f.carried?.file ?? 'an earlier statement'}`
          )
        ),
        amountMinor,
        state: [
          item.resolved
            ? `resolved${item.reasonCode ? ` (${item.reasonCode.replace(/_/g, ' ')})` : ''}`
            : needsReview(item, session.to, session.settings)
              ? 'open, to review'
              : 'open',
          ...carried.map((c) => `carried from ${c.from} to ${c.to}`)
        ].join('; '),
        note: item.note
      })
      // Keep the oldest: trim now and then, not at every row.
      if (k.rows.length >= 2 * limit) trim(k, limit)
    }
  }
  // A class of matched items with no difference adds nothing and is no line of the reconciliation: nothing to list.
  const all = [...classes.values()].filter((k) => k.count > k.unlisted)
  for (const k of all) trim(k, limit)
  return all.sort((a, b) =>
    a.currency !== b.currency ? (a.currency < b.currency ? -1 : 1) : order.indexOf(a.label) - order.indexOf(b.label)
  )
}

/** Oldest first (no day last), then by reference; beyond `limit`, counted and summed in `more`. */
function trim(k: ScheduleClass, limit: number): void {
  const order = (a: ScheduleRow): string => `${a.day ?? '9999'}\u0000${a.reference}`
  k.rows.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0))
  for (const row of k.rows.splice(limit)) {
    k.more.count++
    k.more.amountMinor += row.amountMinor
  }
}

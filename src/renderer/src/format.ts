// Display helpers for the renderer: money from exact minor units, and counts, days, times and sentences in the locale the user chose.
import { computed, ref } from 'vue'
import { countText, dayPattern, dayText, inLocale, inWords, ISO, timeText } from '../../shared/locale'
import { formatMajor, formatMoney } from '../../shared/money'
import { isMoneyCell, type Cell, type ColumnKind } from '../../shared/records'
import { formatInZone, systemTimeZone } from '../../shared/time'

/** The locale every screen writes days, times and counts in: set by the locale store (ISO until it is). Reactive, so a screen follows a change at once. */
export const displayLocale = ref<string>(ISO)
/** Times are shown in this computer's zone, as its clock shows them. */
const ZONE = systemTimeZone()

export function money(minor: number | null, raw: string | null, currency: string | null): string {
  if (minor !== null && currency) {
    try {
      return formatMoney({ minor, currency })
    } catch {
      // an unknown currency falls through to the raw value
    }
  }
  return raw ? `${raw} ${currency ?? ''}`.trim() : ''
}

export const count = (n: number): string => countText(n, displayLocale.value)

/** A moment (an ISO timestamp) in this computer's zone, as the locale writes it. */
export function when(iso: string | null): string {
  if (!iso) return 'never'
  return timeText(iso, displayLocale.value, ZONE)
}

/** How the date pickers write days: as the locale writes them. */
export const dayFormat = computed(() => dayPattern(displayLocale.value))

/** A calendar day (YYYY-MM-DD) as the locale writes it. */
export const day = (d: string): string => dayText(d, displayLocale.value)

/** A period of days, "01/10/2026 – 31/10/2026". */
export const period = (from: string, to: string): string => `${day(from)} – ${day(to)}`

/** A sentence the host wrote (a verdict, a reason, a chain, a class of the bank reconciliation) with its days and times as the locale writes them. */
export const said = (text: string): string => inLocale(text, displayLocale.value, ZONE)

export function seconds(s: number | null): string {
  if (s === null) return ''
  if (s < 60) return `${Math.ceil(s)} s`
  return `${Math.floor(s / 60)} min ${Math.ceil(s % 60)} s`
}

/** An amount as the provider sent it (major units), shown exactly in the currency's format; as sent if it cannot be. */
export function moneyFromMajor(raw: string | null, currency: string | null): string {
  if (!raw) return ''
  return currency ? formatMajor(raw, currency) : raw.trim()
}

/** The calendar day a date picker's value (epoch ms at local midnight) stands for, YYYY-MM-DD. */
export const pickerDay = (ms: number): string => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 10)

/** A YYYY-MM-DD day as a date picker's value (midday, so no time zone moves it to another day). */
export const pickerValue = (day: string): number => new Date(`${day}T12:00:00`).getTime()

/** The filters the records search and the reconciliation review share, as the user has them on screen. */
export interface AmountDateFilters {
  text: string
  currency: string | null
  minAmount: string
  maxAmount: string
  /** [from, to] as epoch ms from the date picker, or null. */
  range: [number, number] | null
}

/** Those filters as a query: only what is set, text trimmed, the picker's range as two days. */
export function filterQuery(f: AmountDateFilters): {
  text?: string
  currency?: string
  minAmount?: string
  maxAmount?: string
  from?: string
  to?: string
} {
  const q: ReturnType<typeof filterQuery> = {}
  if (f.text.trim()) q.text = f.text.trim()
  if (f.currency) q.currency = f.currency
  if (f.minAmount.trim()) q.minAmount = f.minAmount.trim()
  if (f.maxAmount.trim()) q.maxAmount = f.maxAmount.trim()
  if (f.range) {
    q.from = pickerDay(f.range[0])
    q.to = pickerDay(f.range[1])
  }
  return q
}

/** A status, channel or frequency in words (the host's lines say them the same way). */
export { inWords }

/** A record's cell as the record table and drawer show it: an amount with its currency, a date in the business time zone, a status or channel in words, anything else as it is. */
export function cellText(cell: Cell | undefined, kind: ColumnKind, zone: string): string {
  if (cell === null || cell === undefined) return ''
  if (isMoneyCell(cell)) return money(cell.minor, cell.raw, cell.currency)
  if (kind === 'date') return said(formatInZone(String(cell), zone) ?? String(cell))
  if (kind === 'status' || kind === 'word') return inWords(String(cell))
  return String(cell)
}

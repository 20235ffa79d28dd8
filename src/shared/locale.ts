// Dates and counts as the user writes them: the locale chosen (en-NG and en-GH write 31/10/2026), or ISO days; used by every screen, the CLI's human output and the reports people read, never by files meant for software (they keep ISO days).
import { DateTime } from 'luxon'

/** ISO days (2026-10-31) and 24-hour times: a choice of its own, and what a computer that names no locale gets. */
export const ISO = 'iso'

/** The locales offered by name (any other BCP 47 tag the runtime knows is taken too). */
export const LOCALE_CHOICES: readonly { value: string; label: string }[] = [
  { value: 'en-NG', label: 'Nigeria (31/10/2026)' },
  { value: 'en-GH', label: 'Ghana (31/10/2026)' },
  { value: 'en-KE', label: 'Kenya (31/10/2026)' },
  { value: 'en-ZA', label: 'South Africa (2026/10/31)' },
  { value: 'en-GB', label: 'United Kingdom (31/10/2026)' },
  { value: 'en-US', label: 'United States (10/31/2026)' },
  { value: ISO, label: 'ISO (2026-10-31)' }
]

/** A locale the runtime formats with, or ISO: anything it does not know falls back to ISO, never to a guess. */
export function knownLocale(asked: string | null | undefined): string {
  if (!asked || asked === ISO) return ISO
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([asked]).length > 0 ? asked : ISO
  } catch {
    return ISO
  }
}

/**
 * The locale a computer's environment names (LC_ALL, LC_TIME, LANG as POSIX writes them: en_NG.UTF-8),
 * or ISO when it names none (C, POSIX, unset).
 */
export function environmentLocale(env: Readonly<Record<string, string | undefined>>): string {
  const named = [env['LC_ALL'], env['LC_TIME'], env['LANG']].find((v) => v !== undefined && v !== '')
  if (!named || /^(C|POSIX)([._@]|$)/.test(named)) return ISO
  return knownLocale(named.replace(/[.@].*$/, '').replace('_', '-'))
}

const dayFormats = new Map<string, Intl.DateTimeFormat>()
const timeFormats = new Map<string, Intl.DateTimeFormat>()

/** A calendar day (YYYY-MM-DD) as the locale writes it; anything else as it is. */
export function dayText(day: string, locale: string): string {
  if (locale === ISO || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return day
  const ms = Date.parse(`${day}T00:00:00Z`)
  if (Number.isNaN(ms)) return day
  let format = dayFormats.get(locale)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' })
    dayFormats.set(locale, format)
  }
  return format.format(ms)
}

/** How a date picker writes a day in the locale, in date-fns tokens (dd/MM/yyyy; ISO: yyyy-MM-dd). */
export function dayPattern(locale: string): string {
  if (locale === ISO) return 'yyyy-MM-dd'
  const parts = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).formatToParts(
    Date.UTC(2026, 9, 31)
  )
  // A letter between the parts would be read as a token: only the separators are kept.
  const token = (p: Intl.DateTimeFormatPart): string =>
    p.type === 'day' ? 'dd' : p.type === 'month' ? 'MM' : p.type === 'year' ? 'yyyy' : p.value.replace(/[A-Za-z']/g, '')
  return parts.map(token).join('')
}

/** A period of days, "01/10/2026 to 31/10/2026". */
export const periodText = (from: string, to: string, locale: string): string => `${dayText(from, locale)} to ${dayText(to, locale)}`

/** A moment (an ISO timestamp) as wall-clock time in `zone`, as the locale writes it, with the zone; ISO: "2026-11-28 05:12 (Africa/Lagos)". */
export function timeText(iso: string, locale: string, zone: string): string {
  const at = DateTime.fromISO(iso, { setZone: true })
  if (!at.isValid) return iso
  const here = at.setZone(zone)
  if (!here.isValid) return iso
  if (locale === ISO) return `${here.toFormat('yyyy-MM-dd HH:mm')} (${zone})`
  const key = `${locale}|${zone}`
  let format = timeFormats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: zone })
    timeFormats.set(key, format)
  }
  // The day written in full (a short year, 10/1/26, reads as another day elsewhere), then the time as the locale tells it.
  return `${dayText(here.toISODate() as string, locale)}, ${format.format(here.toMillis())} (${zone})`
}

/** A count as the locale groups it (1,234,567); ISO groups with commas as the reports do. */
export const countText = (n: number, locale: string): string => n.toLocaleString(locale === ISO ? 'en-US' : locale)

/** An ISO day standing alone in a sentence: not part of a file name, a reference or a timestamp. */
const LONE_DAY = /(?<![\w./-])(\d{4}-\d{2}-\d{2})(?![\w/-]|\.\w|:|T\d)/g
/** An ISO timestamp standing alone in a sentence, as the audit trail keeps them. */
const LONE_TIME = /(?<![\w./-])(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))(?![\w/-])/g

/**
 * A sentence for people with its ISO days and timestamps written as the locale writes them (times in
 * `zone`); everything else, file names and references with a day in them included, as it is.
 */
export function inLocale(text: string, locale: string, zone: string): string {
  if (locale === ISO) return text
  return text.replace(LONE_TIME, (t) => timeText(t, locale, zone)).replace(LONE_DAY, (d) => dayText(d, locale))
}

/** A status, channel or frequency as the provider spells it ("FAILED", "bank_transfer", "ANNUAL"), in one form everywhere people read it: lower-case words. */
export const inWords = (code: string): string =>
  code
    .replace(/[_\s]+/g, ' ')
    .trim()
    .toLowerCase()

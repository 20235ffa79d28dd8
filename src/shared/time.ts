// The business time zone: day boundaries, timestamps without an offset, and how times are shown, all read in one IANA zone per profile (luxon does the zone arithmetic).
import { DateTime, IANAZone } from 'luxon'

/** The computer's zone, the default business time zone of a profile. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

export function isTimeZone(name: string): boolean {
  return IANAZone.isValidZone(name)
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/
/** An ISO date-time that names its offset (Z or ±hh:mm). */
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i

/**
 * Epoch ms of an ISO 8601 timestamp. One with an offset (or Z) is exact as sent; one without is a
 * wall-clock time in `zone`. Null when it is not a date.
 */
export function parseTimestamp(value: unknown, zone: string): number | null {
  if (typeof value !== 'string' || value.trim() === '') return null
  const text = value.trim()
  const parsed = HAS_OFFSET.test(text) ? DateTime.fromISO(text, { setZone: true }) : DateTime.fromISO(text, { zone })
  return parsed.isValid ? parsed.toMillis() : null
}

/**
 * The first millisecond of a calendar day in `zone` (`end`: of the day after, so a range's "to" day
 * is included). A date-time is read as parseTimestamp reads it. Null when it is not a date.
 */
export function dayBoundary(value: string, zone: string, end: boolean): number | null {
  const text = value.trim()
  if (!DATE_ONLY.test(text)) return parseTimestamp(text, zone)
  const day = DateTime.fromISO(text, { zone })
  if (!day.isValid) return null
  return (end ? day.plus({ days: 1 }) : day).startOf('day').toMillis()
}

/** A timestamp as wall-clock time in `zone`, e.g. "2026-11-22 14:05:09" (sorts as text; no locale surprises in a CSV). */
export function formatInZone(value: string | number | null, zone: string): string | null {
  if (value === null) return null
  const ms = typeof value === 'number' ? value : parseTimestamp(value, zone)
  if (ms === null) return typeof value === 'string' ? value : null
  return DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd HH:mm:ss')
}

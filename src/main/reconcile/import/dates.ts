// Statement dates (ISO, DD/MM/YYYY, MM/DD/YYYY, DD-MMM-YYYY, with or without a time) → calendar days, the order settled by every row, never guessed.
import { DateTime } from 'luxon'
import type { DateOrder } from '../../../shared/reconcile'

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12
}

/** A time of day after the date: "14:05", "14:05:09", "2:05 PM", "T14:05:09Z", "14:05:09.123+01:00". */
const TIME = /^(?:[T\s]+)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*([AaPp][Mm])?\s*(Z|[+-]\d{2}:?\d{2})?$/

export interface DateShape {
  /** Numeric parts in written order, or a named month. */
  kind: 'iso' | 'numeric' | 'named'
  a: number
  b: number
  c: number
  /** "HH:MM:SS" when the cell has a time of day, else null. */
  time: string | null
  /** How the date is written, shown to the user ("DD-MMM-YYYY"); null for numeric shapes, whose form depends on the order chosen. */
  form: string | null
}

/** Reads the shape of a date cell; null when it is not a date in any accepted form. */
export function readDateShape(cell: string): DateShape | null {
  const text = cell.trim()
  if (text === '') return null
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(.*)$/.exec(text)
  if (m) return withTime('iso', Number(m[1]), Number(m[2]), Number(m[3]), m[4] as string, 'YYYY-MM-DD')
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(text)
  if (m) return withTime('iso', Number(m[1]), Number(m[2]), Number(m[3]), '', 'YYYYMMDD')
  m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(.*)$/.exec(text)
  if (m) return withTime('numeric', Number(m[1]), Number(m[2]), fullYear(m[3] as string), m[4] as string, null)
  m = /^(\d{1,2})[-/.\s]+([A-Za-z]{3,9})\.?[-/.,\s]+(\d{4}|\d{2})(.*)$/.exec(text)
  if (m) {
    const month = MONTHS[(m[2] as string).toLowerCase()]
    if (month) return withTime('named', Number(m[1]), month, fullYear(m[3] as string), m[4] as string, 'DD-MMM-YYYY')
  }
  m = /^([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})(.*)$/.exec(text)
  if (m) {
    const month = MONTHS[(m[1] as string).toLowerCase()]
    if (month) return withTime('named', Number(m[2]), month, Number(m[3]), m[4] as string, 'MMM DD, YYYY')
  }
  return null
}

function fullYear(text: string): number {
  return text.length === 2 ? centuryOf(Number(text)) : Number(text)
}

/** A two-digit year, as SWIFT and Quicken read it: 80–99 are 19xx, 00–79 are 20xx (a 1995 statement is never dated 2095). */
export function centuryOf(yy: number): number {
  return yy >= 80 ? 1900 + yy : 2000 + yy
}

function withTime(kind: DateShape['kind'], a: number, b: number, c: number, rest: string, form: string | null): DateShape | null {
  if (rest.trim() === '') return { kind, a, b, c, time: null, form }
  const t = TIME.exec(rest)
  if (!t) return null
  let hour = Number(t[1])
  const ampm = t[4]?.toLowerCase()
  if (ampm === 'pm' && hour < 12) hour += 12
  if (ampm === 'am' && hour === 12) hour = 0
  if (hour > 23 || Number(t[2]) > 59 || Number(t[3] ?? 0) > 59) return null
  return { kind, a, b, c, time: `${String(hour).padStart(2, '0')}:${t[2]}:${t[3] ?? '00'}`, form }
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/** A real calendar day (Gregorian leap years), checked by arithmetic: a million rows cost nothing. */
function validDay(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
  return day <= (month === 2 && leap ? 29 : (MONTH_DAYS[month - 1] as number))
}

/** Which orders a numeric shape can be read in. ISO and named-month shapes fit every order. */
export function ordersFitting(shape: DateShape): Set<DateOrder> {
  if (shape.kind === 'iso') return new Set(validDay(shape.a, shape.b, shape.c) ? ['ymd', 'dmy', 'mdy'] : [])
  if (shape.kind === 'named') return new Set(validDay(shape.c, shape.b, shape.a) ? ['ymd', 'dmy', 'mdy'] : [])
  const fits = new Set<DateOrder>()
  if (validDay(shape.c, shape.b, shape.a)) fits.add('dmy')
  if (validDay(shape.c, shape.a, shape.b)) fits.add('mdy')
  return fits
}

/** The calendar day "YYYY-MM-DD" of a shape read in `order` (numeric shapes need dmy or mdy), or null when it is no real day. */
export function dayOf(shape: DateShape, order: DateOrder): string | null {
  let year: number
  let month: number
  let day: number
  if (shape.kind === 'iso') [year, month, day] = [shape.a, shape.b, shape.c]
  else if (shape.kind === 'named') [year, month, day] = [shape.c, shape.b, shape.a]
  else if (order === 'dmy') [year, month, day] = [shape.c, shape.b, shape.a]
  else if (order === 'mdy') [year, month, day] = [shape.c, shape.a, shape.b]
  else return null
  return calendarDay(year, month, day)
}

/** "YYYY-MM-DD" of a year, month and day, or null when it is no real day. */
export function calendarDay(year: number, month: number, day: number): string | null {
  if (!validDay(year, month, day)) return null
  // One string per calendar day, shared by every row of that day (a statement has few days, many rows).
  const key = year * 10_000 + month * 100 + day
  let text = DAY_TEXT.get(key)
  if (text === undefined) {
    text = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
    if (DAY_TEXT.size > 100_000) DAY_TEXT.clear()
    DAY_TEXT.set(key, text)
  }
  return text
}

const DAY_TEXT = new Map<number, string>()

/** Whether a numeric shape reads as day-first, month-first, or both: one check per row, no allocation. */
function fitsDmy(shape: DateShape): boolean {
  return validDay(shape.c, shape.b, shape.a)
}
function fitsMdy(shape: DateShape): boolean {
  return validDay(shape.c, shape.a, shape.b)
}

/** Whether a shape can be read in `order` (ISO and named-month shapes fit any order when they are real days). */
export function fitsOrder(shape: DateShape, order: DateOrder): boolean {
  if (shape.kind !== 'numeric') return ordersFitting(shape).size > 0
  return order === 'dmy' ? fitsDmy(shape) : order === 'mdy' ? fitsMdy(shape) : false
}

/**
 * The order every numeric date in a column agrees with, tallied row by row: 'dmy' once a row like
 * 13/10/2026 settles it, 'mdy' once 10/13/2026 does; null when all rows fit both (ask the user), or
 * 'ymd' when no row is numeric (the column is ISO or uses month names).
 */
export class DateOrderTally {
  private numeric = 0
  private dmy = 0
  private mdy = 0
  /** The written forms of the ISO and named-month dates seen, in the order first seen. */
  private readonly forms = new Set<string>()

  add(shape: DateShape): void {
    if (shape.form !== null) this.forms.add(shape.form)
    if (shape.kind !== 'numeric') return
    this.numeric++
    const d = fitsDmy(shape)
    const m = fitsMdy(shape)
    if (d && !m) this.dmy++
    if (m && !d) this.mdy++
  }

  choose(): { order: DateOrder | null; ambiguous: boolean; conflict: boolean } {
    if (this.numeric === 0) return { order: 'ymd', ambiguous: false, conflict: false }
    if (this.dmy > 0 && this.mdy > 0) return { order: this.dmy >= this.mdy ? 'dmy' : 'mdy', ambiguous: false, conflict: true }
    if (this.dmy > 0) return { order: 'dmy', ambiguous: false, conflict: false }
    if (this.mdy > 0) return { order: 'mdy', ambiguous: false, conflict: false }
    return { order: null, ambiguous: true, conflict: false }
  }

  /** The forms the column's dates are written in, as shown to the user: "DD/MM/YYYY", "DD-MMM-YYYY and YYYY-MM-DD". */
  describe(order: DateOrder): string {
    const forms = [...(this.numeric > 0 ? [NUMERIC_FORMS[order]] : []), ...this.forms]
    return forms.length === 0 ? NUMERIC_FORMS.ymd : forms.join(' and ')
  }
}

/** A numeric date's form in each order (ISO for 'ymd'). */
export const NUMERIC_FORMS: Record<DateOrder, string> = { ymd: 'YYYY-MM-DD', dmy: 'DD/MM/YYYY', mdy: 'MM/DD/YYYY' }

/** Days since 1970-01-01 of a "YYYY-MM-DD" day: the engine's date arithmetic, free of time zones. */
export function dayNumber(day: string): number {
  // Each digit less 48: a character that is not a digit gives a value outside 0…9 (NaN past the end).
  const y0 = day.charCodeAt(0) - 48
  const y1 = day.charCodeAt(1) - 48
  const y2 = day.charCodeAt(2) - 48
  const y3 = day.charCodeAt(3) - 48
  const m0 = day.charCodeAt(5) - 48
  const m1 = day.charCodeAt(6) - 48
  const d0 = day.charCodeAt(8) - 48
  const d1 = day.charCodeAt(9) - 48
  let y = y0 * 1000 + y1 * 100 + y2 * 10 + y3
  const m = m0 * 10 + m1
  const d = d0 * 10 + d1
  const digits =
    y0 >= 0 &&
    y0 <= 9 &&
    y1 >= 0 &&
    y1 <= 9 &&
    y2 >= 0 &&
    y2 <= 9 &&
    y3 >= 0 &&
    y3 <= 9 &&
    m0 >= 0 &&
    m0 <= 9 &&
    m1 >= 0 &&
    m1 <= 9 &&
    d0 >= 0 &&
    d0 <= 9 &&
    d1 >= 0 &&
    d1 <= 9
  if (!(digits && m >= 1 && m <= 12 && d >= 0)) {
    return Math.round(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / 86_400_000)
  }
  // Days from the civil date (H. Hinnant's algorithm): the engine reads two a day per record, so no Date is built.
  if (m <= 2) y--
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146_097 + doe - 719_468
}

/**
 * A function giving the calendar day in `zone` of an epoch ms. The zone's offset is looked up once
 * per quarter hour (offsets only ever change on quarter hours), so a million records cost little.
 */
export function dayInZone(zone: string): (ms: number) => string {
  const offsets = new Map<number, number>()
  return (ms) => {
    const bucket = Math.floor(ms / 900_000)
    let offset = offsets.get(bucket)
    if (offset === undefined) {
      offset = DateTime.fromMillis(bucket * 900_000, { zone }).offset
      offsets.set(bucket, offset)
    }
    return new Date(ms + offset * 60_000).toISOString().slice(0, 10)
  }
}

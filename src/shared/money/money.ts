// Exact money: integer minor units per ISO 4217 exponent, parsed from and written back to the API's major-unit decimals.
import { CURRENCY_EXPONENTS, isKnownCurrency } from './currencies'

export interface Money {
  /** Integer count of minor units (kobo, pesewas, cents, yen…); always a safe integer. */
  minor: number
  /** ISO 4217 code, upper case. */
  currency: string
}

export type MoneyErrorCode = 'unknown_currency' | 'invalid_amount' | 'too_many_decimals' | 'amount_too_large' | 'currency_mismatch'

export class MoneyError extends Error {
  readonly code: MoneyErrorCode
  constructor(code: MoneyErrorCode, message: string) {
    super(message)
    this.name = 'MoneyError'
    this.code = code
  }
}

/** The currency's ISO 4217 exponent; throws `unknown_currency` for anything not in the table. */
export function currencyExponent(currency: string): number {
  if (typeof currency !== 'string' || !isKnownCurrency(currency)) {
    throw new MoneyError(
      'unknown_currency',
      `Unknown currency code "${String(currency).slice(0, 12)}" (expected an ISO 4217 code such as NGN).`
    )
  }
  return CURRENCY_EXPONENTS[currency] as number
}

/** Plain decimal only: optional minus, digits, optional fraction. No exponent, sign '+', separators or spaces inside. */
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/

/**
 * Parses an amount in major units, as the API (JSON number) or a CSV cell (string) gives it, into
 * exact minor units. `"5.1"` GHS → 510; `5` JPY → 5; `"1.234"` KWD → 1234. Trailing zeros past the
 * exponent are accepted (`"5.10"` for JPY is refused, `"5.00"` for JPY is 5). Rejects NaN, Infinity,
 * exponent notation, too many decimals, unknown currencies, and values beyond exact integer range.
 */
export function parseMajor(value: number | string, currency: string): number {
  const exponent = currencyExponent(currency)
  let text: string
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new MoneyError('invalid_amount', `Amount ${String(value)} is not a finite number.`)
    // String() gives the shortest text that round-trips the double, i.e. the decimal the JSON carried.
    text = String(value)
  } else if (typeof value === 'string') {
    text = value.trim()
  } else {
    throw new MoneyError('invalid_amount', `Amount must be a number or a decimal string, not ${value === null ? 'null' : typeof value}.`)
  }
  const match = DECIMAL.exec(text)
  if (!match) {
    const shown = text.length > 30 ? `${text.slice(0, 30)}…` : text
    const hint = /e/i.test(text) ? ' (exponent notation is not accepted)' : ''
    throw new MoneyError('invalid_amount', `"${shown}" is not a plain decimal amount${hint}.`)
  }
  const [, sign, whole = '', fraction = ''] = match
  const significant = fraction.replace(/0+$/, '')
  if (significant.length > exponent) {
    throw new MoneyError('too_many_decimals', `${text} has ${significant.length} decimal place(s) but ${currency} allows ${exponent}.`)
  }
  const digits = (whole + significant.padEnd(exponent, '0')).replace(/^0+(?=\d)/, '')
  const minor = Number(digits)
  if (!Number.isSafeInteger(minor)) {
    throw new MoneyError('amount_too_large', `${text} ${currency} is too large to be held exactly.`)
  }
  return sign === '-' && minor !== 0 ? -minor : minor
}

/** The exact major-unit decimal string for minor units: 123450 NGN → "1234.50"; -5 JPY → "-5". */
export function toMajorString(minor: number, currency: string): string {
  const exponent = currencyExponent(currency)
  assertSafeMinor(minor)
  const negative = minor < 0
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0')
  const whole = digits.slice(0, digits.length - exponent)
  const fraction = digits.slice(digits.length - exponent)
  return `${negative ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`
}

/** One formatter per locale and currency: making an Intl.NumberFormat costs far more than using one (a table formats thousands of amounts). */
const formatters = new Map<string, Intl.NumberFormat>()

/** Locale display with the ISO code, e.g. "NGN 1,234.50" or "GHS 5.00", computed from the exact decimal string (no float). */
export function formatMoney(money: Money, locale?: string): string {
  const exponent = currencyExponent(money.currency)
  const key = `${locale ?? ''}|${money.currency}`
  let format = formatters.get(key)
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: money.currency,
      // One form on every screen: the ISO code ("NGN 5,000.00", "USD 5.00", "XOF 5,000"), never a symbol that some
      // currencies share ($) or that some locales spell out (F CFA).
      currencyDisplay: 'code',
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent
    })
    formatters.set(key, format)
  }
  // Intl.NumberFormat treats a string as an exact decimal.
  return format.format(toMajorString(money.minor, money.currency) as unknown as number)
}

function assertSafeMinor(minor: number): void {
  if (!Number.isSafeInteger(minor)) throw new MoneyError('invalid_amount', `${String(minor)} is not a whole number of minor units.`)
}

function checkedSum(a: number, b: number): number {
  const sum = a + b
  if (!Number.isSafeInteger(sum)) throw new MoneyError('amount_too_large', 'The total is too large to be held exactly.')
  return sum
}

export function money(minor: number, currency: string): Money {
  currencyExponent(currency)
  assertSafeMinor(minor)
  return { minor, currency }
}

export function addMoney(a: Money, b: Money): Money {
  if (a.currency !== b.currency) {
    throw new MoneyError('currency_mismatch', `Cannot add ${a.currency} and ${b.currency}.`)
  }
  return { minor: checkedSum(a.minor, b.minor), currency: a.currency }
}

/** Negative, zero or positive like a sort comparator; refuses to compare different currencies. */
export function compareMoney(a: Money, b: Money): number {
  if (a.currency !== b.currency) {
    throw new MoneyError('currency_mismatch', `Cannot compare ${a.currency} with ${b.currency}.`)
  }
  return Math.sign(a.minor - b.minor)
}

/** Totals per currency, currencies in first-seen order. */
export function sumByCurrency(items: Iterable<Money>): Map<string, number> {
  const totals = new Map<string, number>()
  for (const item of items) {
    assertSafeMinor(item.minor)
    totals.set(item.currency, checkedSum(totals.get(item.currency) ?? 0, item.minor))
  }
  return totals
}

/**
 * An amount as an accountant writes it in a sentence, the same on every machine: the code, then the
 * major units grouped by thousands ("NGN 1,409,040.84", "-GHS 5.00", "JPY 1,200").
 */
export function moneyText(minor: number, currency: string): string {
  const major = toMajorString(Math.abs(minor), currency)
  const [whole, fraction] = major.split('.') as [string, string | undefined]
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${minor < 0 ? '-' : ''}${currency} ${grouped}${fraction === undefined ? '' : `.${fraction}`}`
}

/** An amount as the provider sent it (major units, as text), written as every screen writes amounts ("NGN 1,250.50"); as sent when it cannot be read exactly. */
export function formatMajor(raw: string, currency: string, locale?: string): string {
  try {
    return formatMoney({ minor: parseMajor(raw, currency), currency }, locale)
  } catch {
    return `${raw} ${currency}`.trim()
  }
}

// Amounts as statements write them ("1,234.56", "1.234,56", "1 234,56", "(1,234.56)", "1,234.56-", "NGN 1,234.56", "₦1,234.56 CR") → exact minor units.
import { currencyExponent, isKnownCurrency, MoneyError, parseMajor, type MoneyErrorCode } from '../../../shared/money'
import type { DecimalMark } from '../../../shared/reconcile'

/** Symbols that name one currency without doubt; "$" and "¥" do not, so they are only stripped. */
const SYMBOLS: Record<string, string> = {
  '₦': 'NGN',
  '₵': 'GHS',
  'GH₵': 'GHS',
  '€': 'EUR',
  '£': 'GBP',
  KSh: 'KES',
  KShs: 'KES',
  Ksh: 'KES',
  US$: 'USD',
  R$: 'BRL',
  '₹': 'INR',
  '₩': 'KRW'
}
/** Longest first, so "GH₵" is found before "₵". */
const SYMBOLS_LONGEST_FIRST = Object.entries(SYMBOLS).sort((a, b) => b[0].length - a[0].length)
const LOOSE_SYMBOLS = ['$', '¥', '￥']
/** South Africa's rand written before the number ("R 1 234,56", "R-50.00"); a lone R anywhere else is no symbol. */
const RAND = /^R\s*(?=[-−–(\d])/
/** Only a cell with a character outside digits, separators, spaces and signs can hold a symbol or code. */
const BARE_NUMBER = /^[-+(]?[\d.,\s']*[)-]?$/

export interface AmountText {
  /** Digits and separators only, e.g. "1.234,56". */
  body: string
  negative: boolean
  /** A currency named in the cell (code or unambiguous symbol). */
  currency: string | null
  /** A DR/CR written after the amount. */
  side: 'debit' | 'credit' | null
}

export class AmountFormatError extends Error {
  constructor(
    readonly code: MoneyErrorCode,
    message: string
  ) {
    super(message)
  }
}

const SPACES = /[\s\u00a0\u202f\u2007']/g
/** A minus sign as typed or typeset: hyphen, U+2212 minus, or an en dash. */
const MINUS = /^[-−–]/
const MINUS_AFTER = /[-−–]$/

/** Splits a cell into sign, currency and the digits with their separators; null when it is empty. */
export function readAmountText(cell: string): AmountText | null {
  let text = cell.trim()
  if (text === '' || text === '-' || text === '—') return null
  if (BARE_NUMBER.test(text)) {
    // The common case, "1,234.56" or "-5.00": no symbol, code or DR/CR to look for.
    let negative = false
    if (text.startsWith('(') && text.endsWith(')')) {
      negative = true
      text = text.slice(1, -1).trim()
    }
    if (text.startsWith('-')) {
      negative = !negative
      text = text.slice(1).trim()
    } else if (text.startsWith('+')) text = text.slice(1).trim()
    if (text.endsWith('-')) {
      negative = !negative
      text = text.slice(0, -1).trim()
    }
    return { body: text.replace(SPACES, (s) => (s === "'" ? "'" : ' ')), negative, currency: null, side: null }
  }
  let negative = false
  let currency: string | null = null
  let side: AmountText['side'] = null
  const suffix = /\s*\b(DR|CR|D|C)\.?$/i.exec(text)
  if (suffix && /\d/.test(text.slice(0, suffix.index))) {
    side = (suffix[1] as string).toUpperCase().startsWith('D') ? 'debit' : 'credit'
    text = text.slice(0, suffix.index).trim()
  }
  if (text.startsWith('(') && text.endsWith(')')) {
    negative = true
    text = text.slice(1, -1).trim()
  }
  const code = /^([A-Za-z]{3})\s*(?=[-+(\d.,])|(?<=[\d.,)])\s*([A-Za-z]{3})$/.exec(text)
  if (code) {
    const found = (code[1] ?? code[2] ?? '').toUpperCase()
    if (isKnownCurrency(found)) {
      currency = found
      text = (code[1] ? text.slice(code[0].length) : text.slice(0, text.length - code[0].length)).trim()
    }
  }
  for (const [symbol, iso] of SYMBOLS_LONGEST_FIRST) {
    if (text.includes(symbol)) {
      currency ??= iso
      text = text.replace(symbol, '').trim()
      break
    }
  }
  if (currency === null && RAND.test(text)) {
    currency = 'ZAR'
    text = text.replace(RAND, '')
  }
  for (const symbol of LOOSE_SYMBOLS) if (text.includes(symbol)) text = text.replace(symbol, '').trim()
  if (text.startsWith('(') && text.endsWith(')')) {
    negative = !negative
    text = text.slice(1, -1).trim()
  }
  if (MINUS.test(text)) {
    negative = !negative
    text = text.slice(1).trim()
  } else if (text.startsWith('+')) text = text.slice(1).trim()
  if (MINUS_AFTER.test(text)) {
    negative = !negative
    text = text.slice(0, -1).trim()
  }
  // A sign may sit after the symbol: "₦-5.00", "NGN -5.00".
  if (text.startsWith('-')) {
    negative = !negative
    text = text.slice(1).trim()
  }
  const body = text.replace(SPACES, (s) => (s === "'" ? "'" : ' '))
  return { body, negative, currency, side }
}

/**
 * What one cell says about the decimal mark: '.' or ',' when it settles it, 'either' when it is
 * "1,234" / "1.234" (one separator, three digits after), 'none' when it has no separator.
 */
export function decimalVote(body: string): DecimalMark | 'either' | 'none' | 'invalid' {
  // One pass over the characters (a million cells): digits, '.', ',', and spaces or apostrophes that group.
  let dots = 0
  let commas = 0
  let lastDot = -1
  let lastComma = -1
  let digits = 0
  let firstDigitBeforeMark = false
  let length = 0
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i)
    if (c === 32 || c === 39) continue
    if (c >= 48 && c <= 57) {
      if (length === 0) firstDigitBeforeMark = true
      digits++
    } else if (c === 46) {
      dots++
      lastDot = length
    } else if (c === 44) {
      commas++
      lastComma = length
    } else return 'invalid'
    length++
  }
  if (digits === 0 || (!firstDigitBeforeMark && dots + commas !== 1)) return 'invalid'
  if (dots === 0 && commas === 0) return 'none'
  if (dots > 0 && commas > 0) return lastDot > lastComma ? '.' : ','
  const mark = dots > 0 ? '.' : ','
  // "1.234.567" groups thousands, so the decimal mark is the other one.
  if (dots + commas > 1) return mark === '.' ? ',' : '.'
  const at = mark === '.' ? lastDot : lastComma
  if (length - at - 1 === 3 && at > 0) return 'either'
  return mark
}

/** 1,234,567: one to three digits, then groups of three. */
function thousandsGroups(groups: readonly string[]): boolean {
  const first = (groups[0] as string).length
  return first >= 1 && first <= 3 && groups.every((g, i) => i === 0 || g.length === 3)
}

/** Currencies whose amounts are written in lakh groups; elsewhere "12,34,567" is a slip, not an amount. */
const LAKH_CURRENCIES = new Set(['INR', 'PKR', 'NPR', 'BDT', 'LKR'])

/** 12,34,567 (lakh and crore): one or two digits, groups of two, then a last group of three. */
function lakhGroups(groups: readonly string[]): boolean {
  const first = (groups[0] as string).length
  const last = groups.length - 1
  return (
    first >= 1 && first <= 2 && (groups[last] as string).length === 3 && groups.every((g, i) => i === 0 || i === last || g.length === 2)
  )
}

const GROUPS_DOT = /[ '.]/
const GROUPS_COMMA = /[ ',]/

/**
 * The exact minor units of `body` read with `mark` as the decimal mark; every other separator must
 * group thousands (three digits a group, or lakh groups in the currencies written so). Throws AmountFormatError naming what is wrong.
 */
export function parseAmountBody(body: string, mark: DecimalMark, currency: string): number {
  const fast = wellFormedMinor(body, mark, currencyExponent(currency))
  if (fast !== null) return fast
  const thousands = mark === '.' ? ',' : '.'
  const trimmed = body.trim()
  const at = trimmed.lastIndexOf(mark)
  const whole = at < 0 ? trimmed : trimmed.slice(0, at)
  const fraction = at < 0 ? '' : trimmed.slice(at + 1)
  if (whole.includes(mark)) throw new AmountFormatError('invalid_amount', `"${body}" has the decimal mark "${mark}" more than once.`)
  if (!/^\d*$/.test(fraction)) throw new AmountFormatError('invalid_amount', `"${body}" is not an amount.`)
  const groups = whole.split(thousands === '.' ? GROUPS_DOT : GROUPS_COMMA)
  if (groups.some((g) => !/^\d*$/.test(g))) throw new AmountFormatError('invalid_amount', `"${body}" is not an amount.`)
  if (groups.length > 1 && !thousandsGroups(groups) && !(LAKH_CURRENCIES.has(currency) && lakhGroups(groups))) {
    throw new AmountFormatError('invalid_amount', `"${body}" groups its digits wrongly for thousands separated by "${thousands}".`)
  }
  const digits = groups.join('')
  if (digits === '' && fraction === '') throw new AmountFormatError('invalid_amount', `"${body}" is not an amount.`)
  try {
    return parseMajor(`${digits || '0'}${fraction ? `.${fraction}` : ''}`, currency)
  } catch (error) {
    throw new AmountFormatError(error instanceof MoneyError ? error.code : 'invalid_amount', (error as Error).message)
  }
}

/**
 * Minor units of a well-formed amount ("1,234.56", "1234.5", "0.00") in one pass over its characters,
 * or null for anything else (spaces, odd grouping, too many decimals, too large), which the full
 * reading then names exactly.
 */
export function wellFormedMinor(body: string, mark: DecimalMark, exponent: number): number | null {
  const group = mark === '.' ? 44 : 46
  const decimal = mark === '.' ? 46 : 44
  let whole = 0
  let run = 0
  let groups = 0
  let fraction = 0
  let fractionDigits = 0
  let inFraction = false
  let digits = 0
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i)
    if (c >= 48 && c <= 57) {
      digits++
      if (!inFraction) {
        whole = whole * 10 + (c - 48)
        run++
      } else if (fractionDigits < exponent) {
        fraction = fraction * 10 + (c - 48)
        fractionDigits++
      } else if (c !== 48) return null
    } else if (c === group && !inFraction) {
      if (groups === 0 ? run < 1 || run > 3 : run !== 3) return null
      groups++
      run = 0
    } else if (c === decimal && !inFraction) {
      if (groups > 0 && run !== 3) return null
      inFraction = true
    } else return null
  }
  if (digits === 0 || (!inFraction && groups > 0 && run !== 3)) return null
  const scale = 10 ** exponent
  if (whole > Number.MAX_SAFE_INTEGER / scale) return null
  const minor = whole * scale + fraction * 10 ** (exponent - fractionDigits)
  return Number.isSafeInteger(minor) ? minor : null
}

/** The decimal mark the amount columns settle on, tallied cell by cell (null when no cell settles it; `ambiguous` then says a 3-decimal currency left it open). */
export class DecimalTally {
  private dot = 0
  private comma = 0
  private either = false
  /** Thousands grouped by spaces ("1 234,56") were seen: shown in the form. */
  spaces = false

  add(body: string, currency: string | null): void {
    const vote = decimalVote(body)
    if (vote === '.') this.dot++
    else if (vote === ',') this.comma++
    else if (vote === 'either') {
      // "1,234" in a currency with two decimals can only be thousands.
      if ((currency ? safeExponent(currency) : 2) < 3) {
        if (body.includes(',')) this.dot++
        else this.comma++
      } else this.either = true
    }
    if (!this.spaces && body.length > 4 && / \d{3}/.test(body)) this.spaces = true
  }

  choose(): { mark: DecimalMark | null; conflict: boolean; ambiguous: boolean } {
    if (this.dot > 0 && this.comma > 0) return { mark: this.dot >= this.comma ? '.' : ',', conflict: true, ambiguous: false }
    if (this.dot > 0) return { mark: '.', conflict: false, ambiguous: false }
    if (this.comma > 0) return { mark: ',', conflict: false, ambiguous: false }
    return { mark: null, conflict: false, ambiguous: this.either }
  }
}

function safeExponent(currency: string): number {
  try {
    return currencyExponent(currency)
  } catch {
    return 2
  }
}

/** How the chosen form is shown to the user: "1,234.56" or "1.234,56" (or with spaces for thousands). */
export function describeNumberForm(mark: DecimalMark, spaces: boolean): string {
  if (spaces) return mark === '.' ? '1 234.56' : '1 234,56'
  return mark === '.' ? '1,234.56' : '1.234,56'
}

/**
 * One amount as a format writes it, with either mark ("12,340", "-12,50", "1.234,56", "+1,000"),
 * as plain decimal text ("12340", "-12.50", "1234.56", "1000"): each separator decided by the
 * currency's decimals, the one rule every format follows. A lone separator before exactly three
 * digits groups thousands in a currency of fewer than three decimals; in one of three it could be
 * either, so the amount is not read (never guessed). Null with why when it is not an amount.
 */
export function decimalTextOf(text: string, currency: string | null): { value: string } | { why: string } {
  const t = readAmountText(text)
  if (t === null || t.currency !== null || t.side !== null || !/\d/.test(t.body))
    return { why: `"${text.trim()}" is not an amount (digits with one decimal mark)` }
  const known = currency !== null && isKnownCurrency(currency) ? currency : null
  const exponent = known === null ? 2 : currencyExponent(known)
  const vote = decimalVote(t.body)
  if (vote === 'invalid') return { why: `"${text.trim()}" is not an amount (digits with one decimal mark)` }
  if (vote === 'either' && exponent >= 3)
    return {
      why: `"${text.trim()}" reads both as thousands and as ${exponent} decimals in ${known ?? 'this currency'}: it is not read, never guessed`
    }
  const mark: DecimalMark = vote === ',' ? ',' : vote === '.' ? '.' : t.body.includes(',') ? '.' : ','
  try {
    // A currency Ledgerline does not know is read with two decimals; the line is then refused for its currency, not its amount.
    const minor = parseAmountBody(t.body, mark, known ?? 'USD')
    const digits = String(minor).padStart(exponent + 1, '0')
    const value = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
    return { value: t.negative && minor !== 0 ? `-${value}` : value }
  } catch (error) {
    return { why: (error as Error).message }
  }
}

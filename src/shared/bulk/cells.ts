// Rules for the cells both file kinds share: amounts read exactly from text, currency codes, and free text.
import { BULK_TRANSFER_RULES } from '../api/assumptions'
import { currencyExponent, isKnownCurrency, MoneyError, parseMajor } from '../money'
import { ProblemList, shown } from './problems'

const PLAIN = /^\d+(?:\.\d+)?$/
const SYMBOLS = /[₦₵$€£¥₹₩₽¢]|GH₵|\b[A-Z]{3}\b/i
const EXPONENT = /^[+-]?\d+(?:\.\d+)?e[+-]?\d+$/i

/**
 * The plain decimal a person most likely meant by an amount cell written with separators,
 * symbols or a decimal comma ("₦1,234.50" → "1234.50", "1.234,50" → "1234.50"), or null.
 */
export function plainAmount(cell: string): string | null {
  let text = cell
    .replace(/GH₵|[₦₵$€£¥₹₩₽¢]/g, '')
    .replace(/\b[A-Za-z]{3}\b/g, '')
    .replace(/[\s\u00a0\u202f']/g, '')
  if (text === '' || /[^\d.,]/.test(text)) return null
  const lastDot = text.lastIndexOf('.')
  const lastComma = text.lastIndexOf(',')
  // The later of the two separators is the decimal one when it has one or two digits after it.
  const decimal = Math.max(lastDot, lastComma)
  if (decimal !== -1 && text.length - decimal - 1 <= 2 && !(lastDot === -1 && /^\d{1,3}(,\d{3})+$/.test(text))) {
    text = text.slice(0, decimal).replace(/[.,]/g, '') + '.' + text.slice(decimal + 1)
  } else {
    text = text.replace(/[.,]/g, '')
  }
  return PLAIN.test(text) ? text : null
}

/**
 * The minor units of a plain amount ("1250", "1250.5") when it is the common case, read digit by
 * digit without allocating: at most 12 digits before the point and no more decimals than the
 * currency has (exponent ≤ 3, so the result stays far below 2^53). -1 for anything else.
 */
export function simpleMinor(cell: string, exponent: number): number {
  if (exponent > 3 || cell.length === 0) return -1
  let whole = 0
  let i = 0
  for (; i < cell.length; i++) {
    const c = cell.charCodeAt(i)
    if (c === 46) break
    if (c < 48 || c > 57 || i >= 12) return -1
    whole = whole * 10 + (c - 48)
  }
  if (i === 0) return -1
  let fraction = 0
  let decimals = 0
  if (i < cell.length) {
    for (i++; i < cell.length; i++, decimals++) {
      const c = cell.charCodeAt(i)
      if (c < 48 || c > 57 || decimals >= exponent) return -1
      fraction = fraction * 10 + (c - 48)
    }
    if (decimals === 0) return -1
  }
  for (; decimals < exponent; decimals++) fraction *= 10
  for (let e = 0; e < exponent; e++) whole *= 10
  return whole + fraction
}

/**
 * The exponents of the last two currencies seen: a file mixes a currency or two, and comparing
 * short strings costs less than a look-up keyed by a new string (which has to be hashed) per row.
 */
const recentExponents = { a: '', ea: 0, b: '', eb: 0 }
function exponentOf(currency: string): number {
  const r = recentExponents
  if (currency === r.a) return r.ea
  if (currency === r.b) return r.eb
  const exponent = currencyExponent(currency)
  r.b = r.a
  r.eb = r.ea
  r.a = currency
  r.ea = exponent
  return exponent
}

/**
 * Checks an amount cell in major units and returns its exact minor units, or null after reporting
 * why not. `currency` is the row's currency when it is valid; without it the amount is checked
 * for form only.
 */
export function checkAmount(
  cell: string,
  currency: string | null,
  row: number,
  column: string,
  problems: ProblemList,
  what = 'Amount'
): number | null {
  if (currency !== null) {
    const minor = simpleMinor(cell, exponentOf(currency))
    if (minor > 0) return minor
  }
  if (cell === '') {
    problems.error(row, column, 'amount_missing', `${what} is missing.`)
    return null
  }
  if (!PLAIN.test(cell)) {
    const plain = plainAmount(cell)
    const negative = /^\s*-|-\s*$|^\s*\(.*\)\s*$/.test(cell)
    if (negative) problems.error(row, column, 'amount_not_positive', `${what} ${shown(cell)} is negative; it must be greater than zero.`)
    else if (EXPONENT.test(cell))
      problems.error(
        row,
        column,
        'amount_not_a_number',
        `${what} ${shown(cell)} is in scientific notation, as a spreadsheet shows large numbers; type the full number.`
      )
    else if (plain !== null && SYMBOLS.test(cell))
      problems.error(
        row,
        column,
        'amount_has_currency',
        `${what} ${shown(cell)} holds a currency symbol or code; write the number alone (${plain}) and the currency in its own column.`
      )
    else if (plain !== null && /[,]/.test(cell) && !/\./.test(cell) && /,\d{1,2}$/.test(cell))
      problems.error(row, column, 'amount_has_separators', `${what} ${shown(cell)} uses a decimal comma; write ${plain}.`)
    else if (plain !== null)
      problems.error(row, column, 'amount_has_separators', `${what} ${shown(cell)} has thousands separators; write ${plain}.`)
    else
      problems.error(
        row,
        column,
        'amount_not_a_number',
        `${what} ${shown(cell)} is not a number; write digits with an optional decimal point, e.g. 2500.00.`
      )
    return null
  }
  if (currency === null) {
    if (/^[0.]+$/.test(cell)) problems.error(row, column, 'amount_not_positive', `${what} ${shown(cell)} must be greater than zero.`)
    return null
  }
  let minor: number
  try {
    minor = parseMajor(cell, currency)
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error
    if (error.code === 'too_many_decimals')
      problems.error(row, column, 'amount_too_many_decimals', `${what} ${shown(cell)} ${error.message.replace(/^\S+ /, '')}`)
    else if (error.code === 'amount_too_large')
      problems.error(row, column, 'amount_too_large', `${what} ${shown(cell)} is too large to be held exactly.`)
    return null
  }
  if (minor <= 0) {
    problems.error(row, column, 'amount_not_positive', `${what} ${shown(cell)} must be greater than zero.`)
    return null
  }
  return minor
}

/**
 * Checks a currency cell: an upper-case ISO 4217 code, and one of `allowed` when given. Returns
 * the code, or null after reporting the problem.
 */
export function checkCurrency(
  cell: string,
  allowed: readonly string[] | null,
  row: number,
  column: string,
  problems: ProblemList,
  purpose = ''
): string | null {
  if (cell === '') {
    problems.error(row, column, 'currency_missing', 'Currency is missing; write its ISO code, e.g. NGN.')
    return null
  }
  if (!/^[A-Z]{3}$/.test(cell)) {
    const upper = cell.toUpperCase()
    if (/^[A-Z]{3}$/.test(upper) && isKnownCurrency(upper))
      problems.error(row, column, 'currency_not_iso', `Currency ${shown(cell)} must be written in capitals: ${upper}.`)
    else problems.error(row, column, 'currency_not_iso', `Currency ${shown(cell)} is not an ISO 4217 code such as NGN or GHS.`)
    return null
  }
  if (!isKnownCurrency(cell)) {
    problems.error(row, column, 'currency_not_iso', `Currency ${shown(cell)} is not an ISO 4217 code such as NGN or GHS.`)
    return null
  }
  if (allowed && !allowed.includes(cell)) {
    problems.error(row, column, 'currency_not_supported', `Currency ${cell} is not supported${purpose}; use ${allowed.join(' or ')}.`)
    return null
  }
  return cell
}

const FORMULA_START = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/

/**
 * Checks a required text cell: present, not too long, on one line. A value a spreadsheet would
 * run as a formula is written with a leading apostrophe by the export: a warning for free text
 * (a name, a narration), an error for a `reference`, whose value must reach the provider as typed.
 */
export function checkText(
  cell: string,
  row: number,
  column: string,
  codePrefix: string,
  label: string,
  problems: ProblemList,
  reference = false
): boolean {
  const max = BULK_TRANSFER_RULES.maxText
  if (cell === '') {
    problems.error(row, column, `${codePrefix}_missing`, `${label} is missing.`)
    return false
  }
  if (cell.length > max) {
    problems.error(row, column, `${codePrefix}_too_long`, `${label} has ${cell.length} characters; at most ${max} are allowed.`)
    return false
  }
  if (cell.includes('\n') || cell.includes('\r')) {
    problems.error(row, column, `${codePrefix}_line_break`, `${label} ${shown(cell)} holds a line break; keep it on one line.`)
    return false
  }
  if (!FORMULA_START.test(cell[0] as string)) return true
  if (reference) {
    problems.error(
      row,
      column,
      'formula_start',
      `${label} ${shown(cell)} starts with "${cell[0]}", which a spreadsheet runs as a formula; start it with a letter or digit.`
    )
    return false
  }
  problems.warning(
    row,
    column,
    'formula_start',
    `${label} ${shown(cell)} starts with "${cell[0]}", which a spreadsheet runs as a formula; the export writes it with a leading apostrophe.`
  )
  return true
}

// The rules of a bulk plan file, one row at a time plus the checks across rows: the one source of truth for renderer, host and CLI.
import { PLAN_FREQUENCIES, PRICING_OPTIONS_FORMAT } from '../api/assumptions'
import { isKnownCurrency } from '../money'
import { checkAmount, checkCurrency, checkText } from './cells'
import { ProblemList, shown } from './problems'

export const FREQUENCY_CELLS = Object.keys(PLAN_FREQUENCIES) as (keyof typeof PLAN_FREQUENCIES)[]

/** What people write for a frequency, read to suggest the spec's word: the plan enum and its near misses. */
const FREQUENCY_HINTS: Record<string, string> = {
  day: 'daily',
  week: 'weekly',
  month: 'monthly',
  quarter: 'quarterly',
  biannual: 'biannually',
  semiannual: 'biannually',
  semiannually: 'biannually',
  halfyearly: 'biannually',
  annual: 'annually',
  yearly: 'annually',
  year: 'annually'
}

/** Cross-row state of one pass: titles and internal references seen so far (and the row of each). */
export interface PlanPass {
  titles: Map<string, number>
  references: Map<string, number>
}

export const newPlanPass = (): PlanPass => ({ titles: new Map(), references: new Map() })

/** One option of a pricingOptions cell, as written. */
export interface PricingOption {
  currency: string
  amount: string
}

/** Splits a pricingOptions cell per the pricing-options assumption (`NGN:5000.00;GHS:45.00`); null for a malformed pair. */
export function splitPricingOptions(cell: string): PricingOption[] | { malformed: string } {
  const options: PricingOption[] = []
  for (const pair of cell.split(PRICING_OPTIONS_FORMAT.pairSeparator)) {
    const trimmed = pair.trim()
    if (trimmed === '') continue
    const parts = trimmed.split(PRICING_OPTIONS_FORMAT.fieldSeparator)
    if (parts.length !== 2) return { malformed: trimmed }
    options.push({ currency: (parts[0] as string).trim(), amount: (parts[1] as string).trim() })
  }
  return options
}

function checkFrequency(cell: string, row: number, problems: ProblemList): void {
  if (cell === '') {
    problems.error(row, 'frequency', 'frequency_missing', `Frequency is missing; use one of ${FREQUENCY_CELLS.join(', ')}.`)
    return
  }
  if ((FREQUENCY_CELLS as string[]).includes(cell)) return
  const key = cell.toLowerCase().replace(/[\s_-]+/g, '')
  const suggestion = (FREQUENCY_CELLS as string[]).includes(key) ? key : FREQUENCY_HINTS[key]
  problems.error(
    row,
    'frequency',
    'frequency_invalid',
    `Frequency ${shown(cell)} is not one of ${FREQUENCY_CELLS.join(', ')}${suggestion ? `; write ${suggestion}` : ''}.`
  )
}

function checkPricingOptions(cell: string, row: number, problems: ProblemList): void {
  const column = 'pricingOptions'
  const example = 'NGN:5000.00;GHS:45.00'
  if (cell === '') {
    problems.error(
      row,
      column,
      'pricing_options_missing',
      `pricingOptions is missing; write one or more CURRENCY:AMOUNT pairs joined by ";", e.g. ${example}.`
    )
    return
  }
  const options = splitPricingOptions(cell)
  if (!Array.isArray(options) || options.length === 0) {
    const bad = Array.isArray(options) ? cell : options.malformed
    problems.error(
      row,
      column,
      'pricing_options_malformed',
      `pricingOptions ${shown(bad)} is not CURRENCY:AMOUNT; write pairs joined by ";", e.g. ${example}.`
    )
    return
  }
  const currencies = new Set<string>()
  for (const option of options) {
    if (!/^[A-Z]{3}$/.test(option.currency) || !isKnownCurrency(option.currency)) {
      problems.error(
        row,
        column,
        'pricing_options_currency',
        `pricingOptions: ${shown(option.currency)} is not an upper-case ISO currency code (the format is CURRENCY:AMOUNT, e.g. ${example}).`
      )
      return
    }
    if (currencies.has(option.currency)) {
      problems.error(
        row,
        column,
        'pricing_options_repeated_currency',
        `pricingOptions names ${option.currency} more than once; keep one price per currency.`
      )
      return
    }
    currencies.add(option.currency)
    const before = problems.items.length
    checkAmount(option.amount, option.currency, row, column, problems, `pricingOptions ${option.currency} amount`)
    if (problems.items.length > before) return
  }
}

/**
 * Checks one data row, given as cells in the spec's column order. `cachedReferences` are the
 * internalReferences of plans already in the cache (null when the caller has none). Returns the
 * amount in minor units when the amount and the currency are both valid (for totals), else -1.
 */
export function checkPlanRow(
  cells: readonly string[],
  row: number,
  cachedReferences: ReadonlySet<string> | null,
  pass: PlanPass,
  problems: ProblemList
): number {
  const [title = '', frequency = '', amountCell = '', currencyCell = '', reference = '', pricing = ''] = cells
  if (checkText(title, row, 'title', 'title', 'Title', problems)) {
    const key = title.toLowerCase()
    const earlier = pass.titles.get(key)
    if (earlier === undefined) pass.titles.set(key, row)
    else
      problems.error(
        row,
        'title',
        'title_repeated',
        `Title ${shown(title)} is already used on row ${earlier}; give each plan its own title.`
      )
  }
  checkFrequency(frequency, row, problems)
  const currency = checkCurrency(currencyCell, null, row, 'currency', problems)
  const minor = checkAmount(amountCell, currency, row, 'amount', problems)
  if (checkText(reference, row, 'internalReference', 'internal_reference', 'internalReference', problems, true)) {
    const earlier = pass.references.get(reference)
    if (earlier !== undefined)
      problems.error(
        row,
        'internalReference',
        'internal_reference_repeated',
        `internalReference ${shown(reference)} is already used on row ${earlier}; each plan needs its own.`
      )
    else if (cachedReferences?.has(reference))
      problems.error(
        row,
        'internalReference',
        'internal_reference_in_use',
        `internalReference ${shown(reference)} is already used by a plan in the cache; each plan needs its own.`
      )
    if (earlier === undefined) pass.references.set(reference, row)
  }
  checkPricingOptions(pricing, row, problems)
  return minor === null || currency === null ? -1 : minor
}

// How the Sandbox, playing the provider, checks bulk transfer and bulk plan CSV files row by row.
import Papa from 'papaparse'
import { BULK_FILE_LIMITS, PLAN_FREQUENCIES, PRICING_OPTIONS_FORMAT } from '../shared/api/assumptions'
import { BULK_COLUMNS } from '../shared/bulk/read'
import { MoneyError, parseMajor } from '../shared/money'
import { GHS_BANKS, major, NGN_BANKS } from './data'

export const TRANSFER_COLUMNS = BULK_COLUMNS.transfers
export const PLAN_COLUMNS = BULK_COLUMNS.plans
export const MAX_ROWS = BULK_FILE_LIMITS.maxRows

export interface RowFailure {
  /** 1-based data row (the header is not counted). */
  row: number
  /** 1-based line in the file, header included. */
  line: number
  field: string
  code: string
  message: string
}

export type FileProblem = { code: string; title: string }

export interface ParsedCsv {
  rows: Record<string, string>[]
}

export function parseCsv(text: string, required: readonly string[]): ParsedCsv | FileProblem {
  const body = text.replace(/^\uFEFF/, '')
  if (body.trim() === '') return { code: 'empty_file', title: 'The file is empty' }
  const parsed = Papa.parse<Record<string, string>>(body, { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim() })
  const headers = parsed.meta.fields ?? []
  const missing = required.filter((column) => !headers.includes(column))
  if (missing.length > 0) return { code: 'invalid_file', title: `Missing column(s): ${missing.join(', ')}` }
  if (parsed.data.length === 0) return { code: 'empty_file', title: 'The file has a header but no rows' }
  if (parsed.data.length > MAX_ROWS)
    return { code: 'too_many_rows', title: `The file has ${parsed.data.length} rows; at most ${MAX_ROWS} are accepted` }
  return { rows: parsed.data }
}

function checkAmount(value: string, currency: string, failures: Omit<RowFailure, 'row' | 'line'>[]): number | null {
  try {
    const minor = parseMajor(value, currency)
    if (minor <= 0) {
      failures.push({ field: 'amount', code: 'invalid_amount', message: 'Amount must be greater than zero' })
      return null
    }
    return minor
  } catch (error) {
    if (error instanceof MoneyError && error.code === 'unknown_currency') return null
    failures.push({
      field: 'amount',
      code: error instanceof MoneyError ? error.code : 'invalid_amount',
      message: error instanceof Error ? error.message : 'Invalid amount'
    })
    return null
  }
}

function located(row: number, list: Omit<RowFailure, 'row' | 'line'>[]): RowFailure[] {
  return list.map((f) => ({ row, line: row + 1, ...f }))
}

export function checkTransferRows(rows: Record<string, string>[]): RowFailure[] {
  const failures: RowFailure[] = []
  rows.forEach((raw, i) => {
    const row = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, (v ?? '').trim()]))
    const problems: Omit<RowFailure, 'row' | 'line'>[] = []
    const currency = row['currency'] ?? ''
    if (currency !== 'NGN' && currency !== 'GHS')
      problems.push({
        field: 'currency',
        code: 'unsupported_currency',
        message: `Currency "${currency}" is not supported for payouts (NGN or GHS)`
      })
    checkAmount(row['amount'] ?? '', currency === 'NGN' || currency === 'GHS' ? currency : 'NGN', problems)
    const banks = currency === 'GHS' ? GHS_BANKS : NGN_BANKS
    const bankCode = row['bank_code'] ?? ''
    if (!banks.some((b) => b['bankCode'] === bankCode))
      problems.push({
        field: 'bank_code',
        code: 'invalid_bank_code',
        message: `Bank code "${bankCode}" is not a ${currency || 'known'} bank`
      })
    const branch = row['branch_code'] ?? ''
    if (branch !== '' && !/^\d{3,9}$/.test(branch))
      problems.push({ field: 'branch_code', code: 'invalid_branch_code', message: 'Branch code must be 3 to 9 digits' })
    const account = row['account_number'] ?? ''
    const accountOk = currency === 'GHS' ? /^\d{8,16}$/.test(account) : /^\d{10}$/.test(account)
    if (!accountOk)
      problems.push({
        field: 'account_number',
        code: 'invalid_account_number',
        message: currency === 'GHS' ? 'Account number must be 8 to 16 digits' : 'Account number must be exactly 10 digits (NUBAN)'
      })
    const name = row['account_name'] ?? ''
    if (name === '' || name.length > 100)
      problems.push({ field: 'account_name', code: 'invalid_account_name', message: 'Account name is required (at most 100 characters)' })
    const narration = row['narration'] ?? ''
    if (narration === '' || narration.length > 100)
      problems.push({ field: 'narration', code: 'invalid_narration', message: 'Narration is required (at most 100 characters)' })
    failures.push(...located(i + 1, problems))
  })
  return failures
}

const PLAN_CURRENCIES = ['NGN', 'GHS', 'KES', 'ZAR', 'USD']

/** Reads a pricingOptions cell per the pricing-options assumption; returns null when malformed. */
export function parsePricingOptions(cell: string): { amount: number; currency: string }[] | null {
  const pairs = cell
    .split(PRICING_OPTIONS_FORMAT.pairSeparator)
    .map((p) => p.trim())
    .filter(Boolean)
  if (pairs.length === 0) return null
  const options: { amount: number; currency: string }[] = []
  for (const pair of pairs) {
    const [currency = '', amount = '', extra] = pair.split(PRICING_OPTIONS_FORMAT.fieldSeparator).map((s) => s.trim())
    if (extra !== undefined || !PLAN_CURRENCIES.includes(currency)) return null
    try {
      const minor = parseMajor(amount, currency)
      if (minor <= 0) return null
      options.push({ amount: major(minor, currency), currency })
    } catch {
      return null
    }
  }
  return options
}

export interface PlanRowResult {
  failures: RowFailure[]
  valid: { row: number; fields: Record<string, unknown> }[]
}

export function checkPlanRows(rows: Record<string, string>[], referenceInUse: (ref: string) => boolean): PlanRowResult {
  const failures: RowFailure[] = []
  const valid: PlanRowResult['valid'] = []
  const seen = new Set<string>()
  rows.forEach((raw, i) => {
    const row = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, (v ?? '').trim()]))
    const problems: Omit<RowFailure, 'row' | 'line'>[] = []
    const title = row['title'] ?? ''
    if (title === '' || title.length > 100)
      problems.push({ field: 'title', code: 'invalid_title', message: 'Title is required (at most 100 characters)' })
    const frequencyCell = (row['frequency'] ?? '').toLowerCase()
    const frequency = Object.hasOwn(PLAN_FREQUENCIES, frequencyCell)
      ? PLAN_FREQUENCIES[frequencyCell as keyof typeof PLAN_FREQUENCIES]
      : null
    if (!frequency)
      problems.push({
        field: 'frequency',
        code: 'invalid_frequency',
        message: `Frequency must be one of ${Object.keys(PLAN_FREQUENCIES).join(', ')}`
      })
    const currency = row['currency'] ?? ''
    if (!PLAN_CURRENCIES.includes(currency))
      problems.push({ field: 'currency', code: 'unsupported_currency', message: `Currency "${currency}" is not supported for plans` })
    const minor = checkAmount(row['amount'] ?? '', PLAN_CURRENCIES.includes(currency) ? currency : 'NGN', problems)
    const reference = row['internalReference'] ?? ''
    if (reference === '') problems.push({ field: 'internalReference', code: 'missing_parameter', message: 'internalReference is required' })
    else if (seen.has(reference) || referenceInUse(reference))
      problems.push({
        field: 'internalReference',
        code: 'duplicate_reference',
        message: `internalReference "${reference}" is already used`
      })
    seen.add(reference)
    const pricing = parsePricingOptions(row['pricingOptions'] ?? '')
    if (!pricing)
      problems.push({
        field: 'pricingOptions',
        code: 'invalid_pricing_options',
        message: 'pricingOptions must be CURRENCY:AMOUNT pairs joined by ";", e.g. NGN:5000.00;GHS:45.00'
      })
    if (problems.length > 0) failures.push(...located(i + 1, problems))
    else
      valid.push({
        row: i + 1,
        fields: {
          title,
          frequency,
          amount: major(minor as number, currency),
          currency,
          internalReference: reference,
          regions: [{ NGN: 'NG', GHS: 'GH', KES: 'KE', ZAR: 'ZA', USD: 'US' }[currency] ?? currency],
          pricingOptions: pricing
        }
      })
  })
  return { failures, valid }
}

// The rules of a bulk transfer (payout) file, one row at a time plus the checks across rows: the one source of truth for renderer, host and CLI.
import { BULK_TRANSFER_RULES } from '../api/assumptions'
import { checkAmount, checkCurrency, checkText } from './cells'
import { ProblemList, shown } from './problems'

/** The cached bank list: currency → bank code → bank name. A currency missing from the map has no cached list. */
export type BankDirectory = ReadonlyMap<string, ReadonlyMap<string, string>>

/**
 * Earlier payouts by account number and amount, in an open-addressed table of typed arrays: a
 * 100,000-row file allocates no key string, object or Map entry per row, and a hash collision is
 * always told apart by comparing the fields themselves.
 */
/** Where the compared cells are in a transfer row (the spec's column order). */
const CURRENCY = 1
const BANK = 2
const ACCOUNT = 4

class PayoutIndex {
  /** Open-addressed slots, two numbers each: the entry there (-1: empty) and its hash, side by side so a probe reads one place. */
  private slots: Int32Array
  private minors: Float64Array
  /** Each entry's row, as its cells (account number, bank code and currency are compared from there). */
  private readonly cells: (readonly string[])[] = []
  private rows: Int32Array

  /** `expected`: about how many rows the file has (the tables grow past it when needed). */
  constructor(expected: number) {
    let size = 1 << 10
    while (size < expected) size *= 2
    this.slots = new Int32Array(size * 4).fill(-1)
    this.minors = new Float64Array(size)
    this.rows = new Int32Array(size)
  }

  /** The account number's hash (from digitsHash) mixed with the amount. */
  private static hash(accountHash: number, minor: number): number {
    let h = Math.imul(accountHash ^ (minor % 0x100000000), 16777619)
    h = Math.imul(h ^ Math.floor(minor / 0x100000000), 16777619)
    return (h ^ (h >>> 15)) >>> 1
  }

  /**
   * The row of an earlier payout with the same account number, bank code, currency and amount, or
   * null after recording this one. `accountHash`: digitsHash of the row's account number.
   */
  earlier(cells: readonly string[], accountHash: number, minor: number, row: number): number | null {
    const account = cells[ACCOUNT] as string
    const hash = PayoutIndex.hash(accountHash, minor)
    const mask = (this.slots.length >> 1) - 1
    let slot = hash & mask
    for (let at = this.slots[slot * 2] as number; at !== -1; slot = (slot + 1) & mask, at = this.slots[slot * 2] as number) {
      if (this.slots[slot * 2 + 1] === hash && this.minors[at] === minor) {
        const other = this.cells[at] as readonly string[]
        if (other[ACCOUNT] === account && other[BANK] === cells[BANK] && other[CURRENCY] === cells[CURRENCY]) return this.rows[at] as number
      }
    }
    const index = this.cells.length
    if (index === this.rows.length) this.grow()
    this.minors[index] = minor
    this.rows[index] = row
    this.cells.push(cells)
    if ((index + 1) * 4 > this.slots.length) this.rehash()
    else {
      this.slots[slot * 2] = index
      this.slots[slot * 2 + 1] = hash
    }
    return null
  }

  private grow(): void {
    const size = this.rows.length * 2
    const minors = new Float64Array(size)
    minors.set(this.minors)
    this.minors = minors
    const rows = new Int32Array(size)
    rows.set(this.rows)
    this.rows = rows
  }

  /** Doubles the slots and places every entry again (the newest one included). */
  private rehash(): void {
    const old = this.slots
    this.slots = new Int32Array(old.length * 2).fill(-1)
    const mask = (this.slots.length >> 1) - 1
    const place = (at: number, hash: number): void => {
      let slot = hash & mask
      while (this.slots[slot * 2] !== -1) slot = (slot + 1) & mask
      this.slots[slot * 2] = at
      this.slots[slot * 2 + 1] = hash
    }
    for (let s = 0; s < old.length; s += 2) if ((old[s] as number) !== -1) place(old[s] as number, old[s + 1] as number)
    const newest = this.cells.length - 1
    place(newest, PayoutIndex.hash(digitsHash((this.cells[newest] as readonly string[])[ACCOUNT] as string), this.minors[newest] as number))
  }
}

/** Cross-row state of one pass over a file: earlier payouts, the currencies already warned about, and the currency cells already found valid. */
export interface TransferPass {
  payouts: PayoutIndex
  warnedNoBanks: Set<string>
  validCurrencies: Set<string>
  recentBanks: { a: string; la: ReadonlyMap<string, string> | undefined; b: string; lb: ReadonlyMap<string, string> | undefined }
  /** The currency cell of the last row whose currency was valid (null before the first). */
  lastValidCurrency: string | null
}

/** `expectedRows`: about how many rows the pass will see, so its tables are made once at the right size. */
export const newTransferPass = (expectedRows = 0): TransferPass => ({
  payouts: new PayoutIndex(expectedRows),
  warnedNoBanks: new Set(),
  validCurrencies: new Set(),
  recentBanks: { a: '', la: undefined, b: '', lb: undefined },
  lastValidCurrency: null
})

const DIGITS = /^\d+$/

/** FNV-1a of a text made only of digits, as a non-negative 31-bit number; -1 when it is empty or holds anything else. */
function digitsHash(text: string): number {
  if (text.length === 0) return -1
  let h = 0x811c9dc5 | 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 48 || c > 57) return -1
    h = Math.imul(h ^ c, 16777619)
  }
  return h >>> 1
}

/** Checks an account number; returns its digitsHash when it is valid (for the same-payee check), else -1 after reporting why. */
function checkAccountNumber(cell: string, currency: string | null, row: number, problems: ProblemList): number {
  const column = 'account_number'
  const length =
    currency === 'NGN' ? BULK_TRANSFER_RULES.accountDigits.NGN : currency === 'GHS' ? BULK_TRANSFER_RULES.accountDigits.GHS : null
  const hash = digitsHash(cell)
  if (hash !== -1 && (!length || (cell.length >= length.min && cell.length <= length.max))) return hash
  if (cell === '') {
    problems.error(row, column, 'account_number_missing', 'Account number is missing.')
    return -1
  }
  if (/^\d+(?:\.\d+)?e\+?\d+$/i.test(cell)) {
    problems.error(
      row,
      column,
      'account_number_scientific',
      `Account number ${shown(cell)} was turned into scientific notation by a spreadsheet and its digits are lost; type it again, formatted as text.`
    )
    return -1
  }
  if (/^\d+\.0+$/.test(cell)) {
    problems.error(
      row,
      column,
      'account_number_decimal',
      `Account number ${shown(cell)} has a decimal part: a spreadsheet stored it as a number. Write ${cell.replace(/\.0+$/, '')}, formatted as text.`
    )
    return -1
  }
  if (hash === -1) {
    const what = /[A-Za-z]/.test(cell) ? 'letters' : /\s/.test(cell) ? 'spaces' : 'characters other than digits'
    problems.error(row, column, 'account_number_not_digits', `Account number ${shown(cell)} has ${what}; it must be digits only.`)
    return -1
  }
  if (length && (cell.length < length.min || cell.length > length.max)) {
    const expected = length.min === length.max ? `${length.min}` : `${length.min} to ${length.max}`
    if (cell.length < length.min && length.min - cell.length <= 2) {
      const padded = cell.padStart(length.min, '0')
      problems.error(
        row,
        column,
        'account_number_leading_zero',
        `Account number ${shown(cell)} has ${cell.length} digits; ${currency} account numbers have ${expected}. A spreadsheet may have dropped leading zeros (${padded}?); format the column as text.`
      )
    } else {
      problems.error(
        row,
        column,
        'account_number_length',
        `Account number ${shown(cell)} has ${cell.length} digits; ${currency} account numbers have ${expected}${currency === 'NGN' ? ' (NUBAN)' : ''}.`
      )
    }
    return -1
  }
  return hash
}

function checkBankCode(
  cell: string,
  currency: string | null,
  row: number,
  banks: BankDirectory | null,
  pass: TransferPass,
  problems: ProblemList
): boolean {
  const column = 'bank_code'
  if (cell === '') {
    problems.error(row, column, 'bank_code_missing', 'Bank code is missing; pick the bank from the list.')
    return false
  }
  if (currency === null) return true
  // The lists of the last two currencies are tried before the directory (no hashing of a new key per row).
  let list: ReadonlyMap<string, string> | undefined
  if (currency === pass.recentBanks.a) list = pass.recentBanks.la
  else if (currency === pass.recentBanks.b) list = pass.recentBanks.lb
  else {
    list = banks?.get(currency)
    pass.recentBanks = { a: currency, la: list, b: pass.recentBanks.a, lb: pass.recentBanks.la }
  }
  if (!list || list.size === 0) {
    if (!pass.warnedNoBanks.has(currency)) {
      pass.warnedNoBanks.add(currency)
      problems.warning(
        row,
        column,
        'bank_list_missing',
        `No ${currency} bank list is cached, so ${currency} bank codes were not checked. Sync banks, then check again.`
      )
    }
    return true
  }
  if (list.has(cell)) return true
  for (const padded of [`0${cell}`, `00${cell}`]) {
    const name = /^\d+$/.test(cell) ? list.get(padded) : undefined
    if (name !== undefined) {
      problems.error(
        row,
        column,
        'bank_code_leading_zero',
        `Bank code ${shown(cell)} is not a ${currency} bank, but ${padded} (${name}) is: a spreadsheet may have dropped the leading zero.`
      )
      return false
    }
  }
  problems.error(
    row,
    column,
    'bank_code_unknown',
    `Bank code ${shown(cell)} is not in the cached ${currency} bank list (${list.size} banks); pick the bank from the list.`
  )
  return false
}

/**
 * Checks one data row, given as cells in the spec's column order. `row` is the spreadsheet row
 * number used in every problem. Returns the amount in minor units when the amount and the currency
 * are both valid (for totals), else -1.
 */
export function checkTransferRow(
  cells: readonly string[],
  row: number,
  banks: BankDirectory | null,
  pass: TransferPass,
  problems: ProblemList
): number {
  const amountCell = cells[0] ?? ''
  const currencyCell = cells[1] ?? ''
  const bankCode = cells[2] ?? ''
  const branchCode = cells[3] ?? ''
  const accountNumber = cells[4] ?? ''
  // The same currency as the row before is valid without a look-up (a string comparison, no hashing).
  let currency: string | null = currencyCell
  if (currencyCell !== pass.lastValidCurrency) {
    currency = pass.validCurrencies.has(currencyCell)
      ? currencyCell
      : checkCurrency(currencyCell, BULK_TRANSFER_RULES.currencies, row, 'currency', problems, ' for payouts')
    if (currency !== null) {
      pass.validCurrencies.add(currency)
      pass.lastValidCurrency = currency
    }
  }
  const minor = checkAmount(amountCell, currency, row, 'amount', problems)
  const bankOk = checkBankCode(bankCode, currency, row, banks, pass, problems)
  if (branchCode !== '') {
    if (!DIGITS.test(branchCode))
      problems.error(row, 'branch_code', 'branch_code_not_digits', `Branch code ${shown(branchCode)} must be digits only (or left empty).`)
    else if (branchCode.length > BULK_TRANSFER_RULES.maxBranchCode)
      problems.error(
        row,
        'branch_code',
        'branch_code_too_long',
        `Branch code ${shown(branchCode)} has ${branchCode.length} digits; at most ${BULK_TRANSFER_RULES.maxBranchCode}.`
      )
  }
  const accountHash = checkAccountNumber(accountNumber, currency, row, problems)
  checkText(cells[5] ?? '', row, 'account_name', 'account_name', 'Account name', problems)
  checkText(cells[6] ?? '', row, 'narration', 'narration', 'Narration', problems)
  if (minor === null || currency === null) return -1
  if (bankOk && accountHash !== -1) {
    const earlier = pass.payouts.earlier(cells, accountHash, minor, row)
    if (earlier !== null)
      problems.warning(
        row,
        'account_number',
        'duplicate_transfer',
        `Same account, bank and amount as row ${earlier}: is this payee paid twice?`
      )
  }
  return minor
}

// The rules of a bulk transfer (payout) file, one row at a time plus the checks across rows: the one source of truth for renderer, host and CLI.
import { BULK_TRANSFER_RULES } from '../api/assumptions'
import { checkAmount, checkCurrency, checkText } from './cells'
import { ProblemList, shown } from './problems'

/** The cached bank list: currency → bank code → bank name. A currency missing from the map has no cached list. */
export type BankDirectory = ReadonlyMap<string, ReadonlyMap<string, string>>

/** Cross-row state of one pass over a file: earlier rows by payee and amount, currencies already warned about. */
export interface TransferPass {
  seen: Map<string, number>
  warnedNoBanks: Set<string>
}

export const newTransferPass = (): TransferPass => ({ seen: new Map(), warnedNoBanks: new Set() })

function checkAccountNumber(cell: string, currency: string | null, row: number, problems: ProblemList): boolean {
  const column = 'account_number'
  if (cell === '') {
    problems.error(row, column, 'account_number_missing', 'Account number is missing.')
    return false
  }
  if (/^\d+(?:\.\d+)?e\+?\d+$/i.test(cell)) {
    problems.error(row, column, 'account_number_scientific', `Account number ${shown(cell)} was turned into scientific notation by a spreadsheet and its digits are lost; type it again, formatted as text.`)
    return false
  }
  if (/^\d+\.0+$/.test(cell)) {
    problems.error(row, column, 'account_number_decimal', `Account number ${shown(cell)} has a decimal part: a spreadsheet stored it as a number. Write ${cell.replace(/\.0+$/, '')}, formatted as text.`)
    return false
  }
  if (!/^\d+$/.test(cell)) {
    const what = /[A-Za-z]/.test(cell) ? 'letters' : /\s/.test(cell) ? 'spaces' : 'characters other than digits'
    problems.error(row, column, 'account_number_not_digits', `Account number ${shown(cell)} has ${what}; it must be digits only.`)
    return false
  }
  const length = currency === 'NGN' || currency === 'GHS' ? BULK_TRANSFER_RULES.accountDigits[currency] : null
  if (length && (cell.length < length.min || cell.length > length.max)) {
    const expected = length.min === length.max ? `${length.min}` : `${length.min} to ${length.max}`
    if (cell.length < length.min && length.min - cell.length <= 2) {
      const padded = cell.padStart(length.min, '0')
      problems.error(row, column, 'account_number_leading_zero', `Account number ${shown(cell)} has ${cell.length} digits; ${currency} account numbers have ${expected}. A spreadsheet may have dropped leading zeros (${padded}?); format the column as text.`)
    } else {
      problems.error(row, column, 'account_number_length', `Account number ${shown(cell)} has ${cell.length} digits; ${currency} account numbers have ${expected}${currency === 'NGN' ? ' (NUBAN)' : ''}.`)
    }
    return false
  }
  return true
}

function checkBankCode(cell: string, currency: string | null, row: number, banks: BankDirectory | null, pass: TransferPass, problems: ProblemList): boolean {
  const column = 'bank_code'
  if (cell === '') {
    problems.error(row, column, 'bank_code_missing', 'Bank code is missing; pick the bank from the list.')
    return false
  }
  if (currency === null) return true
  const list = banks?.get(currency)
  if (!list || list.size === 0) {
    if (!pass.warnedNoBanks.has(currency)) {
      pass.warnedNoBanks.add(currency)
      problems.warning(row, column, 'bank_list_missing', `No ${currency} bank list is cached, so ${currency} bank codes were not checked. Sync banks, then check again.`)
    }
    return true
  }
  if (list.has(cell)) return true
  for (const padded of [`0${cell}`, `00${cell}`]) {
    const name = /^\d+$/.test(cell) ? list.get(padded) : undefined
    if (name !== undefined) {
      problems.error(row, column, 'bank_code_leading_zero', `Bank code ${shown(cell)} is not a ${currency} bank, but ${padded} (${name}) is: a spreadsheet may have dropped the leading zero.`)
      return false
    }
  }
  problems.error(row, column, 'bank_code_unknown', `Bank code ${shown(cell)} is not in the cached ${currency} bank list (${list.size} banks); pick the bank from the list.`)
  return false
}

/**
 * Checks one data row, given as cells in the spec's column order. `row` is the spreadsheet row
 * number used in every problem. Returns the amount in minor units and its currency when both are
 * valid (for totals), else null.
 */
export function checkTransferRow(cells: readonly string[], row: number, banks: BankDirectory | null, pass: TransferPass, problems: ProblemList): { minor: number; currency: string } | null {
  const [amountCell = '', currencyCell = '', bankCode = '', branchCode = '', accountNumber = '', accountName = '', narration = ''] = cells
  const currency = checkCurrency(currencyCell, BULK_TRANSFER_RULES.currencies, row, 'currency', problems, ' for payouts')
  const minor = checkAmount(amountCell, currency, row, 'amount', problems)
  const bankOk = checkBankCode(bankCode, currency, row, banks, pass, problems)
  if (branchCode !== '') {
    if (!/^\d+$/.test(branchCode)) problems.error(row, 'branch_code', 'branch_code_not_digits', `Branch code ${shown(branchCode)} must be digits only (or left empty).`)
    else if (branchCode.length > BULK_TRANSFER_RULES.maxBranchCode) problems.error(row, 'branch_code', 'branch_code_too_long', `Branch code ${shown(branchCode)} has ${branchCode.length} digits; at most ${BULK_TRANSFER_RULES.maxBranchCode}.`)
  }
  const accountOk = checkAccountNumber(accountNumber, currency, row, problems)
  checkText(accountName, row, 'account_name', 'account_name', 'Account name', problems)
  checkText(narration, row, 'narration', 'narration', 'Narration', problems)
  if (minor === null || currency === null) return null
  if (bankOk && accountOk) {
    const key = `${currency}\u0000${bankCode}\u0000${accountNumber}\u0000${minor}`
    const earlier = pass.seen.get(key)
    if (earlier === undefined) pass.seen.set(key, row)
    else problems.warning(row, 'account_number', 'duplicate_transfer', `Same account, bank and amount as row ${earlier}: is this payee paid twice?`)
  }
  return { minor, currency }
}

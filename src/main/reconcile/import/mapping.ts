// Which statement column is which: header synonyms first, then what the values look like; presets are matched by a signature of the headers.
import { createHash } from 'node:crypto'
import { isKnownCurrency } from '../../../shared/money'
import type { MappedField } from '../../../shared/reconcile'
import { decimalVote, readAmountText } from './amounts'
import { readDateShape } from './dates'

/** Header words per field, most specific first (a header matching an earlier entry wins the field). */
export const HEADER_SYNONYMS: Record<MappedField, string[]> = {
  date: [
    'value date',
    'valuedate',
    'transaction date',
    'txn date',
    'trans date',
    'booking date',
    'posting date',
    'posted date',
    'date posted',
    'post date',
    'posted',
    'payment date',
    'date paid',
    'paid on',
    'paid at',
    'settlement date',
    'entry date',
    'order date',
    'invoice date',
    'created',
    'created at',
    'created on',
    'date created',
    'date/time',
    'datetime',
    'date time',
    'timestamp',
    'transaction time',
    'date',
    'date valeur',
    'date opération',
    'datum',
    'valutadatum',
    'buchungsdatum',
    'fecha',
    'fecha valor'
  ],
  reference: [
    'reference',
    'ref',
    'ref no',
    'reference no',
    'reference number',
    'transaction id',
    'transaction ref',
    'transaction reference',
    'transaction no',
    'transaction number',
    'txn id',
    'txn ref',
    'payment reference',
    'payment id',
    'payment ref',
    'customer reference',
    'your reference',
    'bank reference',
    'order id',
    'order reference',
    'order no',
    'order number',
    'order',
    'invoice',
    'invoice no',
    'invoice number',
    'document no',
    'document number',
    'doc no',
    'voucher',
    'voucher no',
    'receipt no',
    'id',
    'référence',
    'referenz',
    'referencia',
    'kenmerk'
  ],
  amount: [
    'amount',
    'transaction amount',
    'txn amount',
    'payment amount',
    'amount paid',
    'paid amount',
    'total',
    'order total',
    'grand total',
    'total amount',
    'total paid',
    'gross',
    'gross amount',
    'amt',
    'value',
    'net amount',
    'montant',
    'betrag',
    'importe',
    'bedrag'
  ],
  debit: [
    'debit',
    'debits',
    'debit amount',
    'withdrawal',
    'withdrawals',
    'money out',
    'paid out',
    'outflow',
    'dr',
    'soll',
    'débit',
    'cargo',
    'af'
  ],
  credit: [
    'credit',
    'credits',
    'credit amount',
    'deposit',
    'deposits',
    'money in',
    'paid in',
    'inflow',
    'cr',
    'haben',
    'crédit',
    'abono',
    'bij'
  ],
  indicator: [
    'dr/cr',
    'cr/dr',
    'd/c',
    'c/d',
    'debit/credit',
    'credit/debit',
    'dc',
    'drcr',
    'dr cr',
    'cr dr',
    'dr/cr indicator',
    'debit/credit indicator',
    'type',
    'transaction type',
    'sign',
    'direction',
    'soll/haben',
    's/h',
    'débit/crédit',
    'sens',
    'af/bij',
    'cargo/abono',
    'd/k',
    'debetas/kreditas',
    'w/m',
    'winien/ma'
  ],
  currency: [
    'currency',
    'ccy',
    'cur',
    'curr',
    'currency code',
    'iso currency',
    'devise',
    'währung',
    'moneda',
    'valuta',
    'valiuta',
    'valūta',
    'valuuta',
    'waluta',
    'měna'
  ],
  description: [
    'description',
    'details',
    'narration',
    'narrative',
    'transaction details',
    'transaction description',
    'payment details',
    'particulars',
    'memo',
    'remarks',
    'remark',
    'purpose',
    'notes',
    'note',
    'comment',
    'comments',
    'libellé',
    'libelle',
    'verwendungszweck',
    'buchungstext',
    'concepto',
    'omschrijving'
  ],
  // The balance after each line (a bank's running balance); "available" balances count holds, so they come last.
  balance: [
    'running balance',
    'balance',
    'ledger balance',
    'book balance',
    'closing balance',
    'balance after',
    'solde',
    'saldo',
    'kontostand',
    'available balance'
  ],
  counterparty: [
    'counterparty',
    'payee',
    'beneficiary',
    'payer',
    'paid by',
    'paid to',
    'customer',
    'customer name',
    'client',
    'billing name',
    'name',
    'account name',
    'sender',
    'recipient',
    'customer email',
    'email'
  ]
}

/** An indicator cell's word for money out or in: English, and the German, French, Dutch, Spanish, Lithuanian (D/K) and Polish (W/M) banks' own. */
export const INDICATOR_DEBIT = /^(d|dr|debit|db|out|withdrawal|-|s|soll|débit|af|cargo|w|debetas|winien)$/i
export const INDICATOR_CREDIT = /^(c|cr|credit|in|deposit|\+|h|haben|crédit|bij|abono|k|kreditas|ma)$/i

/** Headers that are recognised so they are never taken as an amount or a reference. */
const IGNORED = ['cheque no', 'check number', 'serial', 's/n', 'sn']

export function normaliseHeader(header: string): string {
  return header
    .toLowerCase()
    .replace(/[_\-.:#()]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/** A header as compared with the synonyms: normalised, and without a currency code after it ("Amount (NGN)" → "amount"). */
function headerWords(header: string): string {
  const h = normaliseHeader(header)
  const after = codeAfterWords(h)
  return after === null ? h : after.words
}

/** The currency a header names after its words ("Amount (NGN)", "Debit EUR"), or null. */
export function currencyOfHeader(header: string): string | null {
  return codeAfterWords(normaliseHeader(header))?.code ?? null
}

/** A normalised header's words and the known currency code after them, or null when it ends in none. */
function codeAfterWords(normalised: string): { words: string; code: string } | null {
  const m = /^(.*\S)\s+([a-z]{3})$/.exec(normalised)
  const code = m?.[2]?.toUpperCase()
  return m && code !== undefined && isKnownCurrency(code) ? { words: m[1] as string, code } : null
}

/** The field a header names, or null (unknown or a column to ignore such as a running balance). */
export function fieldOfHeader(header: string): MappedField | 'ignored' | null {
  const h = headerWords(header)
  if (h === '') return null
  for (const [field, words] of Object.entries(HEADER_SYNONYMS) as [MappedField, string[]][]) if (words.includes(h)) return field
  if (IGNORED.includes(h) || h.endsWith(' balance')) return 'ignored'
  return null
}

/** How many cells of a row look like statement headers: finds the header row under a bank's header block. */
export function headerScore(cells: readonly string[]): number {
  let score = 0
  for (const cell of cells) {
    const field = fieldOfHeader(cell)
    if (field !== null) score++
  }
  return score
}

/**
 * Guesses the mapping from the headers, then fills gaps from the values of the first rows: a date
 * column where most cells are dates, an amount column where most are amounts (never a balance).
 */
export function guessColumns(header: readonly string[], sample: readonly (readonly string[])[]): Partial<Record<MappedField, string>> {
  const chosen: Partial<Record<MappedField, string>> = {}
  const taken = new Set<number>()
  const fields = Object.keys(HEADER_SYNONYMS) as MappedField[]
  // Earlier synonyms are more specific: "value date" beats "posting date" beats "date".
  for (const field of fields) {
    let best: { index: number; rank: number } | null = null
    header.forEach((h, index) => {
      if (taken.has(index)) return
      const rank = (HEADER_SYNONYMS[field] as string[]).indexOf(headerWords(h))
      if (rank >= 0 && (best === null || rank < best.rank)) best = { index, rank }
    })
    if (best !== null) {
      const index = (best as { index: number }).index
      chosen[field] = header[index] as string
      taken.add(index)
    }
  }
  const ignored = new Set(header.map((h, i) => (fieldOfHeader(h) === 'ignored' ? i : -1)).filter((i) => i >= 0))
  const share = (index: number, test: (cell: string) => boolean): number => {
    const cells = sample.map((row) => (row[index] ?? '').trim()).filter((c) => c !== '')
    return cells.length === 0 ? 0 : cells.filter(test).length / cells.length
  }
  const isSide = (c: string): boolean => INDICATOR_DEBIT.test(c) || INDICATOR_CREDIT.test(c)
  const indicator = chosen.indicator === undefined ? -1 : header.indexOf(chosen.indicator)
  if (indicator >= 0 && share(indicator, isSide) < 0.5) {
    // A "Type" column of words (POS, Transfer) is no debit/credit indicator; a stray bad value in a real one is a row problem.
    taken.delete(indicator)
    delete chosen.indicator
  }
  const free = header.map((_, i) => i).filter((i) => !taken.has(i) && !ignored.has(i))
  if (!chosen.date) {
    const index = free.find((i) => share(i, (c) => readDateShape(c) !== null) >= 0.8)
    if (index !== undefined) {
      chosen.date = header[index] as string
      taken.add(index)
    }
  }
  if (!chosen.amount && !chosen.debit && !chosen.credit) {
    // Of the columns of amounts, the first with decimals (a count of items or a quantity has none).
    const amounts = free.filter((i) => !taken.has(i) && share(i, looksLikeAmount) >= 0.8)
    const index = amounts.find((i) => share(i, (c) => /\d[.,]\d{1,3}\b/.test(c)) >= 0.5) ?? amounts[0]
    if (index !== undefined) {
      chosen.amount = header[index] as string
      taken.add(index)
    }
  }
  if (chosen.amount && !chosen.debit && !chosen.credit && !chosen.indicator) {
    // A column of DR/CR words beside a single amount column, whatever its header says. Words only:
    // a column of "-" placeholders is no indicator.
    const index = free.find((i) => !taken.has(i) && share(i, (c) => /[a-z]/i.test(c) && isSide(c)) >= 0.9)
    if (index !== undefined) {
      chosen.indicator = header[index] as string
      taken.add(index)
    }
  }
  if (!chosen.description) {
    // The column with the longest text on average.
    let best = -1
    let length = 0
    for (const i of free) {
      if (taken.has(i)) continue
      const average = sample.reduce((sum, row) => sum + (row[i] ?? '').length, 0) / Math.max(1, sample.length)
      if (average > length && share(i, (c) => /[A-Za-z]{3}/.test(c)) >= 0.5) {
        best = i
        length = average
      }
    }
    if (best >= 0) chosen.description = header[best] as string
  }
  return chosen
}

function looksLikeAmount(cell: string): boolean {
  if (readDateShape(cell)) return false
  const text = readAmountText(cell)
  return text !== null && decimalVote(text.body) !== 'invalid'
}

/** A signature of the header row: presets are reapplied to files whose headers match it. */
export function headerSignature(header: readonly string[]): string {
  return createHash('sha256').update(header.map(normaliseHeader).join('\u001f')).digest('hex')
}

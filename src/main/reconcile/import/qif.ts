// Quicken Interchange Format (QIF) → a grid of one row per transaction, read like any CSV (the date order and the currency are asked when the file does not settle them): QIF states neither.
import type { StatementMapping } from '../../../shared/reconcile'
import type { Grid } from './table'

export const QIF_MAPPING: StatementMapping = {
  columns: { date: 'Date', amount: 'Amount', reference: 'Number', description: 'Memo', counterparty: 'Payee' },
  dateOrder: null,
  decimalMark: null,
  defaultCurrency: null,
  encoding: null,
  separator: null
}

/**
 * One row per "^"-ended record of a bank, cash or card account, on the line of its first field.
 * QIF writes dates as "1/ 5'24" (an apostrophe for years 2000 on) or "01/05/2024": made "1/5/2024".
 * An "Opening Balance" record is the statement's opening balance, not a transaction.
 */
export function readQifGrid(text: string): Grid {
  const rows: string[][] = []
  const lines: number[] = []
  const opening: string[][] = []
  let record: Record<string, string> = {}
  let start = 0
  let investment = false
  const source = text.split(/\r\n|\r|\n/)
  const finish = (): void => {
    if (Object.keys(record).length === 0) return
    const payee = record['P'] ?? ''
    const date = qifDate(record['D'] ?? '')
    const amount = (record['T'] ?? record['U'] ?? '').trim()
    if (/^opening balance$/i.test(payee.trim()) && opening.length === 0 && rows.length === 0) opening.push(['Opening balance', amount])
    else {
      const memo = [record['M'], record['split']].filter(Boolean).join(' ')
      rows.push([date, amount, record['N'] ?? '', payee, memo, record['L'] ?? '', record['C'] ?? ''])
      lines.push(start)
    }
    record = {}
  }
  for (let i = 0; i < source.length; i++) {
    const line = (source[i] as string).replace(/\s+$/, '')
    if (line === '') continue
    if (line.startsWith('!')) {
      finish()
      investment = /^!Type:(Invst|Memorized|Cat|Class|Prices)/i.test(line)
      continue
    }
    if (investment) continue
    if (line === '^') {
      finish()
      continue
    }
    if (Object.keys(record).length === 0) start = i + 1
    const code = line[0] as string
    const value = line.slice(1).trim()
    // Split lines (S category, E memo, $ amount) are parts of the one transaction: kept in its memo.
    if (code === 'S' || code === 'E' || code === '$') record['split'] = [record['split'], value].filter(Boolean).join(' ')
    else if (!(code in record)) record[code] = value
  }
  finish()
  // The opening balance and the header are no line of the file (line 0).
  const header = ['Date', 'Amount', 'Number', 'Payee', 'Memo', 'Category', 'Cleared']
  return { rows: [...opening, header, ...rows], lines: [...opening.map(() => 0), 0, ...lines], separator: null, sheet: null }
}

/** "1/ 5'24" → "1/5/2024"; "12/31'2023" → "12/31/2023"; "31.12.2023" stays; others as written. */
function qifDate(text: string): string {
  const t = text.replace(/\s+/g, '')
  const m = /^(\d{1,2})[/.-](\d{1,2})'(\d{1,4})$/.exec(t)
  if (m) return `${m[1]}/${m[2]}/${(m[3] as string).length <= 2 ? 2000 + Number(m[3]) : m[3]}`
  return t
}

// Quicken Interchange Format (QIF) → a grid of one row per transaction, read like any CSV (the date order and the currency are asked when the file does not settle them): QIF states neither.
import type { StatementMapping } from '../../../shared/reconcile'
import { notAStatement } from './sniff'
import type { Grid } from './table'

export const QIF_MAPPING: StatementMapping = {
  columns: { date: 'Date', amount: 'Amount', reference: 'Number', description: 'Memo', counterparty: 'Payee' },
  dateOrder: null,
  decimalMark: null,
  defaultCurrency: null,
  encoding: null,
  separator: null
}

/** Sections whose records are not a bank, cash or card account's transactions. */
const NOT_TRANSACTIONS = /^!Type:(Invst|Memorized|Cat|Class|Prices|Security)/i

/**
 * One row per "^"-ended record of a bank, cash or card account, on the line of its first field.
 * QIF writes dates as "1/ 5'24" (an apostrophe for years 2000 on) or "01/05/2024": made "1/5/2024".
 * An "Opening Balance" record (the first of its account's transactions) is the statement's opening
 * balance, not a transaction. Records that are no transaction (an "!Account" list, such as
 * "!Option:AutoSwitch" frames; investment, category and memorised sections) are set aside, each
 * named on its line: never read as a line, never dropped silently.
 */
export function readQifGrid(text: string, name: string): Grid {
  const rows: string[][] = []
  const lines: number[] = []
  const opening: string[][] = []
  const setAside: { line: number; reason: string }[] = []
  const unreadable = new Map<number, { reason: string; text: string }>()
  let record: Record<string, string> = {}
  let start = 0
  /** The record's lines as the file has them, and whether a date or an amount came twice in it (two records run together). */
  let raw: string[] = []
  let twice: string | null = null
  /** What the records being read are: transactions, accounts (a list of them, or the account the next transactions are of), or another section's. */
  let section: 'transactions' | 'accounts' | 'other' = 'transactions'
  let otherName = ''
  /** Whether the account being read has had a transaction yet (its first may be its opening balance). */
  let firstOfAccount = true
  const source = text.split(/\r\n|\r|\n/)
  const finish = (): void => {
    if (Object.keys(record).length === 0) return
    if (section === 'accounts') {
      setAside.push({
        line: start,
        reason: `account record${record['N'] ? ` "${record['N']}"` : ''}${record['T'] ? ` (${record['T']})` : ''}, not a transaction`
      })
      // The account named last: the transactions that follow are its, and the first may be its opening balance.
      firstOfAccount = true
    } else if (section === 'other') setAside.push({ line: start, reason: `${otherName} record, not a bank transaction` })
    else if (twice !== null) {
      // Two transactions run together (a "^" between them lost): neither is guessed, both are named on the record's first line.
      unreadable.set(rows.length, {
        reason: `This record holds two ${twice === 'D' ? 'dates' : 'amounts'}: two transactions run together (a "^" between them is missing); it is not read.`,
        text: raw.join(' | ')
      })
      rows.push([qifDate(record['D'] ?? ''), '', record['N'] ?? '', record['P'] ?? '', '', '', ''])
      lines.push(start)
      firstOfAccount = false
    } else {
      const payee = record['P'] ?? ''
      const date = qifDate(record['D'] ?? '')
      const amount = (record['T'] ?? record['U'] ?? '').trim()
      if (/^opening balance$/i.test(payee.trim()) && firstOfAccount && opening.length === 0) opening.push(['Opening balance', amount])
      else {
        const memo = [record['M'], record['split']].filter(Boolean).join(' ')
        rows.push([date, amount, record['N'] ?? '', payee, memo, record['L'] ?? '', record['C'] ?? ''])
        lines.push(start)
      }
      firstOfAccount = false
    }
    record = {}
    raw = []
    twice = null
  }
  for (let i = 0; i < source.length; i++) {
    const line = (source[i] as string).replace(/\s+$/, '')
    if (line === '') continue
    if (line.startsWith('!')) {
      finish()
      // "!Option:AutoSwitch" and "!Clear:AutoSwitch" only frame an account list; the "!Account" and "!Type:" headers say what follows.
      if (/^!Account/i.test(line)) section = 'accounts'
      else if (NOT_TRANSACTIONS.test(line)) {
        section = 'other'
        otherName = line.slice(6)
      } else if (/^!Type:/i.test(line)) section = 'transactions'
      continue
    }
    if (line === '^') {
      finish()
      continue
    }
    if (Object.keys(record).length === 0) start = i + 1
    raw.push(line)
    const code = line[0] as string
    const value = line.slice(1).trim()
    if ((code === 'D' || code === 'T' || code === 'U') && code in record && !(code === 'U' && 'T' in record))
      twice ??= code === 'U' ? 'T' : code
    // Split lines (S category, E memo, $ amount) are parts of the one transaction: kept in its memo.
    if (code === 'S' || code === 'E' || code === '$') record['split'] = [record['split'], value].filter(Boolean).join(' ')
    else if (!(code in record)) record[code] = value
  }
  finish()
  // Only another kind of account's records (an investment account's, a category list): nothing here is a bank statement.
  const others = [
    ...new Set(setAside.filter((a) => a.reason.endsWith('not a bank transaction')).map((a) => a.reason.replace(/ record, .*$/, '')))
  ]
  if (rows.length === 0 && opening.length === 0 && others.length > 0)
    throw notAStatement(
      name,
      `a QIF file of ${others.map((o) => (/^Invst$/i.test(o) ? 'an investment account (!Type:Invst)' : `!Type:${o} records`)).join(' and ')}, with no bank, cash or card transaction`
    )
  // The opening balance and the header are no line of the file (line 0).
  const header = ['Date', 'Amount', 'Number', 'Payee', 'Memo', 'Category', 'Cleared']
  return {
    rows: [...opening, header, ...rows],
    lines: [...opening.map(() => 0), 0, ...lines],
    separator: null,
    sheet: null,
    setAside,
    // Rows by their place in the grid: under the opening balance (when there is one) and the header.
    ...(unreadable.size > 0 ? { unreadable: new Map([...unreadable].map(([k, v]) => [opening.length + 1 + k, v])) } : {})
  }
}

/** "1/ 5'24" → "1/5/2024"; "12/31'2023" → "12/31/2023"; "31.12.2023" stays; others as written. */
function qifDate(text: string): string {
  const t = text.replace(/\s+/g, '')
  const m = /^(\d{1,2})[/.-](\d{1,2})'(\d{1,4})$/.exec(t)
  if (m) return `${m[1]}/${m[2]}/${(m[3] as string).length <= 2 ? 2000 + Number(m[3]) : m[3]}`
  return t
}

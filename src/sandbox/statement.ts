// A sample bank statement for the Sandbox's own payments, with the differences a real one has, so a new user can try reconciliation with no key and no file of their own.
import { DateTime } from 'luxon'
import { normalizePaymentStatus } from '../shared/api/assumptions'
import { parseMajor, toMajorString } from '../shared/money'
import { SeededData, type SandboxMode, type SeedOptions } from './data'

export interface SampleStatementOptions {
  /** The business time zone the statement's days are in (the profile's). */
  timeZone: string
  mode?: SandboxMode
}

/** One difference the sample holds on purpose, with what reconciliation should make of it. */
export interface SampleDifference {
  kind: 'missing' | 'amount-off' | 'settlement' | 'bank-charge' | 'duplicate' | 'no-reference'
  /** The statement line (1-based, as a spreadsheet shows it), when the difference is on one. */
  line: number | null
  references: string[]
  expected: string
}

/** One line of the sample as every format writes it: signed amount and the balance after it, in kobo. */
export interface SampleEntry {
  day: string
  reference: string
  narration: string
  amountMinor: number
  balanceMinor: number
}

export interface SampleStatement {
  csv: string
  /** The same statement for the other formats: its lines, balances and account. */
  entries: SampleEntry[]
  openingMinor: number
  closingMinor: number
  account: string
  /** The day the statement covers, in the time zone asked for. */
  day: string
  currency: 'NGN'
  lines: number
  differences: SampleDifference[]
  /** How to reconcile it: the settings the statement needs. */
  netOfFees: true
}

interface Paid {
  reference: string
  name: string | null
  channel: string
  ms: number
  /** What reached the account: the amount less the provider's fees, in kobo. */
  netMinor: number
}

const CURRENCY = 'NGN'
/** The CSV's first transaction line: below an eight-line bank header block and the column header. */
export const FIRST_ROW_LINE = 10

/** 1234567 kobo → "12,345.67", as banks print amounts. */
export function printed(minor: number): string {
  const [whole, fraction] = toMajorString(minor, CURRENCY).split('.') as [string, string | undefined]
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${(fraction ?? '').padEnd(2, '0')}`
}

/** A reference as people key it into a bank app: sometimes in lower case, sometimes with spaces. */
function keyed(reference: string, n: number): string {
  if (n % 5 === 1) return reference.toLowerCase()
  if (n % 5 === 3) return ` ${reference.replace('-', ' - ')} `
  return reference
}

/**
 * The NGN account statement for the day before the newest of the Sandbox's seeded payments in `timeZone`:
 * every successful payment credited net of its fees, one line each, except a missing payment, one
 * credited 100.00 short, the day's mobile-money payments settled in one line, a bank charge, a line
 * posted twice, and one payer who left the reference out (named in the narration instead).
 */
export function sampleStatement(seed: SeedOptions, options: SampleStatementOptions): SampleStatement {
  const data = new SeededData(seed, options.mode ?? 'test')
  const dayOf = (ms: number): string => DateTime.fromMillis(ms, { zone: options.timeZone }).toISODate() as string
  if (!DateTime.local().setZone(options.timeZone).isValid) throw new Error(`Unknown time zone "${options.timeZone}"`)
  const byDay = new Map<string, Paid[]>()
  for (let i = 0; i < seed.payments; i++) {
    const p = data.payment(i)
    if (p['currency'] !== CURRENCY || normalizePaymentStatus(p['status']) !== 'successful') continue
    const ms = Date.parse(String(p['createdAt']))
    const day = dayOf(ms)
    const list = byDay.get(day) ?? []
    byDay.set(day, list)
    const amount = parseMajor(p['amount'] as number, CURRENCY)
    const fees = parseMajor((p['totalFees'] as number | undefined) ?? 0, CURRENCY)
    const name = ((p['bankDetails'] as { accountName?: string } | undefined)?.accountName ?? null) as string | null
    list.push({ reference: String(p['reference']), name, channel: String(p['channel']), ms, netMinor: amount - fees })
  }
  // The day before the newest: the newest is cut off by the seed's last moment.
  const days = [...byDay.keys()].sort()
  const day = days.length >= 2 ? (days[days.length - 2] as string) : days[0]
  if (day === undefined) throw new Error('The Sandbox has no successful NGN payments to put on a statement')
  const paid = (byDay.get(day) as Paid[]).sort((a, b) => a.ms - b.ms || (a.reference < b.reference ? -1 : 1))
  // Mobile money settles in one line a day (when there are two or more to settle).
  const momo = paid.filter((p) => p.channel === 'mobile_money')
  const settled = momo.length >= 2 ? momo : []
  const single = paid.filter((p) => !settled.includes(p))
  if (single.length < 8)
    throw new Error(`The Sandbox has too few NGN payments on ${day} for a sample statement; start it with more payments`)

  interface Line {
    ms: number
    reference: string
    narration: string
    debit: number
    credit: number
    note?: Omit<SampleDifference, 'line'>
  }
  const lines: Line[] = []
  const differences: SampleDifference[] = []
  // Chosen by position, spread over the day, so every seed gives each kind of difference.
  const at = (share: number): Paid => single[Math.floor(single.length * share)] as Paid
  const missing = at(0.2)
  const short = at(0.4)
  const twice = at(0.6)
  const unnamed = single.slice(Math.floor(single.length * 0.8)).find((p) => p.name) ?? null
  differences.push({
    kind: 'missing',
    line: null,
    references: [missing.reference],
    expected: 'only in the provider records: paid, but not on the statement'
  })
  single.forEach((p, n) => {
    if (p === missing) return
    const narration =
      p.channel === 'card' ? `POS/WEB SETTLEMENT ${p.reference}` : `NIP TRANSFER FROM ${(p.name ?? 'CUSTOMER').toUpperCase()}`
    if (p === unnamed) {
      lines.push({
        ms: p.ms,
        reference: '',
        narration: `TRANSFER FROM ${(p.name as string).toUpperCase()}`,
        debit: 0,
        credit: p.netMinor,
        note: {
          kind: 'no-reference',
          references: [p.reference],
          expected: 'suggested: same amount and day, the payer named in the narration (accept it)'
        }
      })
      return
    }
    if (p === short) {
      lines.push({
        ms: p.ms,
        reference: keyed(p.reference, n),
        narration,
        debit: 0,
        credit: p.netMinor - 10_000,
        note: {
          kind: 'amount-off',
          references: [p.reference],
          expected: 'amount differs: credited 100.00 less than the payment net of fees'
        }
      })
      return
    }
    lines.push({ ms: p.ms, reference: keyed(p.reference, n), narration, debit: 0, credit: p.netMinor })
    if (p === twice)
      lines.push({
        ms: p.ms + 60_000,
        reference: keyed(p.reference, n + 1),
        narration,
        debit: 0,
        credit: p.netMinor,
        note: {
          kind: 'duplicate',
          references: [p.reference],
          expected:
            'duplicate in the file: the bank posted this payment twice (one of the two lines is matched, the other is the duplicate)'
        }
      })
  })
  const end = DateTime.fromISO(day, { zone: options.timeZone }).endOf('day').toMillis()
  if (settled.length > 0) {
    const last = settled[settled.length - 1] as Paid
    lines.push({
      ms: Math.min(last.ms + 3_600_000, end - 60_000),
      reference: '',
      narration: `MOMO SETTLEMENT ${day}`,
      debit: 0,
      credit: settled.reduce((sum, p) => sum + p.netMinor, 0),
      note: {
        kind: 'settlement',
        references: settled.map((p) => p.reference),
        expected: `suggested group: the day's ${settled.length} mobile-money payments in one line, net of fees`
      }
    })
  }
  lines.push({
    ms: end,
    reference: '',
    narration: 'SMS ALERT CHARGES',
    debit: 5_250,
    credit: 0,
    note: { kind: 'bank-charge', references: [], expected: 'only in the file: a bank charge no provider record explains' }
  })
  lines.sort((a, b) => a.ms - b.ms)

  const statement = writtenStatement(
    day,
    lines.map((l) => ({ reference: l.reference, narration: l.narration, amountMinor: l.credit - l.debit }))
  )
  lines.forEach((l, k) => {
    if (l.note) differences.push({ ...l.note, line: FIRST_ROW_LINE + k })
  })
  return { ...statement, differences, netOfFees: true }
}

/** One line of a statement to write: its reference as keyed, narration, and signed amount in kobo. */
export interface StatementLineInput {
  reference: string
  narration: string
  amountMinor: number
}

/** A CSV cell: quoted (its quotes doubled) when it holds a comma, a quote or a line break. */
const csvCell = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text)

/**
 * A statement of these lines on `day`, as the Sandbox's bank writes it: the CSV (an eight-line
 * header block, the column header, one row per line with its running balance, the closing
 * balance), and the entries every other format is written from. Tests write random statements
 * through it to read them back in every format.
 */
export function writtenStatement(
  day: string,
  lines: readonly StatementLineInput[],
  openingMinor = 1_000_000_00,
  account = '0123456789'
): Omit<SampleStatement, 'differences' | 'netOfFees'> {
  const dayFirst = DateTime.fromISO(day).toFormat('dd/MM/yyyy')
  const header = [
    'SANDBOX TEST BANK PLC',
    'Statement of account',
    'Account name,LEDGERLINE SANDBOX MERCHANT',
    `Account number,${account}`,
    `Currency,${CURRENCY}`,
    `Period,${dayFirst} to ${dayFirst}`,
    `Opening balance,"${printed(openingMinor)}"`,
    ''
  ]
  let balance = openingMinor
  const entries: SampleEntry[] = []
  const rows = lines.map((l) => {
    balance += l.amountMinor
    entries.push({ day, reference: l.reference.trim(), narration: l.narration, amountMinor: l.amountMinor, balanceMinor: balance })
    const cell = (minor: number): string => (minor === 0 ? '' : `"${printed(minor)}"`)
    return [
      dayFirst,
      dayFirst,
      csvCell(l.reference),
      csvCell(l.narration),
      cell(l.amountMinor < 0 ? -l.amountMinor : 0),
      cell(l.amountMinor > 0 ? l.amountMinor : 0),
      `"${printed(balance)}"`
    ].join(',')
  })
  const csv = [
    ...header,
    'Txn Date,Value Date,Reference,Narration,Debit,Credit,Balance',
    ...rows,
    `,,,Closing balance,,,"${printed(balance)}"`,
    ''
  ].join('\r\n')
  return { csv, entries, openingMinor, closingMinor: balance, account, day, currency: CURRENCY, lines: rows.length }
}

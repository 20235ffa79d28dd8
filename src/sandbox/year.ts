// A year of the Sandbox's payments and the bank statements that show them, month by month, as learning meets them: customers who pay every month about the same day, often the same amount as others, whom the bank names by a nickname or their business; one-off payers; the bank's SMS charges and transfer levies. Each line comes with its answer.
import { DateTime } from 'luxon'
import { toMajorString } from '../shared/money'
import { major } from './data'
import { indexedUuid, pick, stream } from './random'

export interface YearOptions {
  seed: number
  year: number
  /** Customers who pay every month (default 24). */
  customers?: number
  /** One-off payers a month (default 8). */
  oneOffs?: number
}

/** How the bank's line names a customer: as the provider does, by a nickname, or by their business. */
export type YearNaming = 'full' | 'nickname' | 'business'

export interface YearCustomer {
  name: string
  email: string
  /** How the bank writes them ("TUNDE ADE"). */
  says: string
  naming: YearNaming
  /** What they pay each month, in kobo (null: a different amount each month). */
  fixedMinor: number | null
  /** The day of the month they usually pay. */
  day: number
}

/** What a statement line is, for whoever checks a reconciliation of it: the payment it shows (by reference), or the bank's own charge. */
export interface YearAnswer {
  /** The line in the file, 1-based as a spreadsheet shows it. */
  line: number
  kind: 'payment' | 'bank_charge' | 'levy'
  reference: string | null
}

export interface YearMonth {
  /** YYYY-MM */
  month: string
  from: string
  to: string
  /** The statement's file name and its CSV. */
  file: string
  csv: string
  /** The provider's payments of the month, as the API gives them. */
  payments: Record<string, unknown>[]
  answers: YearAnswer[]
}

export interface StatementYear {
  account: string
  currency: 'NGN'
  timeZone: 'Africa/Lagos'
  customers: YearCustomer[]
  months: YearMonth[]
}

const NICKNAMES: readonly (readonly [string, string])[] = [
  ['Babatunde', 'TUNDE'],
  ['Oluwaseun', 'SEUN'],
  ['Chukwuemeka', 'EMEKA'],
  ['Olufunmilayo', 'FUNMI'],
  ['Adebayo', 'BAYO'],
  ['Oluwafemi', 'FEMI'],
  ['Chiamaka', 'AMAKA'],
  ['Temitope', 'TOPE'],
  ['Oluwatobi', 'TOBI'],
  ['Ifeoluwa', 'IFE'],
  ['Kwabena', 'KOBBY'],
  ['Akosua', 'AKOS'],
  ['Oluwakemi', 'KEMI'],
  ['Abimbola', 'BIMBO'],
  ['Chinwendu', 'WENDY'],
  ['Nnamdi', 'NAMDI']
]
const LAST = [
  'Adeyemi',
  'Okafor',
  'Mensah',
  'Bello',
  'Eze',
  'Owusu',
  'Nwosu',
  'Boateng',
  'Balogun',
  'Asante',
  'Okonkwo',
  'Agyeman',
  'Danjuma',
  'Lawal'
]
const BUSINESS = ['VENTURES', 'STORES', 'ENTERPRISES', 'GLOBAL', 'AND SONS']
/** Amounts many customers pay: on the amount and the day alone, one line has rivals. */
const COMMON_AMOUNTS = [1_500_000, 2_500_000, 5_000_000, 1_250_000, 3_000_000]
const SMS_CHARGE_MINOR = -5_250
const LEVY_MINOR = -5_000
/** A transfer in of this much or more bears the electronic money transfer levy. */
const LEVY_FROM_MINOR = 1_000_000

/** 1234567 kobo → "12345.67". */
const text = (minor: number): string => toMajorString(minor, 'NGN')

/** The year's customers, payments and statements, the same for the same seed and year. */
export function statementYear(options: YearOptions): StatementYear {
  const rand = stream(options.seed, 9001, options.year)
  const customers: YearCustomer[] = []
  const used = new Set<string>()
  for (let k = 0; customers.length < (options.customers ?? 24) && k < 10_000; k++) {
    const [first, nick] = pick(rand, NICKNAMES)
    const last = pick(rand, LAST)
    if (used.has(`${first} ${last}`)) continue
    used.add(`${first} ${last}`)
    const r = rand()
    const naming: YearNaming = r < 0.5 ? 'nickname' : r < 0.7 ? 'business' : 'full'
    const says =
      naming === 'nickname'
        ? `${nick} ${last.slice(0, 3).toUpperCase()}`
        : naming === 'business'
          ? `${nick} ${pick(rand, BUSINESS)}`
          : `${first} ${last}`.toUpperCase()
    customers.push({
      name: `${first} ${last}`,
      email: `${first[0]?.toLowerCase()}.${last.toLowerCase()}${customers.length + 1}@example.com`,
      says,
      naming,
      fixedMinor: rand() < 0.7 ? pick(rand, COMMON_AMOUNTS) : null,
      day: 1 + Math.floor(rand() * 24)
    })
  }
  const account = `01${String(options.seed % 100_000_000).padStart(8, '0')}`
  let balance = 25_000_000
  let paymentNo = 0
  const months: YearMonth[] = []
  for (let m = 1; m <= 12; m++) {
    const start = DateTime.fromObject({ year: options.year, month: m, day: 1 }, { zone: 'UTC' })
    const month = start.toFormat('yyyy-MM')
    const last = start.daysInMonth ?? 28
    const lines: { day: string; reference: string; description: string; minor: number; answer: Omit<YearAnswer, 'line'> }[] = []
    const payments: Record<string, unknown>[] = []
    const pay = (who: { name: string; email: string; says: string }, day: number, minor: number): void => {
      paymentNo++
      const reference = `YR${options.year}-${String(paymentNo).padStart(5, '0')}`
      const paid = start.set({ day: Math.min(day, last) })
      payments.push({
        id: indexedUuid(options.seed, 9001, options.year, paymentNo),
        reference,
        amount: major(minor, 'NGN'),
        currency: 'NGN',
        localAmount: major(minor, 'NGN'),
        localCurrency: 'NGN',
        totalFees: 0,
        channel: 'bank_transfer',
        status: 'successful',
        mode: 'TEST',
        createdAt: `${paid.toFormat('yyyy-MM-dd')}T09:00:00.000Z`,
        metadata: { customerName: who.name, customerEmail: who.email }
      })
      // The bank posts it the same day or up to two days on, within the month; a third of payers write the reference.
      const posted = paid.plus({ days: Math.floor(rand() * 3) })
      const within = posted.month === m ? posted : start.set({ day: last })
      const writesReference = rand() < 0.3
      lines.push({
        day: within.toFormat('yyyy-MM-dd'),
        reference: writesReference ? reference : '',
        description: `NIP TRF FROM ${who.says}/${String(Math.floor(rand() * 1e9)).padStart(9, '0')}`,
        minor,
        answer: { kind: 'payment', reference }
      })
    }
    for (const c of customers) {
      if (rand() < 0.08) continue // a month they did not pay
      const minor = c.fixedMinor ?? 500_000 + Math.floor(rand() * 40) * 100_000
      pay(c, Math.min(c.day + Math.floor(rand() * 2), 26), minor)
    }
    for (let k = 0; k < (options.oneOffs ?? 8); k++) {
      const [first, nick] = pick(rand, NICKNAMES)
      const lastName = pick(rand, LAST)
      const once = {
        name: `${first} ${lastName}`,
        email: `${first.toLowerCase()}.${lastName.toLowerCase()}.${month}.${k}@example.net`,
        says: rand() < 0.7 ? `${first} ${lastName}`.toUpperCase() : `${nick} ${lastName.slice(0, 3).toUpperCase()}`
      }
      pay(once, 1 + Math.floor(rand() * 26), rand() < 0.5 ? pick(rand, COMMON_AMOUNTS) : 300_000 + Math.floor(rand() * 90) * 50_000)
    }
    lines.sort((a, b) => a.day.localeCompare(b.day) || a.description.localeCompare(b.description))
    const levied = lines.filter((l) => l.minor >= LEVY_FROM_MINOR).length
    const endDay = start.set({ day: last }).toFormat('yyyy-MM-dd')
    lines.push({
      day: endDay,
      reference: '',
      description: `SMS ALERT CHARGES ${start.toFormat('LLL yyyy').toUpperCase()}`,
      minor: SMS_CHARGE_MINOR,
      answer: { kind: 'bank_charge', reference: null }
    })
    if (levied > 0)
      lines.push({
        day: endDay,
        reference: '',
        description: `ELECTRONIC MONEY TRANSFER LEVY X${levied}`,
        minor: LEVY_MINOR * levied,
        answer: { kind: 'levy', reference: null }
      })
    const opening = balance
    balance += lines.reduce((n, l) => n + l.minor, 0)
    // Three lines of the bank's header, then the column header: the first transaction is line 5.
    const csv = [
      `Account number,${account}`,
      'Currency,NGN',
      `Opening balance,${text(opening)}`,
      'Date,Reference,Description,Amount',
      ...lines.map((l) => `${l.day},${l.reference},${l.description},${text(l.minor)}`),
      `Closing balance,${text(balance)}`
    ]
    months.push({
      month,
      from: start.toFormat('yyyy-MM-dd'),
      to: endDay,
      file: `statement-${month}.csv`,
      csv: `${csv.join('\n')}\n`,
      payments,
      answers: lines.map((l, k) => ({ line: k + 5, ...l.answer }))
    })
  }
  return { account, currency: 'NGN', timeZone: 'Africa/Lagos', customers, months }
}

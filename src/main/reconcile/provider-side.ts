// The provider side of a session, read from the cache: payments, payouts (debits), expected subscription charges, or virtual accounts' expected amounts.
import type Database from 'better-sqlite3'
import { DateTime } from 'luxon'
import type { ReconSource, SessionInfo } from '../../shared/reconcile'
import { dayBoundary } from '../../shared/time'
import type { EngineProvider, Party } from './match/types'
import { dayInZone } from './import/dates'
import { PAYMENT_ROWID_SLOTS, paymentRowidBase } from '../cache/store'

export interface SourceFilter {
  /** Payouts: the bulk files whose transfers are reconciled. */
  bulkFileIds?: string[]
  /** Payouts: single transfers by reference. */
  references?: string[]
}

export interface ProviderSideQuery {
  profileId: string
  source: ReconSource
  filter: SourceFilter
  /** Inclusive calendar days in the business time zone. */
  from: string
  to: string
  timeZone: string
  /**
   * Days the match window reaches past the period: records this many days before its first day and
   * after its last are read too, marked outsidePeriod, so a line on the 1st can be explained by a
   * payment of the 31st. Only those a line claims become items.
   */
  reach?: { before: number; after: number }
}

export interface ProviderSide {
  records: EngineProvider[]
  /** Records left out because their amount could not be read exactly (an unknown currency, say). */
  unreadable: number
  /** How the records' days were found where the API gives none. */
  notes: string[]
}

export function loadProviderSide(db: Database.Database, q: ProviderSideQuery): ProviderSide {
  if (dayBoundary(q.from, q.timeZone, false) === null || dayBoundary(q.to, q.timeZone, true) === null)
    throw new Error(`The period ${q.from} to ${q.to} is not two days`)
  // The days read: the period and the window's reach past it (payouts are chosen by file, not by day).
  const read = { ...q, from: shiftDay(q.from, -(q.reach?.before ?? 0)), to: shiftDay(q.to, q.reach?.after ?? 0) }
  const start = dayBoundary(read.from, q.timeZone, false) as number
  const end = dayBoundary(read.to, q.timeZone, true) as number
  const dayOf = dayInZone(q.timeZone)
  const side = ((): ProviderSide => {
    switch (q.source) {
      case 'payments':
        return payments(db, read, start, end, dayOf)
      case 'payouts':
        return payouts(db, q, dayOf)
      case 'subscriptions':
        return subscriptionCharges(db, read)
      case 'virtual-accounts':
        return virtualAccounts(db, read, start, end, dayOf)
    }
  })()
  // Set on every record, true or false, so all of them keep one shape in the engine's loops.
  for (const r of side.records) r.outsidePeriod = outsideThePeriod(q.source, r.day, q)
  return side
}

/**
 * The provider side a session's run reads: its snapshot when it has one (a session shared in a team
 * workspace, replayed without an API key), else from the cache: its source and period, and the
 * records the match window reaches past it (a line may be dated up to daysAfter past its record, or
 * daysBefore ahead of it).
 */
export function sessionProviderSide(db: Database.Database, session: SessionInfo): ProviderSide {
  const snapshot = db.prepare('select side from recon_provider_snapshots where session_id = ?').pluck().get(session.id) as
    string | undefined
  if (snapshot !== undefined) return JSON.parse(snapshot) as ProviderSide
  return loadProviderSide(db, {
    profileId: session.profileId,
    source: session.source,
    filter: session.filter,
    from: session.from,
    to: session.to,
    timeZone: session.timeZone,
    reach: { before: session.settings.daysAfter, after: session.settings.daysBefore }
  })
}

/**
 * Who a record is with, as learned evidence keeps it: its identifier (an email, an account number,
 * else the name) in lower case, and the name with it as a person reads it.
 */
export function partyOf(name: string | null, id: string | null): { party?: Party } {
  const n = name?.trim() || null
  const i = id?.trim() || null
  const key = (i ?? n)?.toLowerCase().replace(/\s+/g, ' ')
  if (!key) return {}
  return { party: { key, label: n && i ? `${n} (${i})` : (n ?? (i as string)) } }
}

/** Whether a record's day lies outside the period; never for payouts, which are chosen by file, not by day. */
export function outsideThePeriod(source: ReconSource, day: string, period: { from: string; to: string }): boolean {
  return source !== 'payouts' && (day < period.from || day > period.to)
}

/** The calendar day `days` after (or before) a YYYY-MM-DD day. */
export function shiftDay(day: string, days: number): string {
  return days === 0 ? day : DateTime.fromISO(day, { zone: 'UTC' }).plus({ days }).toFormat('yyyy-MM-dd')
}

/** The columns a payment is read with, in the order `payments` takes them. */
const PAYMENT_COLUMNS =
  'id, reference, service_reference, amount_minor, fees_minor, currency, status, channel, created_at_ms, customer_name, customer_email, account_number'

/**
 * The payments of a stretch of time (bound as the first and last rowid, the profile, the first and
 * the end millisecond). Ledgerline stores a payment under its time (paymentRowidBase), so the
 * period's payments are one stretch of the table, read in the order it is stored: through the time
 * index, a million rows were a million look-ups scattered over the table. The '+' keeps SQLite from
 * choosing an index instead. The stretch runs to the end of the last millisecond's slots and the
 * times are compared as well: a payment with no time has slot 0, one past the year 2248 the last slot.
 */
export const PERIOD_PAYMENTS = `select ${PAYMENT_COLUMNS} from payments
  where seq between ? and ? and +profile_id = ? and +created_at_ms >= ? and +created_at_ms < ?`

/** A profile's payments of a stretch of time, through the time index (bound as the profile, the first and the end millisecond). */
const IN_PERIOD_BY_INDEX = 'profile_id = ? and created_at_ms >= ? and created_at_ms < ?'

/** The same payments through the time index: what is read when the stretch does not hold them all. */
const PERIOD_PAYMENTS_BY_INDEX = `select ${PAYMENT_COLUMNS} from payments where ${IN_PERIOD_BY_INDEX}`

type PaymentRow = [
  string,
  string | null,
  string | null,
  number | null,
  number | null,
  string,
  string,
  string | null,
  number,
  string | null,
  string | null,
  string | null
]

function payments(db: Database.Database, q: ProviderSideQuery, start: number, end: number, dayOf: (ms: number) => string): ProviderSide {
  // How many there are, counted apart through the time index (it holds every column counted): the
  // stretch is trusted only when it read exactly as many, so a payment stored under another rowid
  // (a cache written by other software) is never left out in silence.
  const expected = db.prepare(`select count(*) from payments where ${IN_PERIOD_BY_INDEX}`).pluck().get(q.profileId, start, end) as number
  const fast = readPayments(
    db
      .prepare(PERIOD_PAYMENTS)
      .raw(true)
      .iterate(
        paymentRowidBase(start),
        paymentRowidBase(end) + BigInt(PAYMENT_ROWID_SLOTS - 1),
        q.profileId,
        start,
        end
      ) as Iterable<PaymentRow>,
    dayOf
  )
  if (fast.read === expected) return fast.side
  return readPayments(db.prepare(PERIOD_PAYMENTS_BY_INDEX).raw(true).iterate(q.profileId, start, end) as Iterable<PaymentRow>, dayOf).side
}

function readPayments(rows: Iterable<PaymentRow>, dayOf: (ms: number) => string): { side: ProviderSide; read: number } {
  const records: EngineProvider[] = []
  let unreadable = 0
  let read = 0
  for (const [id, reference, serviceReference, amount, fees, currency, status, channel, ms, name, email, account] of rows) {
    read++
    if (amount === null) {
      unreadable++
      continue
    }
    records.push({
      id,
      reference,
      serviceReference,
      day: dayOf(ms),
      amountMinor: amount,
      feesMinor: fees ?? 0,
      currency,
      status,
      channel,
      text: [name, email, account].filter(Boolean).join(' ') || null,
      ...partyOf(name, email ?? account)
    })
  }
  return { side: { records, unreadable, notes: [] }, read }
}

/** Transfers carry no date in the API: a transfer's day is its own createdAt when the server sent one, else the day its bulk file (or reference) was followed. */
function payouts(db: Database.Database, q: ProviderSideQuery, dayOf: (ms: number) => string): ProviderSide {
  const files = q.filter.bulkFileIds ?? []
  const refs = q.filter.references ?? []
  if (files.length === 0 && refs.length === 0) throw new Error('A payouts session needs at least one bulk file or transfer reference')
  const rows = db
    .prepare(
      `select t.reference, t.service_reference, t.amount_minor, t.currency, t.status, t.transfer_mode, t.account_name, t.account_number, t.narration,
              json_extract(t.raw, '$.createdAt') as created_at, coalesce(b.added_at, k.added_at) as followed_at
       from transfers t
       left join bulk_files b on b.profile_id = t.profile_id and b.id = t.bulk_file_id
       left join tracked k on k.profile_id = t.profile_id and k.kind = 'transfer' and k.value = t.reference
       where t.profile_id = ? and (t.bulk_file_id in (select value from json_each(?)) or t.reference in (select value from json_each(?)))
       order by t.reference`
    )
    .all(q.profileId, JSON.stringify(files), JSON.stringify(refs)) as {
    reference: string
    service_reference: string | null
    amount_minor: number | null
    currency: string
    status: string
    transfer_mode: string | null
    account_name: string | null
    account_number: string | null
    narration: string | null
    created_at: string | null
    followed_at: string | null
  }[]
  const records: EngineProvider[] = []
  let unreadable = 0
  let undated = 0
  for (const r of rows) {
    if (r.amount_minor === null) {
      unreadable++
      continue
    }
    const created = r.created_at ? Date.parse(r.created_at) : NaN
    const followed = r.followed_at ? Date.parse(r.followed_at) : NaN
    if (!Number.isFinite(created)) undated++
    const ms = Number.isFinite(created) ? created : Number.isFinite(followed) ? followed : Date.parse(`${q.from}T00:00:00Z`)
    records.push({
      id: r.reference,
      reference: r.reference,
      serviceReference: r.service_reference,
      day: dayOf(ms),
      amountMinor: -Math.abs(r.amount_minor),
      feesMinor: 0,
      currency: r.currency,
      status: r.status,
      channel: r.transfer_mode,
      text: [r.account_name, r.account_number, r.narration].filter(Boolean).join(' ') || null,
      ...partyOf(r.account_name, r.account_number)
    })
  }
  const notes = undated > 0 ? [`${undated} transfer(s) carry no date; each is dated the day its bulk file or reference was followed`] : []
  return { records, unreadable, notes }
}

const STEP: Record<string, { months?: number; days?: number }> = {
  DAILY: { days: 1 },
  WEEKLY: { days: 7 },
  MONTHLY: { months: 1 },
  QUARTERLY: { months: 3 },
  BIANNUAL: { months: 6 },
  BIANNUALLY: { months: 6 },
  ANNUAL: { months: 12 },
  ANNUALLY: { months: 12 },
  YEARLY: { months: 12 }
}

/**
 * Charges each active subscription should have made in the period: from its start date, one per
 * plan period (the plan's frequency), at the subscription's amount (else the plan's). Each is an
 * expected record, id "<subscription id>@<day>", that the file should show.
 */
function subscriptionCharges(db: Database.Database, q: ProviderSideQuery): ProviderSide {
  const rows = db
    .prepare(
      `select s.id, s.customer_id, s.customer_name, s.customer_email, s.status, coalesce(s.amount_minor, p.amount_minor) as amount, coalesce(s.currency, p.currency) as currency,
              s.start_date, s.next_payment_date, p.frequency, p.title
       from subscriptions s left join plans p on p.profile_id = s.profile_id and p.id = s.plan_id
       where s.profile_id = ?`
    )
    .all(q.profileId) as {
    id: string
    customer_id: string | null
    customer_name: string | null
    customer_email: string | null
    status: string
    amount: number | null
    currency: string | null
    start_date: string | null
    next_payment_date: string | null
    frequency: string | null
    title: string | null
  }[]
  const records: EngineProvider[] = []
  let unreadable = 0
  let noSchedule = 0
  const from = DateTime.fromISO(q.from, { zone: q.timeZone }).startOf('day')
  const to = DateTime.fromISO(q.to, { zone: q.timeZone }).endOf('day')
  for (const s of rows) {
    if (s.status !== 'active') continue
    if (s.amount === null || !s.currency) {
      unreadable++
      continue
    }
    const step = STEP[(s.frequency ?? '').toUpperCase()]
    const anchorText = s.start_date ?? s.next_payment_date
    if (!step || !anchorText) {
      noSchedule++
      continue
    }
    const anchor = DateTime.fromISO(anchorText, { zone: q.timeZone })
    if (!anchor.isValid) {
      noSchedule++
      continue
    }
    for (let n = 0; n < 10_000; n++) {
      const due = anchor.plus({ months: (step.months ?? 0) * n, days: (step.days ?? 0) * n })
      if (due > to) break
      if (due < from) continue
      const day = due.toFormat('yyyy-MM-dd')
      records.push({
        id: `${s.id}@${day}`,
        reference: null,
        serviceReference: null,
        day,
        amountMinor: s.amount,
        feesMinor: 0,
        currency: s.currency,
        status: 'expected',
        channel: null,
        text: [s.customer_name, s.customer_email, s.title].filter(Boolean).join(' ') || null,
        keys: [s.id, ...(s.customer_id ? [s.customer_id] : [])],
        ...partyOf(s.customer_name, s.customer_email ?? s.customer_id)
      })
    }
  }
  const notes = [`expected charges: every active subscription's due days in the period, by its plan's frequency`]
  if (noSchedule > 0) notes.push(`${noSchedule} active subscription(s) have no plan frequency or start date and give no expected charge`)
  return { records, unreadable, notes }
}

/** Virtual accounts created here in the period, each expecting the amount it was created for. */
function virtualAccounts(
  db: Database.Database,
  q: ProviderSideQuery,
  start: number,
  end: number,
  dayOf: (ms: number) => string
): ProviderSide {
  const rows = db
    .prepare(
      'select id, account_number, account_name, amount_minor, currency, created_at from virtual_accounts where profile_id = ? and created_at is not null'
    )
    .all(q.profileId) as {
    id: string
    account_number: string
    account_name: string | null
    amount_minor: number | null
    currency: string | null
    created_at: string
  }[]
  const records: EngineProvider[] = []
  let unreadable = 0
  for (const r of rows) {
    const ms = Date.parse(r.created_at)
    if (!Number.isFinite(ms) || ms < start || ms >= end) continue
    if (r.amount_minor === null || !r.currency) {
      unreadable++
      continue
    }
    records.push({
      id: r.id,
      reference: null,
      serviceReference: null,
      day: dayOf(ms),
      amountMinor: r.amount_minor,
      feesMinor: 0,
      currency: r.currency,
      status: 'expected',
      channel: 'bank_transfer',
      text: r.account_name,
      keys: [r.account_number],
      ...partyOf(r.account_name, null)
    })
  }
  return { records, unreadable, notes: ['virtual accounts: the amount each was created for, expected once'] }
}

/** The parties of a session's provider records, by their ids (learned evidence reads what other sessions decided). */
export function recordParties(db: Database.Database, profileId: string, source: ReconSource, ids: readonly string[]): Map<string, Party> {
  const out = new Map<string, Party>()
  if (ids.length === 0) return out
  // A subscription's expected charge is "<subscription id>@<day>": its party is the subscription's.
  const wanted = source === 'subscriptions' ? [...new Set(ids.map((id) => id.split('@')[0] as string))] : ids
  const sql: Record<ReconSource, string> = {
    payments: `select id, customer_name, coalesce(customer_email, account_number) from payments where profile_id = ? and id in (select value from json_each(?))`,
    payouts: `select reference, account_name, account_number from transfers where profile_id = ? and reference in (select value from json_each(?))`,
    subscriptions: `select id, customer_name, coalesce(customer_email, customer_id) from subscriptions where profile_id = ? and id in (select value from json_each(?))`,
    'virtual-accounts': `select id, account_name, null from virtual_accounts where profile_id = ? and id in (select value from json_each(?))`
  }
  const rows = db.prepare(sql[source]).raw(true).all(profileId, JSON.stringify(wanted)) as [string, string | null, string | null][]
  const byId = new Map<string, Party>()
  for (const [id, name, key] of rows) {
    const { party } = partyOf(name, key)
    if (party) byId.set(id, party)
  }
  for (const id of ids) {
    const party = byId.get(source === 'subscriptions' ? (id.split('@')[0] as string) : id)
    if (party) out.set(id, party)
  }
  return out
}

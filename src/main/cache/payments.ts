// Payments in the cache: API record → indexed row (exact money, normalised and raw status), and page writes with their checkpoint.
import type Database from 'better-sqlite3'
import { isFinalPaymentStatus, normalizePaymentStatus } from '../../shared/api/assumptions'
import type { Payment } from '../../shared/api/schemas'
import { parseMajor } from '../../shared/money'

export interface PaymentRow {
  id: string
  reference: string | null
  service_reference: string | null
  amount_raw: string
  amount_minor: number | null
  currency: string
  local_amount_minor: number | null
  local_currency: string | null
  fees_minor: number | null
  channel: string | null
  status: string
  status_raw: string
  is_final: 0 | 1
  created_at: string
  created_at_ms: number | null
  plan_id: string | null
  customer_name: string | null
  customer_email: string | null
  account_number: string | null
  raw: string
  fetched_at_ms: number
}

/** Exact minor units, or null when the amount or currency cannot be converted exactly (the raw value is kept). */
export function minorOrNull(amount: unknown, currency: unknown): number | null {
  if ((typeof amount !== 'number' && typeof amount !== 'string') || typeof currency !== 'string') return null
  try {
    return parseMajor(amount, currency)
  } catch {
    return null
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

export function paymentRow(payment: Payment, fetchedAtMs: number): PaymentRow {
  const status = normalizePaymentStatus(payment.status)
  const time = Date.parse(payment.createdAt)
  const metadata = payment.metadata ?? {}
  return {
    id: payment.id,
    reference: text(payment.reference),
    service_reference: text(payment.serviceReference),
    amount_raw: String(payment.amount),
    amount_minor: minorOrNull(payment.amount, payment.currency),
    currency: payment.currency,
    local_amount_minor: minorOrNull(payment.localAmount, payment.localCurrency),
    local_currency: text(payment.localCurrency),
    fees_minor: minorOrNull(payment.totalFees, payment.currency),
    channel: text(payment.channel),
    status,
    status_raw: payment.status,
    is_final: isFinalPaymentStatus(status) ? 1 : 0,
    created_at: payment.createdAt,
    created_at_ms: Number.isNaN(time) ? null : time,
    plan_id: text(payment.planId),
    customer_name: text(payment.bankDetails?.accountName) ?? text(metadata['customerName']),
    customer_email: text(metadata['customerEmail']) ?? text(metadata['email']),
    account_number: text(payment.bankDetails?.accountNumber) ?? text(payment.mobileMoney?.phoneNumber),
    raw: JSON.stringify(payment),
    fetched_at_ms: fetchedAtMs
  }
}

export interface Checkpoint {
  resource: string
  /** e.g. a bulk file id; '' for whole-account lists. */
  scope: string
  nextPage: number
  pageSize: number
  totalElements: number
  /** Set when this page was the last one. */
  completed: boolean
}

const COLUMNS: (keyof PaymentRow)[] = [
  'id', 'reference', 'service_reference', 'amount_raw', 'amount_minor', 'currency', 'local_amount_minor', 'local_currency', 'fees_minor',
  'channel', 'status', 'status_raw', 'is_final', 'created_at', 'created_at_ms', 'plan_id', 'customer_name', 'customer_email',
  'account_number', 'raw', 'fetched_at_ms'
]

export interface PaymentStore {
  /** Upserts one page of payments and records where sync goes next, all in one transaction. */
  writePage(profileId: string, payments: readonly Payment[], checkpoint: Checkpoint): void
  checkpoint(profileId: string, resource: string, scope?: string): Checkpoint | null
  count(profileId: string): number
}

export function createPaymentStore(db: Database.Database, now: () => number = Date.now): PaymentStore {
  const upsert = db.prepare(
    `insert into payments (profile_id, ${COLUMNS.join(', ')}) values (@profile_id, ${COLUMNS.map((c) => `@${c}`).join(', ')})
     on conflict (profile_id, id) do update set ${COLUMNS.filter((c) => c !== 'id').map((c) => `${c} = excluded.${c}`).join(', ')}`
  )
  const saveCheckpoint = db.prepare(
    `insert into sync_state (profile_id, resource, scope, next_page, page_size, total_elements, completed_at, updated_at)
     values (@profile_id, @resource, @scope, @next_page, @page_size, @total_elements, @completed_at, @updated_at)
     on conflict (profile_id, resource, scope) do update set next_page = excluded.next_page, page_size = excluded.page_size,
       total_elements = excluded.total_elements, completed_at = excluded.completed_at, updated_at = excluded.updated_at`
  )
  const readCheckpoint = db.prepare('select * from sync_state where profile_id = ? and resource = ? and scope = ?')
  const countPayments = db.prepare('select count(*) as n from payments where profile_id = ?')

  const writePage = db.transaction((profileId: string, payments: readonly Payment[], checkpoint: Checkpoint) => {
    const fetchedAt = now()
    for (const payment of payments) upsert.run({ profile_id: profileId, ...paymentRow(payment, fetchedAt) })
    const at = new Date(fetchedAt).toISOString()
    saveCheckpoint.run({
      profile_id: profileId,
      resource: checkpoint.resource,
      scope: checkpoint.scope,
      next_page: checkpoint.nextPage,
      page_size: checkpoint.pageSize,
      total_elements: checkpoint.totalElements,
      completed_at: checkpoint.completed ? at : null,
      updated_at: at
    })
  })

  return {
    writePage: (profileId, payments, checkpoint) => writePage(profileId, payments, checkpoint),
    checkpoint(profileId, resource, scope = '') {
      const row = readCheckpoint.get(profileId, resource, scope) as
        | { resource: string; scope: string; next_page: number; page_size: number | null; total_elements: number | null; completed_at: string | null }
        | undefined
      if (!row) return null
      return {
        resource: row.resource,
        scope: row.scope,
        nextPage: row.next_page,
        pageSize: row.page_size ?? 0,
        totalElements: row.total_elements ?? 0,
        completed: row.completed_at !== null
      }
    },
    count: (profileId) => (countPayments.get(profileId) as { n: number }).n
  }
}

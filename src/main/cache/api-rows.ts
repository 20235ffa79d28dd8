// API records → cache rows for every resource: exact money, normalised and raw statuses, epoch times, and the raw JSON.
import {
  isFinalPaymentStatus,
  isFinalTransferStatus,
  normalizePaymentStatus,
  normalizeStatusWord,
  normalizeTransferStatus,
  readBankCodes
} from '../../shared/api/assumptions'
import type { Bank, Payment, Plan, Subscription, Transfer, VirtualAccount } from '../../shared/api/schemas'
import { parseMajor } from '../../shared/money'
import { parseTimestamp } from '../../shared/time'

export type Row = Record<string, string | number | null>

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
/** Epoch ms; a timestamp without an offset is read in the profile's business time zone. */
const epoch = (value: unknown, zone = 'UTC'): number | null => parseTimestamp(value, zone)
const rawAmount = (value: unknown): string | null => (typeof value === 'number' || typeof value === 'string' ? String(value) : null)

/** Payment rows for a profile whose business time zone is `zone` (timestamps without an offset are read in it). */
export const paymentRowIn =
  (zone: string) =>
  (payment: Payment): Row => {
    const status = normalizePaymentStatus(payment.status)
    const metadata = payment.metadata ?? {}
    return {
      id: payment.id,
      reference: text(payment.reference),
      service_reference: text(payment.serviceReference),
      amount_raw: String(payment.amount),
      amount_minor: minorOrNull(payment.amount, payment.currency),
      currency: payment.currency,
      local_amount_raw: rawAmount(payment.localAmount),
      local_amount_minor: minorOrNull(payment.localAmount, payment.localCurrency),
      local_currency: text(payment.localCurrency),
      fees_raw: rawAmount(payment.totalFees),
      fees_minor: minorOrNull(payment.totalFees, payment.currency),
      tax_raw: rawAmount(payment.totalTaxAmount),
      tax_minor: minorOrNull(payment.totalTaxAmount, payment.currency),
      total_local_raw: rawAmount(payment.totalLocalAmount),
      total_local_minor: minorOrNull(payment.totalLocalAmount, payment.localCurrency),
      channel: text(payment.channel),
      status,
      status_raw: payment.status,
      is_final: isFinalPaymentStatus(status) ? 1 : 0,
      created_at: payment.createdAt,
      created_at_ms: epoch(payment.createdAt, zone),
      plan_id: text(payment.planId),
      customer_name: text(payment.bankDetails?.accountName) ?? text(metadata['customerName']),
      customer_email: text(metadata['customerEmail']) ?? text(metadata['email']),
      account_number: text(payment.bankDetails?.accountNumber) ?? text(payment.mobileMoney?.phoneNumber),
      raw: JSON.stringify(payment)
    }
  }

/** A payment row with timestamps that lack an offset read in UTC. */
export const paymentRow = paymentRowIn('UTC')

export function transferRow(transfer: Transfer, bulkFileId: string | null): Row {
  return {
    reference: transfer.reference,
    service_reference: text(transfer.servicereference),
    bulk_file_id: bulkFileId,
    amount_raw: String(transfer.amount),
    amount_minor: minorOrNull(transfer.amount, transfer.currency),
    currency: transfer.currency,
    status: normalizeTransferStatus(transfer.status),
    status_raw: transfer.status,
    is_final: isFinalTransferStatus(normalizeTransferStatus(transfer.status)) ? 1 : 0,
    transfer_mode: text(transfer.transferMode),
    account_number: text(transfer.destination?.accountNumber),
    account_name: text(transfer.destination?.accountName),
    bank_code: text(transfer.destination?.bankCode),
    bank_name: text(transfer.destination?.bankName),
    narration: text(transfer.narrations),
    raw: JSON.stringify(transfer)
  }
}

export function planRow(plan: Plan): Row {
  return {
    id: plan.id,
    title: plan.title,
    frequency: text(plan.frequency),
    amount_raw: String(plan.amount),
    amount_minor: minorOrNull(plan.amount, plan.currency),
    currency: plan.currency,
    status: normalizeStatusWord(plan.status),
    status_raw: plan.status,
    internal_reference: text(plan.internalReference),
    created_at: text(plan.createdAt),
    raw: JSON.stringify(plan)
  }
}

/** Subscription rows for a profile whose business time zone is `zone`. */
export const subscriptionRowIn =
  (zone: string) =>
  (subscription: Subscription): Row => {
    return {
      id: subscription.id,
      plan_id: text(subscription.planId),
      customer_id: text(subscription.customerId) ?? text(subscription.customer?.id),
      customer_name: text(subscription.customer?.name),
      customer_email: text(subscription.customer?.email),
      status: normalizeStatusWord(subscription.status),
      status_raw: subscription.status,
      amount_raw: rawAmount(subscription.amount),
      amount_minor: minorOrNull(subscription.amount, subscription.currency),
      currency: text(subscription.currency),
      start_date: text(subscription.startDate),
      next_payment_date: text(subscription.nextPaymentDate),
      created_at: text(subscription.createdAt),
      created_at_ms: epoch(subscription.createdAt, zone),
      raw: JSON.stringify(subscription)
    }
  }

export const subscriptionRow = subscriptionRowIn('UTC')

/**
 * A virtual account as the API returned it. The spec's account carries no amount, currency, creation
 * or expiry time, so those columns are only written when the response has them: a later lookup never
 * blanks what the create request recorded (see createdVirtualAccountRow).
 */
export function virtualAccountRow(account: VirtualAccount): Row {
  const row: Row = {
    id: account.id,
    account_number: account.accountNumber,
    account_name: text(account.accountName),
    bank_name: text(account.bankName),
    lifecycle: text(account.lifeCycle),
    raw: JSON.stringify(account)
  }
  const extra = account as Record<string, unknown>
  if (text(account.expiresAt)) row['expires_at'] = text(account.expiresAt)
  if (rawAmount(extra['amount']) !== null && text(extra['currency'])) {
    row['amount_raw'] = rawAmount(extra['amount'])
    row['amount_minor'] = minorOrNull(extra['amount'], extra['currency'])
    row['currency'] = text(extra['currency'])
  }
  return row
}

/** Virtual accounts made by one POST /virtual-accounts/temporary (the response said so). */
export const DEFAULT_VIRTUAL_ACCOUNT_MINUTES = 30

/**
 * The row for an account this app created: the amount and currency come from the request (the
 * response does not carry them), and expiry is the creation time plus expiresIn (default 30 minutes),
 * unless the response states its own expiresAt.
 */
export function createdVirtualAccountRow(
  account: VirtualAccount,
  request: { amount: number | string; currency: string; expiresIn?: number | undefined },
  createdAtMs: number
): Row {
  const minutes = request.expiresIn ?? DEFAULT_VIRTUAL_ACCOUNT_MINUTES
  const responseCreated = epoch((account as Record<string, unknown>)['createdAt'])
  const created = responseCreated ?? createdAtMs
  return {
    ...virtualAccountRow(account),
    amount_raw: String(request.amount),
    amount_minor: minorOrNull(request.amount, request.currency),
    currency: request.currency,
    created_at: new Date(created).toISOString(),
    expires_in_minutes: minutes,
    expires_at: text(account.expiresAt) ?? new Date(created + minutes * 60_000).toISOString()
  }
}

export function bankRow(bank: Bank, currency: string): Row {
  const codes = readBankCodes(bank)
  return {
    currency,
    bank_code: bank.bankCode,
    bank_name: bank.bankName,
    nip_code: codes.nip,
    cbn_code: codes.cbn,
    raw: JSON.stringify(bank)
  }
}

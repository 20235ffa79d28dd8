// What a record's drawer can do with the provider: authorize a pending payment, cancel a plan, fund a test virtual account. Each answer lands in the cache at once.
import type { Payment, Plan } from '../../shared/api/schemas'
import type { ActionOutcome } from '../../shared/ipc/records'
import { formatMoney, parseMajor, toMajorString } from '../../shared/money'
import type { ApiClient } from '../api/client'
import { paymentRowIn, planRow } from '../cache/api-rows'
import type { CacheStore } from '../cache/store'
import { AppError } from '../errors'
import type { Profile } from '../profiles/service'
import { accountExpired, recordRow } from './detail'

/** The provider's answer laid over what the cache held: an answer that leaves fields out (authorize does) never blanks them. */
function merged<T extends object>(cachedRaw: unknown, answer: T): T {
  let cached: object = {}
  try {
    const parsed: unknown = JSON.parse(String(cachedRaw))
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) cached = parsed
  } catch {
    // nothing usable cached: the answer alone
  }
  return { ...cached, ...answer }
}

const paymentOutcome = (payment: Payment, key: string): ActionOutcome => ({
  resource: 'payments',
  key,
  status: payment.status,
  message: payment.providerMessage ?? null,
  nextStep: payment.status.toLowerCase() === 'pending' ? (payment.authorization?.mode ?? null) : null
})

export interface AuthorizeRequest {
  paymentId: string
  pin?: string | undefined
  otp?: string | undefined
}

/** Sends the payment's next authorization step (PIN or OTP, whichever it waits for) and caches the answer. */
export async function authorizePayment(
  client: ApiClient,
  store: CacheStore,
  profile: Profile,
  request: AuthorizeRequest
): Promise<ActionOutcome> {
  const row = recordRow(store.db, profile.id, 'payments', request.paymentId)
  if (row['is_final'] !== 0)
    throw new AppError('invalid_state', `This payment is ${String(row['status_raw'])}; only a pending payment can be authorized.`)
  const reference = row['reference']
  if (typeof reference !== 'string' || reference === '')
    throw new AppError('invalid_state', 'This payment has no reference, which the authorize call needs.')
  const authorization: Record<string, string> = {}
  if (request.pin !== undefined) authorization['pin'] = request.pin
  if (request.otp !== undefined) authorization['otp'] = request.otp
  if (Object.keys(authorization).length !== 1)
    throw new AppError('missing_parameter', 'Give the PIN or the OTP the payment waits for.', { field: 'authorization' })
  const answer = await client.authorizePayment({ reference, authorization })
  const payment = merged(row['raw'], answer)
  store.writePage(profile.id, 'payments', [paymentRowIn(profile.timeZone)(payment)])
  return paymentOutcome(payment, String(row['id']))
}

/** Cancels the plan with the provider and caches the plan as it answered. */
export async function cancelPlan(client: ApiClient, store: CacheStore, profile: Profile, planId: string): Promise<ActionOutcome> {
  const row = recordRow(store.db, profile.id, 'plans', planId)
  const answer = await client.cancelPlan(planId)
  const plan: Plan = merged(row['raw'], answer)
  store.writePage(profile.id, 'plans', [planRow(plan)])
  return { resource: 'plans', key: planId, status: plan.status, message: null, nextStep: null }
}

/** Pays into a test virtual account through the funds simulator; the payment it makes is cached at once. */
export async function fundVirtualAccount(
  simulator: ApiClient,
  store: CacheStore,
  profile: Profile,
  accountId: string,
  amount: string | undefined
): Promise<ActionOutcome> {
  if (profile.mode !== 'test') throw new AppError('test_mode_only', 'Funds can only be simulated in test mode.')
  const row = recordRow(store.db, profile.id, 'virtual_accounts', accountId)
  if (accountExpired(row)) throw new AppError('account_expired', `Account ${String(row['account_number'])} has expired; create a new one.`)
  const currency = typeof row['currency'] === 'string' ? row['currency'] : null
  const typed = amount?.trim() || (typeof row['amount_raw'] === 'string' ? row['amount_raw'] : '')
  if (!currency || typed === '') throw new AppError('missing_parameter', 'Give the amount to pay in.', { field: 'amount' })
  let minor: number
  try {
    minor = parseMajor(typed, currency)
  } catch (error) {
    throw new AppError('invalid_amount', `Amount: ${error instanceof Error ? error.message : String(error)}`, { field: 'amount' })
  }
  if (minor <= 0) throw new AppError('invalid_amount', 'Amount: it must be more than zero.', { field: 'amount' })
  const payment = await simulator.simulateFunds({ virtualAccountId: accountId, amount: Number(toMajorString(minor, currency)) })
  store.writePage(profile.id, 'payments', [paymentRowIn(profile.timeZone)(payment)])
  return {
    resource: 'payments',
    key: payment.id,
    status: payment.status,
    message: `${formatMoney({ minor, currency })} paid into ${String(row['account_number'])}.`,
    nextStep: null
  }
}

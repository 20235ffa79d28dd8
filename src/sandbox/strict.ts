// The strict-spec Sandbox: responses cut down to exactly the fields and values the API description shows (docs/api.md), so tests catch reliance on anything else.
type Json = Record<string, unknown>

/** Payment fields the spec lists as shared (2.2). */
const PAYMENT_SHARED = [
  'id',
  'reference',
  'serviceReference',
  'amount',
  'currency',
  'localAmount',
  'totalFees',
  'localCurrency',
  'channel',
  'status',
  'rate',
  'region',
  'authorization',
  'card',
  'createdAt',
  'metadata'
] as const
/** Fields only the list item carries (2.2). */
export const PAYMENT_LIST_ONLY = ['mode', 'ussd', 'bankDetails', 'totalTaxAmount', 'totalLocalAmount', 'planId', 'mobileMoney'] as const
const VIRTUAL_ACCOUNT_FIELDS = ['id', 'accountNumber', 'accountName', 'bankName', 'mode'] as const

/**
 * Spec section 3: list items carry `pending`, `successful`, `failed`, and `SUCCESS` is shown on a
 * response item. Every other spelling the lenient Sandbox uses (seen in practice, not in the spec)
 * is mapped onto one of these.
 */
const SPEC_PAYMENT_STATUS: Readonly<Record<string, string>> = {
  successful: 'successful',
  SUCCESS: 'SUCCESS',
  SUCCESSFUL: 'SUCCESS',
  pending: 'pending',
  PENDING: 'pending',
  provider_processed: 'pending',
  failed: 'failed',
  FAILED: 'failed',
  CANCELLED: 'failed',
  reversed: 'failed'
}

function pick(record: Json, fields: readonly string[]): Json {
  const out: Json = {}
  for (const field of fields) if (record[field] !== undefined) out[field] = record[field]
  return out
}

/**
 * A payment as a spec-strict server would list it: only the spec's fields, a spec status, and no
 * metadata the caller did not supply (the Sandbox's seeded records have no caller, so it is empty).
 */
export function strictPayment(payment: Json): Json {
  const out = pick(payment, [...PAYMENT_SHARED, ...PAYMENT_LIST_ONLY])
  const status = String(payment['status'])
  out['status'] = SPEC_PAYMENT_STATUS[status] ?? status
  out['metadata'] = {}
  return out
}

/** A virtual account as the spec shows it (2.1): no amount, currency, creation or expiry time; lifeCycle is always `temporary`. */
export function strictVirtualAccount(account: Json): Json {
  return { ...pick(account, VIRTUAL_ACCOUNT_FIELDS), lifeCycle: 'temporary' }
}

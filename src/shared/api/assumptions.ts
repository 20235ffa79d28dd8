// Every assumption Ledgerline makes about what the provider's API description leaves "not shown" (docs/api.md), in one place; the README lists them.

/**
 * One named assumption. `summary` is copied verbatim into the README (a test checks it), and
 * the code that depends on the assumption reads the values from here, never from a literal.
 */
export interface Assumption {
  id: string
  summary: string
}

/** Query parameter names the client sends (spec: "names of these query parameters: not shown"). */
export const QUERY_PARAMS = {
  payments: {
    page: 'page',
    size: 'size',
    paymentId: 'reference',
    reference: 'query',
    status: 'status',
    channel: 'channel',
    provider: 'provider'
  },
  subscriptions: { customerId: 'customerId', email: 'email', page: 'page', size: 'size' },
  bulkTransfers: { page: 'page', size: 'size' }
} as const

/** Maximum page size is not documented; the client asks for this many and accepts whatever pageSize comes back. */
export const REQUESTED_PAGE_SIZE = 100

/** The provider's documented rate limits per key mode: per minute, and per second in bursts. */
export const RATE_LIMITS = {
  test: { perMinute: 60, perSecond: 10 },
  live: { perMinute: 300, perSecond: 30 }
} as const

/** Key prefixes: the secret key is the bearer token and its prefix tells the mode. */
export const KEY_PREFIXES = { test: 'sk_test_', live: 'sk_live_' } as const

/** Bank list `metadata` key names for the interbank codes (NIBSS/NIP and CBN); alternatives are tolerated. */
export const BANK_METADATA_KEYS = {
  nip: ['nipCode', 'nip_code', 'nibssCode', 'nibss_code'],
  cbn: ['cbnCode', 'cbn_code', 'sortCode', 'sort_code']
} as const

/** The pricingOptions cell of a bulk plan CSV: CURRENCY:AMOUNT pairs joined by ';', e.g. "NGN:5000.00;GHS:45.00". */
export const PRICING_OPTIONS_FORMAT = { pairSeparator: ';', fieldSeparator: ':', order: 'currency-amount' } as const

/**
 * Limits of a bulk CSV file (spec 8: "maximum file size and maximum rows per CSV file: not shown").
 * Ledgerline refuses larger files before upload, and the Sandbox refuses them as the provider would.
 */
export const BULK_FILE_LIMITS = { maxBytes: 32 * 1024 * 1024, maxRows: 100_000 } as const

/**
 * Per-cell rules of a bulk transfer row that the spec leaves open: payout currencies (the bank
 * lists exist for NGN and GHS only), account number lengths (NGN: the 10-digit NUBAN), the longest
 * account name, narration and branch code. Bulk plan titles share the text limit.
 */
export const BULK_TRANSFER_RULES = {
  currencies: ['NGN', 'GHS'],
  accountDigits: { NGN: { min: 10, max: 10 }, GHS: { min: 8, max: 16 } },
  maxText: 100,
  maxBranchCode: 12
} as const

/** Bulk plan frequency cells (spec 2.9) and the plan enum each maps to (spec 2.7). */
export const PLAN_FREQUENCIES = {
  daily: 'DAILY',
  weekly: 'WEEKLY',
  monthly: 'MONTHLY',
  quarterly: 'QUARTERLY',
  biannually: 'BIANNUAL',
  annually: 'ANNUAL'
} as const

export type NormalizedPaymentStatus = 'successful' | 'pending' | 'failed' | 'cancelled' | 'reversed' | 'refunded' | 'unknown'
export type NormalizedTransferStatus = 'successful' | 'pending' | 'failed' | 'unknown'

const PAYMENT_STATUS: Readonly<Record<string, NormalizedPaymentStatus>> = {
  successful: 'successful',
  success: 'successful',
  pending: 'pending',
  // Seen in practice, meaning undocumented: treated as not yet final, so sync checks it again.
  provider_processed: 'pending',
  failed: 'failed',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  // Seen in practice: the money came in and went back to the payer (no money is kept).
  reversed: 'reversed',
  refunded: 'refunded'
}

const TRANSFER_STATUS: Readonly<Record<string, NormalizedTransferStatus>> = {
  successful: 'successful',
  success: 'successful',
  processing: 'pending',
  initiated: 'pending',
  pending: 'pending',
  failed: 'failed',
  reversed: 'failed'
}

/** Payment status in any case the provider sends it; anything unrecognised is 'unknown' (and the raw value is kept). */
export function normalizePaymentStatus(raw: unknown): NormalizedPaymentStatus {
  return typeof raw === 'string' ? (PAYMENT_STATUS[raw.trim().toLowerCase()] ?? 'unknown') : 'unknown'
}

export function normalizeTransferStatus(raw: unknown): NormalizedTransferStatus {
  return typeof raw === 'string' ? (TRANSFER_STATUS[raw.trim().toLowerCase()] ?? 'unknown') : 'unknown'
}

/** Subscription and plan statuses are compared case-insensitively; unknown values pass through lower-cased. */
export function normalizeStatusWord(raw: unknown): string {
  return typeof raw === 'string' && raw.trim() !== '' ? raw.trim().toLowerCase() : 'unknown'
}

/**
 * Sync checks a payment or transfer again only while it is `pending`: a status the app does not know
 * is kept raw and counts as final, so an unexpected value never makes every sync re-read it.
 */
export function isFinalPaymentStatus(status: NormalizedPaymentStatus): boolean {
  return status !== 'pending'
}

export function isFinalTransferStatus(status: NormalizedTransferStatus): boolean {
  return status !== 'pending'
}

export const ASSUMPTIONS: readonly Assumption[] = [
  {
    id: 'payments-query',
    summary:
      "GET /payments query names: `page`, `size`, `reference` (the payment id), `query` (the caller's reference), `status`, `channel`, `provider`."
  },
  { id: 'subscriptions-query', summary: 'GET /subscriptions query names: `customerId`, `email`, `page`, `size`.' },
  { id: 'bulk-transfers-query', summary: 'GET /transfers/bulk/{id}/transfers query names: `page`, `size`.' },
  {
    id: 'page-size',
    summary: `List calls ask for \`size=${REQUESTED_PAGE_SIZE}\` and accept whatever \`pageSize\` the server returns; paging stops at \`totalPages\` (or an empty page).`
  },
  {
    id: 'rate-limits',
    summary: `Requests are paced under ${RATE_LIMITS.test.perMinute}/min (bursts of ${RATE_LIMITS.test.perSecond}/s) for test keys and ${RATE_LIMITS.live.perMinute}/min (${RATE_LIMITS.live.perSecond}/s) for live keys, and \`Retry-After\` / \`X-RateLimit-Remaining\` / \`X-RateLimit-Reset\` are obeyed.`
  },
  {
    id: 'key-mode',
    summary: 'A key starting `sk_test_` is a test key and `sk_live_` a live key; any other key is refused before a request is made.'
  },
  {
    id: 'payment-status',
    summary:
      'Payment statuses are matched case-insensitively: `success`/`successful` → successful, `pending` and `provider_processed` → pending (not final), `failed`, `cancelled`, `reversed` and `refunded` (the money went back: reconciliation leaves them out like failed ones unless a statement line shows the money); anything else is kept raw, shown as unknown, and not checked again by sync.'
  },
  {
    id: 'transfer-status',
    summary:
      'Transfer statuses: `successful`/`success` → successful; `processing`, `initiated`, `pending` → pending; `failed`, `reversed` → failed; anything else unknown, raw kept, not checked again.'
  },
  {
    id: 'failed-requests',
    summary:
      'A `failedRequests` element is read as an object with a row number (`row`, `line`, `index` or `rowNumber`), a field (`field` or `column`), a code (`code`) and a message (`message`, `reason` or `error`); a bare string is taken as the message. Rows are 1-based data rows (the header is not counted).'
  },
  {
    id: 'pricing-options',
    summary:
      'The bulk plan `pricingOptions` cell holds CURRENCY:AMOUNT pairs joined by `;`, e.g. `NGN:5000.00;GHS:45.00` (amounts in major units).'
  },
  {
    id: 'bulk-file-limits',
    summary: 'A bulk CSV file holds at most 100,000 data rows and 32 MiB; larger files are refused before upload.'
  },
  {
    id: 'bulk-transfer-rules',
    summary:
      'Bulk transfer rows: currency NGN or GHS; account number all digits, 10 for NGN (NUBAN) and 8 to 16 for GHS; account name and narration required, at most 100 characters (plan titles too); branch code optional, digits, at most 12.'
  },
  {
    id: 'bank-metadata',
    summary:
      'NGN bank `metadata` carries the NIP code as `nipCode` and the CBN code as `cbnCode` (snake_case and NIBSS/sort-code spellings are also read).'
  },
  {
    id: 'virtual-account-lifecycle',
    summary:
      'Virtual accounts may spell the field `lifeCycle` or `lifecycle`; both are read. The state after expiry is not documented: the Sandbox reports `expired`.'
  },
  {
    id: 'funds-simulator',
    summary:
      'The spec names a separate test-mode funds simulator but not its address or call. Ledgerline sends `POST {simulator}/simulator/funds` with `{ "virtualAccountId", "amount" }` (major units) and the profile\'s test key, and reads back the payment it makes; the simulator\'s address is set per profile, and the built-in Sandbox serves it at its own base URL.'
  },
  {
    id: 'plan-cancel-status',
    summary:
      'Cancelling a plan may return a status outside the documented enum (a sample returns `cancelled`); plan statuses are compared case-insensitively and unknown ones kept.'
  },
  {
    id: 'bulk-plan-response',
    summary:
      'POST /bulk-plans answers `{}` or `{ "status": "success", "failedRequests": [...] }`; both are accepted, and `skipErrors` is sent as a form field when set.'
  },
  {
    id: 'subscriptions-shape',
    summary:
      'GET /subscriptions returns a JSON array of page wrappers; their contents are joined and paging follows the first wrapper. A bare page wrapper is accepted too.'
  },
  {
    id: 'error-codes',
    summary:
      'Error bodies carry the machine code in `message` (400 and 401 shape A) or `code` (401 shape B); 404 has no documented body and is reported as `not_found`; 429 as `rate_limit_exceeded`; 5xx as `server_error` unless the body names a code.'
  }
]

/** NIP and CBN codes from a bank's metadata, whatever the key spelling (see the bank-metadata assumption). */
export function readBankCodes(bank: { metadata?: Record<string, unknown> | null | undefined }): { nip: string | null; cbn: string | null } {
  const meta = bank.metadata ?? {}
  const first = (keys: readonly string[]): string | null => {
    for (const key of keys) {
      const value = meta[key]
      if (typeof value === 'string' && value !== '') return value
      if (typeof value === 'number') return String(value)
    }
    return null
  }
  return { nip: first(BANK_METADATA_KEYS.nip), cbn: first(BANK_METADATA_KEYS.cbn) }
}

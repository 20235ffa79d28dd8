// The payments API client: one typed function per endpoint of the provider's API (docs/api.md), plus page iterators for the list calls.
import { z } from 'zod'
import { QUERY_PARAMS, REQUESTED_PAGE_SIZE } from '../../shared/api/assumptions'
import {
  bankSchema,
  bulkPlanResultSchema,
  bulkValidationSchema,
  pageSchema,
  paymentSchema,
  planSchema,
  subscriptionSchema,
  transferSchema,
  virtualAccountSchema,
  type Bank,
  type BulkValidation,
  type FailedRequest,
  type Page,
  type Payment,
  type Plan,
  type Subscription,
  type Transfer,
  type VirtualAccount
} from '../../shared/api/schemas'
import { createHttp, type Http, type HttpOptions, type KeyMode } from './http'

export type BankCurrency = 'NGN' | 'GHS'

export interface CreateVirtualAccountInput {
  currency: BankCurrency
  accountName: string
  /** Major units, exactly as the API takes it (5.00 GHS is five cedis). */
  amount: number | string
  /** Minutes; may only shorten the default 30. */
  expiresIn?: number
}

export interface AuthorizeInput {
  reference: string
  authorization: { pin?: string; otp?: string } & Record<string, unknown>
}

export interface PaymentFilter {
  paymentId?: string
  reference?: string
  status?: 'successful' | 'failed' | 'pending'
  channel?: 'card' | 'bank_transfer' | 'mobile_money' | 'eft'
  provider?: string
}

export interface SubscriptionFilter {
  customerId?: string
  email?: string
}

export interface PageRequest {
  page?: number
  size?: number
  signal?: AbortSignal
}

const seg = encodeURIComponent

/** Reads a failedRequests element of any shape into row, field, code and message (see the failed-requests assumption). */
export function readFailedRequest(raw: unknown): FailedRequest {
  if (typeof raw === 'string') return { row: null, field: null, code: null, message: raw, raw }
  const record = (raw ?? {}) as Record<string, unknown>
  const pick = (...keys: string[]): unknown => keys.map((k) => record[k]).find((v) => v !== undefined && v !== null && v !== '')
  const rowValue = pick('row', 'line', 'index', 'rowNumber')
  const row = typeof rowValue === 'number' ? rowValue : typeof rowValue === 'string' && /^\d+$/.test(rowValue) ? Number(rowValue) : null
  const field = pick('field', 'column')
  const code = pick('code')
  const message = pick('message', 'reason', 'error')
  return {
    row,
    field: typeof field === 'string' ? field : null,
    code: typeof code === 'string' ? code : null,
    message: typeof message === 'string' ? message : JSON.stringify(raw),
    raw
  }
}

/** The last page of a list: the server's totalPages reached, or nothing more to show. */
export function isLastPage(page: Page<unknown>): boolean {
  return page.content.length === 0 || page.pageNumber + 1 >= page.totalPages
}

/** Walks a list endpoint page by page until totalPages (or an empty page); the server's pageSize is accepted as given. */
export async function* walkPages<T>(
  fetchPage: (page: number, size: number, signal?: AbortSignal) => Promise<Page<T>>,
  options: { startPage?: number; size?: number; signal?: AbortSignal } = {}
): AsyncGenerator<Page<T>> {
  let page = options.startPage ?? 0
  const size = options.size ?? REQUESTED_PAGE_SIZE
  for (;;) {
    const result = await fetchPage(page, size, options.signal)
    yield result
    if (isLastPage(result)) return
    page = result.pageNumber + 1
  }
}

const paymentPage = pageSchema(paymentSchema)
const transferPage = pageSchema(transferSchema)
const subscriptionPage = pageSchema(subscriptionSchema)
/** Documented as an array of page wrappers; a bare wrapper is accepted too. */
const subscriptionsResponse = z.union([z.array(subscriptionPage), subscriptionPage])

export interface ApiClient {
  readonly mode: () => Promise<KeyMode>
  createVirtualAccount(input: CreateVirtualAccountInput, signal?: AbortSignal): Promise<VirtualAccount>
  getVirtualAccount(id: string, signal?: AbortSignal): Promise<VirtualAccount>
  authorizePayment(input: AuthorizeInput, signal?: AbortSignal): Promise<Payment>
  listPayments(filter?: PaymentFilter, page?: PageRequest): Promise<Page<Payment>>
  paymentPages(filter?: PaymentFilter, options?: { startPage?: number; size?: number; signal?: AbortSignal }): AsyncGenerator<Page<Payment>>
  validateBulkTransfers(
    csv: string,
    options?: { as?: 'json' | 'multipart'; fileName?: string; signal?: AbortSignal }
  ): Promise<BulkValidation>
  listBulkTransfers(bulkFileId: string, page?: PageRequest): Promise<Page<Transfer>>
  bulkTransferPages(
    bulkFileId: string,
    options?: { startPage?: number; size?: number; signal?: AbortSignal }
  ): AsyncGenerator<Page<Transfer>>
  getTransfer(reference: string, signal?: AbortSignal): Promise<Transfer>
  listBanks(currency: BankCurrency, signal?: AbortSignal): Promise<Bank[]>
  listSubscriptions(filter?: SubscriptionFilter, page?: PageRequest): Promise<Page<Subscription>>
  subscriptionPages(
    filter?: SubscriptionFilter,
    options?: { startPage?: number; size?: number; signal?: AbortSignal }
  ): AsyncGenerator<Page<Subscription>>
  createBulkPlans(
    csv: string,
    options?: { skipErrors?: boolean; fileName?: string; signal?: AbortSignal }
  ): Promise<{ status: string | null; failedRequests: FailedRequest[] }>
  getPlan(planId: string, signal?: AbortSignal): Promise<Plan>
  cancelPlan(planId: string, signal?: AbortSignal): Promise<Plan>
  /** Test mode only: pays into a test virtual account through the funds simulator (see the funds-simulator assumption); a client made for the simulator's address. */
  simulateFunds(input: { virtualAccountId: string; amount: number }, signal?: AbortSignal): Promise<Payment>
}

function csvForm(csv: string, fileName: string): FormData {
  const form = new FormData()
  form.set('file', new Blob([csv], { type: 'text/csv' }), fileName)
  return form
}

export function createApiClient(options: HttpOptions): ApiClient {
  const http: Http = createHttp(options)
  const P = QUERY_PARAMS

  const client: ApiClient = {
    mode: http.mode,

    createVirtualAccount: (input, signal) =>
      http.request({
        method: 'POST',
        path: '/virtual-accounts/temporary',
        endpoint: 'POST /virtual-accounts/temporary',
        json: input,
        schema: virtualAccountSchema,
        signal
      }),

    getVirtualAccount: (id, signal) =>
      http.request({
        method: 'GET',
        path: `/virtual-accounts/${seg(id)}`,
        endpoint: 'GET /virtual-accounts/{id}',
        schema: virtualAccountSchema,
        signal
      }),

    authorizePayment: (input, signal) =>
      http.request({
        method: 'POST',
        path: '/payments/authorize',
        endpoint: 'POST /payments/authorize',
        json: input,
        schema: paymentSchema,
        signal
      }),

    listPayments: (filter = {}, page = {}) =>
      http.request({
        method: 'GET',
        path: '/payments',
        endpoint: 'GET /payments',
        query: {
          [P.payments.page]: page.page ?? 0,
          [P.payments.size]: page.size ?? REQUESTED_PAGE_SIZE,
          [P.payments.paymentId]: filter.paymentId,
          [P.payments.reference]: filter.reference,
          [P.payments.status]: filter.status,
          [P.payments.channel]: filter.channel,
          [P.payments.provider]: filter.provider
        },
        schema: paymentPage,
        signal: page.signal
      }),

    paymentPages: (filter = {}, walk = {}) =>
      walkPages((page, size, signal) => client.listPayments(filter, { page, size, ...(signal ? { signal } : {}) }), walk),

    async validateBulkTransfers(csv, opts = {}) {
      const asJson = (opts.as ?? 'json') === 'json'
      const result = await http.request({
        method: 'POST',
        path: '/transfers/bulk/validate',
        endpoint: 'POST /transfers/bulk/validate',
        ...(asJson ? { json: { file: csv } } : { form: csvForm(csv, opts.fileName ?? 'transfers.csv') }),
        schema: bulkValidationSchema,
        signal: opts.signal
      })
      return { totalRequests: result.totalRequests, failedRequests: result.failedRequests.map(readFailedRequest) }
    },

    listBulkTransfers: (bulkFileId, page = {}) =>
      http.request({
        method: 'GET',
        path: `/transfers/bulk/${seg(bulkFileId)}/transfers`,
        endpoint: 'GET /transfers/bulk/{id}/transfers',
        query: { [P.bulkTransfers.page]: page.page ?? 0, [P.bulkTransfers.size]: page.size ?? REQUESTED_PAGE_SIZE },
        schema: transferPage,
        signal: page.signal
      }),

    bulkTransferPages: (bulkFileId, walk = {}) =>
      walkPages((page, size, signal) => client.listBulkTransfers(bulkFileId, { page, size, ...(signal ? { signal } : {}) }), walk),

    getTransfer: (reference, signal) =>
      http.request({
        method: 'GET',
        path: `/transfers/reference/${seg(reference)}`,
        endpoint: 'GET /transfers/reference/{reference}',
        schema: transferSchema,
        signal
      }),

    listBanks: (currency, signal) =>
      http.request({
        method: 'GET',
        path: `/transfers/banks/${seg(currency)}`,
        endpoint: 'GET /transfers/banks/{currency}',
        schema: z.array(bankSchema),
        signal
      }),

    async listSubscriptions(filter = {}, page = {}) {
      const result = await http.request({
        method: 'GET',
        path: '/subscriptions',
        endpoint: 'GET /subscriptions',
        query: {
          [P.subscriptions.customerId]: filter.customerId,
          [P.subscriptions.email]: filter.email,
          [P.subscriptions.page]: page.page ?? 0,
          [P.subscriptions.size]: page.size ?? REQUESTED_PAGE_SIZE
        },
        schema: subscriptionsResponse,
        signal: page.signal
      })
      const wrappers = Array.isArray(result) ? result : [result]
      const first = wrappers[0]
      if (!first) return { content: [], pageNumber: page.page ?? 0, pageSize: 0, totalElements: 0, totalPages: 0 }
      return { ...first, content: wrappers.flatMap((w) => w.content) }
    },

    subscriptionPages: (filter = {}, walk = {}) =>
      walkPages((page, size, signal) => client.listSubscriptions(filter, { page, size, ...(signal ? { signal } : {}) }), walk),

    async createBulkPlans(csv, opts = {}) {
      const form = csvForm(csv, opts.fileName ?? 'plans.csv')
      if (opts.skipErrors !== undefined) form.set('skipErrors', String(opts.skipErrors))
      const result = await http.request({
        method: 'POST',
        path: '/bulk-plans',
        endpoint: 'POST /bulk-plans',
        form,
        schema: bulkPlanResultSchema,
        signal: opts.signal
      })
      return { status: result.status ?? null, failedRequests: (result.failedRequests ?? []).map(readFailedRequest) }
    },

    getPlan: (planId, signal) =>
      http.request({ method: 'GET', path: `/plans/${seg(planId)}`, endpoint: 'GET /plans/{plan-id}', schema: planSchema, signal }),

    cancelPlan: (planId, signal) =>
      http.request({
        method: 'POST',
        path: `/plans/${seg(planId)}/cancel`,
        endpoint: 'POST /plans/{plan-id}/cancel',
        schema: planSchema,
        signal
      }),

    simulateFunds: (input, signal) =>
      http.request({
        method: 'POST',
        path: '/simulator/funds',
        endpoint: 'POST /simulator/funds',
        json: input,
        schema: paymentSchema,
        signal
      })
  }
  return client
}

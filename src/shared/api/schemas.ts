// Tolerant runtime schemas for the API's responses: unknown fields and statuses are kept, missing required fields are named.
import { z } from 'zod'

/** Amounts arrive as JSON numbers (major units); the client reads them as the literal text sent (see exact-json.ts), and a numeric string is taken as sent too. */
const amount = z.union([z.number(), z.string()])
const text = z.string()
const optionalText = z.string().nullish()
const optionalAmount = amount.nullish()

export const virtualAccountSchema = z
  .looseObject({
    id: text,
    accountNumber: text,
    accountName: optionalText,
    bankName: optionalText,
    mode: optionalText,
    lifeCycle: optionalText,
    lifecycle: optionalText,
    expiresAt: optionalText
  })
  .transform((account): typeof account & { lifeCycle: string | null } => ({
    ...account,
    lifeCycle: account.lifeCycle ?? account.lifecycle ?? null
  }))

export const paymentSchema = z.looseObject({
  id: text,
  reference: optionalText,
  serviceReference: optionalText,
  amount,
  currency: text,
  localAmount: optionalAmount,
  localCurrency: optionalText,
  totalFees: optionalAmount,
  totalTaxAmount: optionalAmount,
  totalLocalAmount: optionalAmount,
  channel: optionalText,
  status: text,
  rate: optionalAmount,
  region: optionalText,
  createdAt: text,
  mode: optionalText,
  planId: optionalText,
  authorization: z.looseObject({ mode: optionalText }).nullish(),
  card: z.looseObject({ type: optionalText, firstSix: optionalText, lastFour: optionalText }).nullish(),
  bankDetails: z.looseObject({ accountName: optionalText, accountNumber: optionalText, bankName: optionalText }).nullish(),
  mobileMoney: z.looseObject({ phoneNumber: optionalText, name: optionalText }).nullish(),
  ussd: z.looseObject({ code: optionalText, paymentCode: optionalText }).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  providerMessage: optionalText
})

export const transferSchema = z.looseObject({
  reference: text,
  servicereference: optionalText,
  amount,
  currency: text,
  transferMode: optionalText,
  destination: z
    .looseObject({
      accountNumber: optionalText,
      accountName: optionalText,
      bankCode: optionalText,
      branchCode: optionalText,
      bankName: optionalText
    })
    .nullish(),
  narrations: optionalText,
  status: text
})

export const subscriptionSchema = z.looseObject({
  id: text,
  customerId: optionalText,
  planId: text,
  status: text,
  startDate: optionalText,
  nextPaymentDate: optionalText,
  createdAt: optionalText,
  customer: z.looseObject({ id: optionalText, email: optionalText, name: optionalText }).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  currency: optionalText,
  regionName: optionalText,
  amount: optionalAmount
})

export const planSchema = z.looseObject({
  id: text,
  title: text,
  frequency: optionalText,
  amount,
  currency: text,
  status: text,
  createdAt: optionalText,
  internalReference: optionalText,
  regions: z.array(z.string()).nullish(),
  subscribers: z.number().nullish(),
  subscriptions: z.number().nullish(),
  trial: z.looseObject({ periodInDays: z.number().nullish() }).nullish(),
  pricingOptions: z.array(z.looseObject({ amount, currency: text })).nullish()
})

export const bankSchema = z.looseObject({
  bankCode: text,
  bankName: text,
  metadata: z.record(z.string(), z.unknown()).nullish()
})

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.looseObject({
    content: z.array(item),
    pageNumber: z.number().int().min(0),
    pageSize: z.number().int().min(0),
    totalElements: z.number().int().min(0),
    totalPages: z.number().int().min(0)
  })
}

/** One failedRequests element, whatever shape it comes in (see the failed-requests assumption). */
export const failedRequestSchema = z.union([z.string(), z.record(z.string(), z.unknown())])

export const bulkValidationSchema = z.looseObject({
  failedRequests: z.array(failedRequestSchema),
  totalRequests: z.number().int().min(0)
})

export const bulkPlanResultSchema = z.looseObject({
  status: optionalText,
  failedRequests: z.array(failedRequestSchema).nullish()
})

export type VirtualAccount = z.output<typeof virtualAccountSchema>
export type Payment = z.output<typeof paymentSchema>
export type Transfer = z.output<typeof transferSchema>
export type Subscription = z.output<typeof subscriptionSchema>
export type Plan = z.output<typeof planSchema>
export type Bank = z.output<typeof bankSchema>
export interface Page<T> {
  content: T[]
  pageNumber: number
  pageSize: number
  totalElements: number
  totalPages: number
}

/** A failedRequests element read into one shape; `raw` is what the server sent. */
export interface FailedRequest {
  row: number | null
  field: string | null
  code: string | null
  message: string
  raw: unknown
}

export interface BulkValidation {
  totalRequests: number
  failedRequests: FailedRequest[]
}

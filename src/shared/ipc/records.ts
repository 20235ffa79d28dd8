// The records domain of the IPC contract: the record workspace's tables, totals, drawer, Ctrl+K, followed bulk files and the actions on a record.
import { z } from 'zod'
import { RECORD_RESOURCES, type FoundGroup, type RecordDetail, type RecordResource, type RecordTotals, type RowsResult } from '../records'
import { call, id, noArgs } from './define'
import { searchFilters } from './search'

/** The search's filters over any of the workspace's tables, sorted by a column. */
const recordQuery = z.strictObject({
  ...searchFilters,
  resource: z.enum(RECORD_RESOURCES),
  sort: z.strictObject({ column: z.string().min(1).max(40), desc: z.boolean() }).optional()
})

const cursor = z.string().min(1).max(4_000)
const resourceKey = z.strictObject({ resource: z.enum(RECORD_RESOURCES), key: z.string().min(1).max(300) })

/** What an action did, as the provider answered it. */
export interface ActionOutcome {
  /** The record to show now (the payment a funding made, the plan cancelled, the payment authorized). */
  resource: RecordResource
  key: string
  /** The status as the provider sent it. */
  status: string
  /** The provider's own message (e.g. "Kindly enter the OTP sent to …"), or what happened. */
  message: string | null
  /** The authorization step the payment waits for next (otp, 3DS …), or null when none. */
  nextStep: string | null
}

export interface BulkFileChoice {
  id: string
  transfers: number
}

export const recordCalls = {
  /** Rows [offset, offset + limit) of a table: by keyset from `anchor`, else from the nearer end (`total` known). */
  'records:rows': call<RowsResult>()(
    z.strictObject({
      query: recordQuery,
      offset: z.number().int().min(0).max(100_000_000),
      limit: z.number().int().min(1).max(500),
      anchor: z.strictObject({ offset: z.number().int().min(0).max(100_000_000), cursor }).optional(),
      total: z.number().int().min(0).max(100_000_000).optional()
    })
  ),
  /** The exact count of the filtered set and its amounts summed per currency. */
  'records:totals': call<RecordTotals>()(z.strictObject({ query: recordQuery })),
  'records:detail': call<RecordDetail>()(resourceKey),
  /** Ctrl+K: a few matches per table over everything cached. */
  'records:find': call<FoundGroup[]>()(z.strictObject({ text: z.string().max(200) })),
  /** Bulk files with transfers in the cache or followed, for the transfers table's filter. */
  'records:bulkFiles': call<BulkFileChoice[]>()(noArgs),
  /** Sends a pending payment's next step (PIN or OTP); in a live profile main confirms first. */
  'records:authorize': call<ActionOutcome>()(
    z.strictObject({
      paymentId: id,
      pin: z
        .string()
        .max(6)
        .regex(/^\d{4,6}$/)
        .optional(),
      otp: z
        .string()
        .max(8)
        .regex(/^\d{4,8}$/)
        .optional()
    })
  ),
  /** Cancels a plan with the provider; in a live profile main confirms first. */
  'records:cancelPlan': call<ActionOutcome>()(z.strictObject({ planId: id })),
  /** Test mode only: pays into a test virtual account through the funds simulator (the amount defaults to the account's). */
  'records:fund': call<ActionOutcome>()(z.strictObject({ accountId: id, amount: z.string().trim().max(30).optional() }))
} as const

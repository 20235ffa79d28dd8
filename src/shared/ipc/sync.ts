// The sync domain of the IPC contract: start a sync job, see what the cache holds, follow bulk files, transfers and plans.
import { z } from 'zod'
import { SYNC_RESOURCES } from '../sync'
import { call, noArgs, text } from './define'
import type { JobInfo } from './jobs'

export interface SyncStatus {
  /** The sync job running for this profile, if any. */
  runningJobId: string | null
  profileId: string
  lastSyncedAt: string | null
  counts: Record<'payments' | 'transfers' | 'plans' | 'subscriptions' | 'virtual_accounts' | 'banks', number>
  /** Followed bulk files, transfer references and plans, each with when it last synced and its last error. */
  followed: FollowedItem[]
  failures: { resource: string; scope: string; code: string; message: string; status: number | null; occurredAt: string }[]
}

export type FollowKind = 'bulk_file' | 'transfer' | 'plan'
export const FOLLOW_KINDS = ['bulk_file', 'transfer', 'plan'] as const
/** How each kind is named in messages. */
export const FOLLOW_KIND_NAMES: Record<FollowKind, string> = { bulk_file: 'bulk file', transfer: 'transfer', plan: 'plan' }

export interface FollowedItem {
  kind: FollowKind
  value: string
  lastSyncedAt: string | null
  lastError: string | null
  /** What its last sync brought, from the cache: a bulk file's transfers and how many are final, a transfer's or plan's status. */
  result: string | null
}

const resourceOutcome = z.strictObject({
  ok: z.boolean(),
  written: z.number().int().min(0),
  requests: z.number().int().min(0),
  skipped: z.number().int().min(0),
  error: z.strictObject({ code: text(80), message: text(2000) }).optional(),
  failedItems: z
    .array(z.strictObject({ id: text(200), code: text(80), message: text(2000) }))
    .max(20)
    .optional()
})

/** What a finished sync job reports (SyncSummary in src/shared/sync.ts), checked before it leaves the host. */
export const syncSummarySchema = z.strictObject({
  profileId: text(200),
  cancelled: z.boolean(),
  durationMs: z.number().min(0),
  resources: z.partialRecord(z.enum(SYNC_RESOURCES), resourceOutcome)
})

export const syncCalls = {
  /** Starts the sync job for the profile in use (one at a time per profile); progress comes as job events. */
  'sync:start': call<JobInfo>()(
    z.strictObject({ resources: z.array(z.enum(SYNC_RESOURCES)).min(1).max(SYNC_RESOURCES.length).optional() })
  ),
  'sync:status': call<SyncStatus>()(noArgs),
  'sync:track': call<SyncStatus>()(z.strictObject({ kind: z.enum(FOLLOW_KINDS), value: z.string().trim().min(1).max(200) })),
  /** Follows a list (pasted or read from a file) at once; blank entries and repeats are left out. */
  'sync:trackMany': call<SyncStatus>()(
    z.strictObject({ kind: z.enum(FOLLOW_KINDS), values: z.array(z.string().max(200)).min(1).max(5_000) })
  ),
  /** Stops following an item; what was fetched for it stays cached. */
  'sync:untrack': call<SyncStatus>()(z.strictObject({ kind: z.enum(FOLLOW_KINDS), value: z.string().trim().min(1).max(200) }))
} as const

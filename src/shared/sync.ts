// Sync's vocabulary, shared by the engine, the CLI, the IPC contract and the renderer.

export const SYNC_RESOURCES = ['payments', 'subscriptions', 'plans', 'banks', 'transfers', 'virtual_accounts'] as const
export type SyncResource = (typeof SYNC_RESOURCES)[number]

export interface SyncProgress {
  resource: SyncResource
  /** Records written so far in this run for this resource. */
  done: number
  /** From the server's totalElements where there is one. */
  total: number | null
  /** Records per second in this run. */
  rate: number
  /** Seconds left at the current rate, when the total is known. */
  etaSeconds: number | null
  /** What is happening: "full", "new", "recheck", a bulk file id… */
  phase: string
}

export interface ResourceOutcome {
  /** False when the resource failed, or when one of its items (a followed bulk file, transfer, plan or account) did. */
  ok: boolean
  /** Records written in this run. */
  written: number
  /** Requests this resource sent in this run (pages and lookups; transport retries not counted). */
  requests: number
  /** Items left alone because nothing about them can have changed (final, expired, or fetched recently). */
  skipped: number
  error?: { code: string; message: string }
  /** Items that failed on their own while the rest went on, each named (at most 20 listed). */
  failedItems?: { id: string; code: string; message: string }[]
}

export interface SyncSummary {
  profileId: string
  cancelled: boolean
  durationMs: number
  resources: Partial<Record<SyncResource, ResourceOutcome>>
  /** The server refused the key (401): the run stopped there, the resources after it were not tried. */
  keyRefused?: { resource: SyncResource; code: string; message: string }
}

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
  ok: boolean
  written: number
  error?: { code: string; message: string }
}

export interface SyncSummary {
  profileId: string
  cancelled: boolean
  durationMs: number
  resources: Partial<Record<SyncResource, ResourceOutcome>>
}

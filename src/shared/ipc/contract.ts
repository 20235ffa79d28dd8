// The one IPC contract, merged from each domain's part: main's gate validates against it, the host serves it, preload builds window.api from it.
import type { z } from 'zod'
import { accountCalls } from './accounts'
import { backupCalls } from './backups'
import { bulkCalls } from './bulk'
import { appCalls, appEvents } from './app'
import { mergeParts } from './define'
import { jobCalls, jobEvents } from './jobs'
import { journalCalls } from './journal'
import { profileCalls, profileEvents } from './profiles'
import { reconCalls } from './reconcile'
import { rulesCalls } from './rules'
import { exportCalls } from './export'
import { recordCalls } from './records'
import { searchCalls } from './search'
import type { CallResult } from './result'
import { syncCalls } from './sync'
import { teamCalls, teamEvents } from './team'

export type { AppInfo } from './app'
export type { ProfileSummary } from './profiles'
export type { SyncStatus } from './sync'
export type { ActionOutcome, BulkFileChoice } from './records'
export type { ExportStarted } from './export'
export type { VirtualAccountSummary } from './accounts'
export type { JobInfo, JobKind, JobProgress, JobResult } from './jobs'
export type { StatementPreview, AuditVerification, ReportFormat } from './reconcile'
export type { JournalPreview } from './journal'
export type { SharedSessionRow, TeamSessionView, WorkspaceStatus } from './team'

/**
 * Every call, named `domain:action`. Argument schemas are strict: unknown fields, wrong
 * types and oversized strings are rejected before a service sees them.
 */
export const calls = mergeParts('call', [
  appCalls,
  profileCalls,
  syncCalls,
  searchCalls,
  exportCalls,
  recordCalls,
  accountCalls,
  jobCalls,
  reconCalls,
  journalCalls,
  rulesCalls,
  bulkCalls,
  teamCalls,
  backupCalls
])

/** Events the host (through main) pushes to the renderer, with the payload schema checked before sending. */
export const events = mergeParts('event', [appEvents, jobEvents, profileEvents, teamEvents])

export type Calls = typeof calls
export type CallName = keyof Calls & string
export type CallArg<N extends CallName> = z.input<Calls[N]['args']>
export type CallValue<N extends CallName> = Calls[N]['result']
export type Events = typeof events
export type EventName = keyof Events & string
export type EventPayload<E extends EventName> = z.infer<Events[E]>

export const callNames = Object.keys(calls) as CallName[]
export const eventNames = Object.keys(events) as EventName[]

/** The prefix on every Electron IPC channel the app owns; the preload forwards nothing else. */
export const CHANNEL_PREFIX = 'ledgerline:'
export const callChannel = (name: CallName): string => `${CHANNEL_PREFIX}call:${name}`
export const eventChannel = (name: EventName): string => `${CHANNEL_PREFIX}event:${name}`

type DomainOf<N> = N extends `${infer D}:${string}` ? D : never
type ActionOf<N, D extends string> = N extends `${D}:${infer A}` ? A : never
type Method<N extends CallName> =
  undefined extends CallArg<N> ? () => Promise<CallResult<CallValue<N>>> : (arg: CallArg<N>) => Promise<CallResult<CallValue<N>>>

/**
 * What the renderer sees as `window.api`: `api.<domain>.<action>(arg)` for each call
 * `domain:action`, plus `api.on(event, listener)` which returns an unsubscribe function.
 */
export type Api = {
  readonly [D in DomainOf<CallName>]: { readonly [N in CallName as ActionOf<N, D>]: Method<N> }
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void
}

// The single typed list of every IPC call and event: main validates against it, preload builds window.api from it.
import { z } from 'zod'
import { SEARCH_RESOURCES, SEARCH_SORTS, MAX_PAGE_SIZE, type SearchResult } from '../search'
import { SYNC_RESOURCES, type SyncSummary } from '../sync'
import type { CallResult } from './result'

/** A profile as the renderer may see it: never its key. */
export interface ProfileSummary {
  id: string
  name: string
  /** null for the built-in Sandbox, which runs inside the app. */
  baseUrl: string | null
  mode: 'test' | 'live'
  builtIn: boolean
  createdAt: string
  lastSyncedAt: string | null
}

export interface SyncStatus {
  running: boolean
  profileId: string
  lastSyncedAt: string | null
  counts: Record<'payments' | 'transfers' | 'plans' | 'subscriptions' | 'virtual_accounts' | 'banks', number>
  tracked: { bulkFiles: string[]; transfers: string[]; plans: string[] }
  failures: { resource: string; scope: string; code: string; message: string; status: number | null; occurredAt: string }[]
}

export interface VirtualAccountSummary {
  id: string
  accountNumber: string
  accountName: string | null
  bankName: string | null
  /** As the provider last reported it (temporary, expired, …). */
  lifecycle: string | null
  expiresAt: string | null
  amountRaw: string | null
  currency: string | null
}

export interface ExportOutcome {
  /** null when the user closed the save dialog. */
  file: string | null
  rows: number
}

export interface AppInfo {
  name: string
  version: string
  runtime: { node: string; electron: string | null; chrome: string | null; sqlite: string }
  platform: string
  paths: { userData: string; cacheDatabase: string; logs: string }
}

/** One call: its argument schema (checked in main before any service runs) and its result type. */
interface CallSpec<A extends z.ZodType, R> {
  args: A
  /** Phantom marker carrying the result type; never read at run time. */
  result: R
}

/** `call<Result>()(argumentSchema)`: the result type is named, the argument type comes from the schema. */
function call<R>() {
  return <A extends z.ZodType>(args: A): CallSpec<A, R> => ({ args, result: undefined as R })
}

/** No argument: the renderer passes nothing (undefined) and anything else is rejected. */
const noArgs = z.undefined()
const id = z.string().min(1).max(200)
const searchFilters = {
  resource: z.enum(SEARCH_RESOURCES),
  text: z.string().max(500).optional(),
  status: z.string().max(40).optional(),
  channel: z.string().max(40).optional(),
  currency: z.string().length(3).regex(/^[A-Za-z]{3}$/).optional(),
  minAmount: z.string().max(30).optional(),
  maxAmount: z.string().max(30).optional(),
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
  sort: z.enum(SEARCH_SORTS).optional()
}

/**
 * Every call, named `domain:action`. Argument schemas are strict: unknown fields, wrong
 * types and oversized strings are rejected before a service sees them.
 */
export const calls = {
  'app:info': call<AppInfo>()(noArgs),
  'profile:list': call<ProfileSummary[]>()(noArgs),
  'profile:active': call<ProfileSummary>()(noArgs),
  'profile:select': call<ProfileSummary>()(z.strictObject({ id })),
  /** The key travels renderer → main once, is checked with the server and goes into the keychain; it never comes back. */
  'profile:add': call<ProfileSummary>()(z.strictObject({ name: z.string().min(1).max(80), baseUrl: z.string().min(1).max(500), key: z.string().min(1).max(512) })),
  'profile:replaceKey': call<ProfileSummary>()(z.strictObject({ id, key: z.string().min(1).max(512) })),
  'profile:remove': call<{ removed: string }>()(z.strictObject({ id })),
  'sync:start': call<SyncSummary>()(z.strictObject({ resources: z.array(z.enum(SYNC_RESOURCES)).min(1).max(SYNC_RESOURCES.length).optional() })),
  'sync:cancel': call<{ cancelled: boolean }>()(noArgs),
  'sync:status': call<SyncStatus>()(noArgs),
  'sync:track': call<SyncStatus>()(z.strictObject({ kind: z.enum(['bulk_file', 'transfer', 'plan']), value: z.string().trim().min(1).max(200) })),
  'search:query': call<SearchResult>()(
    z.strictObject({ ...searchFilters, page: z.number().int().min(0).max(1_000_000).optional(), pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).optional() })
  ),
  'export:csv': call<ExportOutcome>()(z.strictObject(searchFilters)),
  'accounts:list': call<VirtualAccountSummary[]>()(noArgs),
  'accounts:create': call<VirtualAccountSummary>()(
    z.strictObject({
      currency: z.enum(['NGN', 'GHS']),
      accountName: z.string().trim().min(1).max(100),
      /** Major units as typed, e.g. "5000.00"; checked against the currency's decimals in main. */
      amount: z.string().trim().min(1).max(30),
      expiresIn: z.number().int().min(1).max(30).optional()
    })
  )
} as const

/** Events main pushes to the renderer, with the payload schema main checks before sending. */
export const events = {
  'app:notice': z.strictObject({
    level: z.enum(['info', 'warning', 'error']),
    message: z.string().max(2000)
  }),
  'sync:progress': z.strictObject({
    profileId: z.string().max(200),
    resource: z.enum(SYNC_RESOURCES),
    done: z.number().int().min(0),
    total: z.number().int().min(0).nullable(),
    rate: z.number().min(0),
    etaSeconds: z.number().min(0).nullable(),
    phase: z.string().max(200)
  })
} as const

export type Calls = typeof calls
export type CallName = keyof Calls
export type CallArg<N extends CallName> = z.input<Calls[N]['args']>
export type CallValue<N extends CallName> = Calls[N]['result']
export type EventName = keyof typeof events
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>

export const callNames = Object.keys(calls) as CallName[]
export const eventNames = Object.keys(events) as EventName[]

/** The prefix on every Electron IPC channel the app owns; the preload forwards nothing else. */
export const CHANNEL_PREFIX = 'ledgerline:'
export const callChannel = (name: CallName): string => `${CHANNEL_PREFIX}call:${name}`
export const eventChannel = (name: EventName): string => `${CHANNEL_PREFIX}event:${name}`

type DomainOf<N> = N extends `${infer D}:${string}` ? D : never
type ActionOf<N, D extends string> = N extends `${D}:${infer A}` ? A : never
type Method<N extends CallName> = undefined extends CallArg<N>
  ? () => Promise<CallResult<CallValue<N>>>
  : (arg: CallArg<N>) => Promise<CallResult<CallValue<N>>>

/**
 * What the renderer sees as `window.api`: `api.<domain>.<action>(arg)` for each call
 * `domain:action`, plus `api.on(event, listener)` which returns an unsubscribe function.
 */
export type Api = {
  readonly [D in DomainOf<CallName>]: { readonly [N in CallName as ActionOf<N, D>]: Method<N> }
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void
}

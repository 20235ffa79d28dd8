// The single typed list of every IPC call and event: main validates against it, preload builds window.api from it.
import { z } from 'zod'
import type { CallResult } from './result'

/** A profile as the renderer may see it: never a key, only whether one is stored. */
export interface ProfileSummary {
  id: string
  name: string
  /** null for the built-in Sandbox, which runs inside the app. */
  baseUrl: string | null
  mode: 'test' | 'live'
  builtIn: boolean
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

function call<A extends z.ZodType, R>(args: A): CallSpec<A, R> {
  return { args, result: undefined as R }
}

/** No argument: the renderer passes nothing (undefined) and anything else is rejected. */
const noArgs = z.undefined()

/**
 * Every call, named `domain:action`. Argument schemas are strict: unknown fields, wrong
 * types and oversized strings are rejected before a service sees them.
 */
export const calls = {
  'app:info': call<typeof noArgs, AppInfo>(noArgs),
  'profile:active': call<typeof noArgs, ProfileSummary>(noArgs)
} as const

/** Events main pushes to the renderer, with the payload schema main checks before sending. */
export const events = {
  'app:notice': z.strictObject({
    level: z.enum(['info', 'warning', 'error']),
    message: z.string().max(2000)
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

// The messages between main and the service host, and the questions only main can answer (native dialogs).
import { z } from 'zod'
import type { CallResult } from '../../shared/ipc/result'
import type { SqliteOptions } from '../cache/sqlite'

/** What the host needs to start: where the data is, how to load SQLite, and facts about the app for app:info. */
export interface HostConfig {
  app: { name: string; version: string; electronVersion: string | null; chromeVersion: string | null }
  paths: { userData: string; cacheDatabase: string; logs: string }
  sqlite: SqliteOptions
  /** Keychain "service" name; tests use a throwaway one. Default: the app's. */
  keychainService?: string
  /** false: no request pacing (tests against a Sandbox without rate limits). Default: the provider's documented limits. */
  pacing?: false
  /** The built-in Sandbox answers in strict-spec mode (only what the API description shows); main sets it from LEDGERLINE_SANDBOX_STRICT_SPEC=1. */
  sandboxStrictSpec?: boolean
  /** The team workspace's listener: how often its connection is checked and the first wait before reconnecting (ms). Tests shorten them. */
  teamDoorbell?: { heartbeatMs?: number; retryMs?: number }
}

/** A yes/no question shown as a native dialog by main: money-moving and destructive calls need one. */
export interface ConfirmRequest {
  kind: 'confirm'
  title: string
  message: string
  detail: string
  /** The button that goes ahead, e.g. "Remove profile". */
  confirmLabel: string
}

/** A native save dialog. */
export interface SaveFileRequest {
  kind: 'saveFile'
  suggestedName: string
  filterName: string
  extensions: string[]
}

/** A native open dialog for one file (a statement to import). */
export interface OpenFileRequest {
  kind: 'openFile'
  title: string
  filterName: string
  extensions: string[]
}

export type AskRequest = ConfirmRequest | SaveFileRequest | OpenFileRequest

/** The questions host code may put to the user through main. */
export interface MainUi {
  confirm(request: Omit<ConfirmRequest, 'kind'>): Promise<boolean>
  /** The chosen path, or null when the user cancelled. */
  chooseSaveFile(request: Omit<SaveFileRequest, 'kind'>): Promise<string | null>
  /** The chosen file, or null when the user cancelled. */
  chooseOpenFile(request: Omit<OpenFileRequest, 'kind'>): Promise<string | null>
}

/** Checked by main before it shows anything the host asks for. */
export const askRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('confirm'),
    title: z.string().max(200),
    message: z.string().max(500),
    detail: z.string().max(2000),
    confirmLabel: z.string().max(60)
  }),
  z.strictObject({
    kind: z.literal('saveFile'),
    suggestedName: z.string().max(255),
    filterName: z.string().max(60),
    extensions: z.array(z.string().regex(/^[a-z0-9]{1,8}$/)).max(16)
  }),
  z.strictObject({
    kind: z.literal('openFile'),
    title: z.string().max(200),
    filterName: z.string().max(60),
    extensions: z.array(z.string().regex(/^[a-z0-9]{1,8}$/)).max(16)
  })
])

export type ToHost =
  | { type: 'init'; config: HostConfig }
  | { type: 'call'; id: number; name: string; arg: unknown }
  | { type: 'answer'; id: number; value: boolean | string | null }
  | { type: 'ping'; id: number }
  | { type: 'shutdown' }

export type FromHost =
  | { type: 'ready' }
  /** The host cannot start (e.g. the cache is from a newer Ledgerline): restarting would not help. */
  | { type: 'fatal'; code: string; message: string }
  | { type: 'result'; id: number; result: CallResult<unknown> }
  | { type: 'event'; name: string; payload: unknown }
  | { type: 'ask'; id: number; request: AskRequest }
  | { type: 'pong'; id: number }

/** One end of the host's channel: a MessagePort in Electron, the child-process IPC channel under Node. */
export interface HostPort {
  post(message: FromHost): void
  onMessage(listener: (message: unknown) => void): void
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Reads a message from main; anything malformed is null (and ignored), never a crash. */
export function readToHost(message: unknown): ToHost | null {
  if (!isObject(message) || typeof message['type'] !== 'string') return null
  const id = message['id']
  const validId = typeof id === 'number' && Number.isSafeInteger(id)
  switch (message['type']) {
    case 'init':
      return isObject(message['config']) ? (message as unknown as ToHost) : null
    case 'call':
      return validId && typeof message['name'] === 'string'
        ? { type: 'call', id: id as number, name: message['name'], arg: message['arg'] }
        : null
    case 'answer': {
      const value = message['value']
      return validId && (typeof value === 'boolean' || typeof value === 'string' || value === null)
        ? { type: 'answer', id: id as number, value }
        : null
    }
    case 'ping':
      return validId ? { type: 'ping', id: id as number } : null
    case 'shutdown':
      return { type: 'shutdown' }
    default:
      return null
  }
}

/** Reads a message from the host in main; anything malformed is null. */
export function readFromHost(message: unknown): FromHost | null {
  if (!isObject(message) || typeof message['type'] !== 'string') return null
  const id = message['id']
  const validId = typeof id === 'number' && Number.isSafeInteger(id)
  switch (message['type']) {
    case 'ready':
      return { type: 'ready' }
    case 'fatal':
      return typeof message['code'] === 'string' && typeof message['message'] === 'string'
        ? { type: 'fatal', code: message['code'], message: message['message'] }
        : null
    case 'result':
      return validId && isObject(message['result']) && typeof message['result']['ok'] === 'boolean'
        ? (message as unknown as FromHost)
        : null
    case 'event':
      return typeof message['name'] === 'string' ? { type: 'event', name: message['name'], payload: message['payload'] } : null
    case 'ask': {
      const request = askRequestSchema.safeParse(message['request'])
      return validId && request.success ? { type: 'ask', id: id as number, request: request.data } : null
    }
    case 'pong':
      return validId ? { type: 'pong', id: id as number } : null
    default:
      return null
  }
}

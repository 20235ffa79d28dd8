// The messages between main and the service host: start-up config, calls and results, events, and the questions main is asked (ipc/questions.ts).
import { isErrorCode, type CallErrorCode } from '../../shared/error-codes'
import type { CallResult } from '../../shared/ipc/result'
import type { AppFacts } from '../app/handlers'
import { askRequestSchema, type AskRequest } from '../ipc/questions'

/** What the host needs to start: where the data is, how to load SQLite, and facts about the app for app:info. */
export interface HostConfig extends AppFacts {
  /** Keychain "service" name; tests use a throwaway one. Default: the app's. */
  keychainService?: string
  /** false: no request pacing (tests against a Sandbox without rate limits). Default: the provider's documented limits. */
  pacing?: false
  /** The built-in Sandbox answers in strict-spec mode (only what the API description shows); main sets it from LEDGERLINE_SANDBOX_STRICT_SPEC=1. */
  sandboxStrictSpec?: boolean
  /** The team workspace's listener: how often its connection is checked and the first wait before reconnecting (ms). Tests shorten them. */
  teamDoorbell?: { heartbeatMs?: number; retryMs?: number }
}

export type ToHost =
  | { type: 'init'; config: HostConfig }
  | { type: 'call'; id: number; name: string; arg: unknown }
  | { type: 'answer'; id: number; value: boolean | string | null }
  | { type: 'ping'; id: number }
  | { type: 'shutdown' }

export type FromHost =
  | { type: 'ready' }
  /** The host cannot start (e.g. the cache is from a newer Ledgerline): restarting would not help. */
  | { type: 'fatal'; code: CallErrorCode; message: string }
  | { type: 'result'; id: number; result: CallResult<unknown> }
  /** An answer to call `id` that is not a result main reads: the call fails with HOST_BAD_ANSWER instead of waiting forever. */
  | { type: 'unreadable-result'; id: number }
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
      // The host's own code when it is one of ours; any other is its failing to start, said in its message.
      return typeof message['code'] === 'string' && typeof message['message'] === 'string'
        ? { type: 'fatal', code: isErrorCode(message['code']) ? message['code'] : 'host_start_failed', message: message['message'] }
        : null
    case 'result':
      if (!validId) return null
      return isObject(message['result']) && typeof message['result']['ok'] === 'boolean'
        ? (message as unknown as FromHost)
        : { type: 'unreadable-result', id: id as number }
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

// The HTTP core under every endpoint: bearer auth, timeouts, cancellation, pacing, retries with backoff, body and schema checks.
import type { z } from 'zod'
import { KEY_PREFIXES, RATE_LIMITS } from '../../shared/api/assumptions'
import { ApiError, errorFromResponse } from './errors'
import { parseJsonExact } from './exact-json'
import { SlidingWindow } from './rate-window'

export type KeyMode = 'test' | 'live'

export function keyMode(key: string): KeyMode | null {
  if (key.startsWith(KEY_PREFIXES.test)) return 'test'
  if (key.startsWith(KEY_PREFIXES.live)) return 'live'
  return null
}

export interface Pacing {
  perMinute: number
  perSecond: number
}

export interface HttpOptions {
  /** Ends in /v1, as the spec's {base_url} does. */
  baseUrl: string
  /** Returns the secret key (from the keychain); called per request and never logged. */
  getKey: () => string | Promise<string>
  /** Electron passes net.fetch (system proxy); Node code the global fetch. */
  fetch?: typeof fetch
  /** Per attempt. */
  timeoutMs?: number
  /** Extra attempts after the first, for calls that may be retried. */
  maxRetries?: number
  backoffBaseMs?: number
  backoffCapMs?: number
  /** Stay under these limits; default: the documented limits for the key's mode. false: no pacing. */
  pacing?: Pacing | false
  /** Called before each retry, e.g. to report "retrying after 429". */
  onRetry?: (info: { endpoint: string; attempt: number; delayMs: number; error: ApiError }) => void
  random?: () => number
  now?: () => number
}

export interface RequestSpec<S extends z.ZodType> {
  method: 'GET' | 'POST'
  /** Path under the base URL with each segment already encoded, e.g. `/plans/${encodeURIComponent(id)}`. */
  path: string
  /** Template for messages, e.g. "GET /plans/{plan-id}": never carries ids or query values. */
  endpoint: string
  query?: Record<string, string | number | undefined>
  json?: unknown
  form?: FormData
  schema: S
  signal?: AbortSignal | undefined
}

/** Margins added to the documented windows so clock skew and network jitter never tip us over. */
const WINDOW_MARGIN_MS = { minute: 750, second: 120 }

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.ceil(Number(value) * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** X-RateLimit-Reset: Unix seconds, or seconds from now when it is too small to be a date. */
function parseReset(value: string | null, now: number): number | undefined {
  if (!value || !/^\d+(\.\d+)?$/.test(value.trim())) return undefined
  const n = Number(value)
  return n > 1e9 ? n * 1000 : now + n * 1000
}

/** The most specific reason in an error's cause chain, e.g. ECONNREFUSED 127.0.0.1:1 rather than "fetch failed". */
function networkCause(error: unknown): string {
  let current: unknown = error
  let best = error instanceof Error ? error.message : String(error)
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const { code, address, port } = current as Error & { code?: string; address?: string; port?: number }
    if (code) return address ? `${code} ${address}${port ? `:${port}` : ''}` : code
    if (current.message && current.message !== 'fetch failed') best = current.message
    current = current instanceof AggregateError && current.errors.length > 0 ? current.errors[0] : current.cause
  }
  return best
}

function describeIssue(issue: z.core.$ZodIssue): { field: string; message: string } {
  const field = issue.path.map(String).join('.') || '(body)'
  return { field, message: issue.message }
}

export interface Http {
  request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>>
  readonly mode: () => Promise<KeyMode>
}

export function createHttp(options: HttpOptions): Http {
  const doFetch = options.fetch ?? globalThis.fetch
  const timeoutMs = options.timeoutMs ?? 30_000
  const maxRetries = options.maxRetries ?? 5
  const baseMs = options.backoffBaseMs ?? 300
  const capMs = options.backoffCapMs ?? 20_000
  const random = options.random ?? Math.random
  const now = options.now ?? Date.now
  const base = options.baseUrl.replace(/\/+$/, '')
  let window: SlidingWindow | null | undefined
  /** The server said to hold off until then (Retry-After, or X-RateLimit-Remaining 0). */
  let blockedUntil = 0
  /** Pacing is serialised so concurrent calls queue instead of all seeing the same free slot. */
  let pacingQueue: Promise<void> = Promise.resolve()

  async function currentKey(endpoint: string): Promise<{ key: string; mode: KeyMode }> {
    const key = await options.getKey()
    const mode = keyMode(key)
    if (!mode || /[\s\p{Cc}\p{Cf}]/u.test(key)) {
      throw new ApiError({
        kind: 'auth',
        code: 'invalid_key_format',
        message: `the stored key is not a secret key (it should start with ${KEY_PREFIXES.test} or ${KEY_PREFIXES.live}, with no spaces or line breaks)`,
        endpoint
      })
    }
    return { key, mode }
  }

  function windowFor(mode: KeyMode): SlidingWindow | null {
    if (window !== undefined) return window
    const pacing = options.pacing === undefined ? RATE_LIMITS[mode] : options.pacing
    window = pacing
      ? new SlidingWindow([
          { limit: pacing.perMinute, windowMs: 60_000 + WINDOW_MARGIN_MS.minute },
          { limit: pacing.perSecond, windowMs: 1_000 + WINDOW_MARGIN_MS.second }
        ])
      : null
    return window
  }

  function pace(mode: KeyMode, signal: AbortSignal | undefined): Promise<void> {
    const limiter = windowFor(mode)
    const turn = pacingQueue.then(async () => {
      for (;;) {
        const wait = Math.max(blockedUntil - now(), limiter ? limiter.delayAt(now()) : 0)
        if (wait <= 0) break
        await sleep(wait, signal)
      }
      limiter?.record(now())
    })
    pacingQueue = turn.catch(() => undefined)
    return turn
  }

  function url(spec: RequestSpec<z.ZodType>): string {
    const params = new URLSearchParams()
    for (const [name, value] of Object.entries(spec.query ?? {})) if (value !== undefined && value !== '') params.set(name, String(value))
    const qs = params.toString()
    return `${base}${spec.path}${qs ? `?${qs}` : ''}`
  }

  async function attempt<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>> {
    const { key, mode } = await currentKey(spec.endpoint)
    await pace(mode, spec.signal)
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout
    const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: 'application/json' }
    let body: string | FormData | undefined
    if (spec.json !== undefined) {
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(spec.json)
    } else if (spec.form) {
      body = spec.form
    }
    let status: number
    let text: string
    let response: Response
    try {
      // Never follow a redirect: it would carry the bearer key to wherever the server points.
      response = await doFetch(url(spec), { method: spec.method, headers, body: body ?? null, signal, redirect: 'manual' })
      status = response.status
      text = await response.text()
    } catch (error) {
      if (spec.signal?.aborted) throw new ApiError({ kind: 'cancelled', code: 'cancelled', message: 'cancelled', endpoint: spec.endpoint })
      if (timeout.aborted) {
        throw new ApiError({
          kind: 'timeout',
          code: 'timeout',
          message: `no complete answer within ${Math.round(timeoutMs / 1000)} s`,
          endpoint: spec.endpoint
        })
      }
      throw new ApiError({
        kind: 'network',
        code: 'network_error',
        message: `the connection failed (${networkCause(error)})`,
        endpoint: spec.endpoint
      })
    }
    if (response.type === 'opaqueredirect' || (status >= 300 && status < 400)) {
      const location = response.headers.get('location')
      throw new ApiError({
        kind: 'http',
        code: 'redirect_refused',
        message: `the server answered with a redirect${location ? ` to ${location.slice(0, 200)}` : ''} (HTTP ${status || 'redirect'}); Ledgerline never sends your key on to another address. Check the profile's base URL.`,
        endpoint: spec.endpoint,
        status
      })
    }
    const at = now()
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), at)
    const remaining = response.headers.get('x-ratelimit-remaining')
    const reset = parseReset(response.headers.get('x-ratelimit-reset'), at)
    if (remaining !== null && Number(remaining) <= 0 && reset !== undefined) blockedUntil = Math.max(blockedUntil, reset)
    if (status === 429 && retryAfterMs !== undefined) blockedUntil = Math.max(blockedUntil, at + retryAfterMs)

    let parsed: unknown
    let parseFailed = false
    try {
      parsed = text === '' ? undefined : parseJsonExact(text)
    } catch {
      parseFailed = true
    }
    if (status < 200 || status >= 300) {
      throw errorFromResponse(spec.endpoint, status, parseFailed ? undefined : parsed, retryAfterMs)
    }
    if (parseFailed || parsed === undefined) {
      const preview = text.slice(0, 60).replace(/\s+/g, ' ')
      throw new ApiError({
        kind: 'malformed',
        code: 'malformed_response',
        message: `the answer was not complete JSON (HTTP ${status}, ${text.length} bytes${preview ? `: "${preview}…"` : ''})`,
        endpoint: spec.endpoint,
        status
      })
    }
    const checked = spec.schema.safeParse(parsed)
    if (!checked.success) {
      const first = describeIssue(checked.error.issues[0] as z.core.$ZodIssue)
      throw new ApiError({
        kind: 'unexpected',
        code: 'unexpected_response',
        message: `the answer is missing or has a wrong "${first.field}" (${first.message})`,
        endpoint: spec.endpoint,
        status,
        field: first.field
      })
    }
    return checked.data
  }

  /** Reads may be retried on anything transient; writes only on 429, which means the request was not processed. */
  function retryable(spec: RequestSpec<z.ZodType>, error: ApiError): boolean {
    if (spec.method === 'GET') return error.transient || error.kind === 'malformed'
    return error.status === 429
  }

  return {
    async request(spec) {
      for (let attemptNo = 0; ; attemptNo++) {
        try {
          return await attempt(spec)
        } catch (error) {
          if (!(error instanceof ApiError) || !retryable(spec, error) || attemptNo >= maxRetries) throw error
          // Exponential backoff with full jitter, but never sooner than the server asked.
          const jitter = Math.floor(random() * Math.min(capMs, baseMs * 2 ** attemptNo))
          const delayMs = Math.max(jitter, error.retryAfterMs ?? 0)
          options.onRetry?.({ endpoint: spec.endpoint, attempt: attemptNo + 1, delayMs, error })
          try {
            await sleep(delayMs, spec.signal)
          } catch {
            throw new ApiError({ kind: 'cancelled', code: 'cancelled', message: 'cancelled', endpoint: spec.endpoint })
          }
        }
      }
    },
    async mode() {
      return (await currentKey('key check')).mode
    }
  }
}

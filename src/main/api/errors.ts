// One error type for every way an API call can fail, carrying status, machine code, message and request marker.
import { providerCode, type CallErrorCode } from '../../shared/error-codes'
import { AppError } from '../errors'

export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'cancelled' | 'malformed' | 'unexpected' | 'auth'

export interface ApiErrorInit {
  kind: ApiErrorKind
  /** One of ours, or the provider's own (providerCode). */
  code: CallErrorCode
  message: string
  /** "GET /payments" style: method and path, never the query's values or the host's credentials. */
  endpoint: string
  status?: number
  requestMarker?: string
  retryAfterMs?: number
  /** Field path for unexpected_response, e.g. "content.3.amount". */
  field?: string
}

export class ApiError extends AppError {
  readonly kind: ApiErrorKind
  readonly status: number | null
  readonly endpoint: string
  readonly requestMarker: string | null
  readonly retryAfterMs: number | null
  readonly field: string | null

  constructor(init: ApiErrorInit) {
    const details = {
      kind: init.kind,
      endpoint: init.endpoint,
      ...(init.status !== undefined ? { status: init.status } : {}),
      ...(init.requestMarker ? { requestMarker: init.requestMarker } : {}),
      ...(init.field ? { field: init.field } : {})
    }
    super(init.code, `${init.endpoint}: ${init.message}`, details)
    this.name = 'ApiError'
    this.kind = init.kind
    this.status = init.status ?? null
    this.endpoint = init.endpoint
    this.requestMarker = init.requestMarker ?? null
    this.retryAfterMs = init.retryAfterMs ?? null
    this.field = init.field ?? null
  }

  /** Network trouble, timeouts, 429 and 5xx may succeed on a later try; nothing else will. */
  get transient(): boolean {
    if (this.kind === 'network' || this.kind === 'timeout') return true
    return this.status === 429 || (this.status !== null && this.status >= 500)
  }
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined)

/** Reads an error response body of any documented (or undocumented) shape into code and message. */
export function errorFromResponse(endpoint: string, status: number, body: unknown, retryAfterMs?: number): ApiError {
  const record = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
  const requestMarker = str(record['requestMarker'])
  const extra = { ...(requestMarker ? { requestMarker } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) }
  // 401 shape B: { code, message (human), statusCode, requestMarker }
  if (str(record['code'])) {
    const code = providerCode(str(record['code']) as string)
    const message = str(record['message']) ?? `HTTP ${status}`
    return new ApiError({ kind: status === 401 ? 'auth' : 'http', code, message: `${message} (${code})`, endpoint, status, ...extra })
  }
  // 400 / 401 shape A: { error (title), message (machine code), status }
  const title = str(record['error'])
  const machine = str(record['message'])
  // With no machine code of the provider's, the code says what HTTP said (a 404 and an unknown status in the provider's terms).
  const fallbackCode: CallErrorCode =
    status === 404
      ? providerCode('not_found')
      : status === 429
        ? 'rate_limit_exceeded'
        : status >= 500
          ? 'server_error'
          : providerCode(`http_${status}`)
  const code = machine && /^[a-z0-9_.-]+$/i.test(machine) && !machine.includes(' ') ? providerCode(machine) : fallbackCode
  const human =
    status === 401
      ? 'the API key was refused; check that it is the right key for this profile and has not been revoked'
      : status === 404
        ? 'not found'
        : status === 429
          ? 'too many requests; the provider asked us to slow down'
          : status >= 500
            ? 'the provider had a server error'
            : (title ?? machine ?? `HTTP ${status}`)
  const detail = title && human !== title ? ` [${title}]` : ''
  return new ApiError({
    kind: status === 401 ? 'auth' : 'http',
    code,
    message: `${human}${detail} (${code}, HTTP ${status})`,
    endpoint,
    status,
    ...extra
  })
}

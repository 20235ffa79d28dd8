// The Sandbox's control endpoints (/__sandbox/*) for tests and demos: what it serves, faults, submitting a bulk file as the dashboard would, rate limits on or off; only for a local caller that knows the token.
import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { BULK_FILE_LIMITS } from '../shared/api/assumptions'
import type { SandboxMode } from './data'
import { isFaultKind, type FaultControl, type FaultSettings } from './faults'
import { readBody, type Json } from './http'
import type { SandboxRateLimits } from './rate-limits'
import type { submitBulkFile } from './endpoints/transfers'

/** What the control endpoints work on. */
export interface ControlTarget {
  /** The port the Sandbox listens on (a control request's Host must name it). */
  port(): number
  /** Required in X-Sandbox-Token. */
  token: string
  /** What GET /__sandbox/info says besides the faults and rate limits. */
  info(): Json
  faults: FaultControl
  rateLimits: SandboxRateLimits
  submitBulkFile(mode: SandboxMode, csv: string): ReturnType<typeof submitBulkFile>
}

/**
 * Why a control request is refused, or null. A web page the user has open can reach 127.0.0.1 too:
 * it sends an Origin header (and, through DNS rebinding, a foreign Host), cannot read the token,
 * and cannot send application/json cross-origin without a preflight this server never answers.
 */
function refuseControl(target: ControlTarget, req: IncomingMessage): { status: number; message: string; error: string } | null {
  if (req.headers.origin !== undefined) return { status: 403, error: 'Requests from web pages are refused', message: 'origin_refused' }
  const port = target.port()
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
  if (!allowedHosts.has((req.headers.host ?? '').toLowerCase()))
    return { status: 403, error: 'Unexpected Host header', message: 'host_refused' }
  const token = req.headers['x-sandbox-token']
  const given = Buffer.from(typeof token === 'string' ? token : '')
  const expected = Buffer.from(target.token)
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { status: 401, error: 'X-Sandbox-Token missing or wrong', message: 'control_token_required' }
  if (req.method === 'POST' && !/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    return { status: 415, error: 'Control requests must be application/json', message: 'unsupported_media_type' }
  }
  return null
}

export async function handleControl(target: ControlTarget, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const { faults } = target
  const reply = (status: number, body: unknown): void => {
    res.writeHead(status, { 'Content-Type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  const refused = refuseControl(target, req)
  if (refused) {
    req.resume()
    return reply(refused.status, { error: refused.error, message: refused.message, status: refused.status })
  }
  if (req.method === 'GET' && path === '/__sandbox/info') {
    return reply(200, { ...target.info(), faults: faults.describe(), rateLimits: target.rateLimits.enabled })
  }
  const body = await readBody(req, path === '/__sandbox/bulk-files' ? BULK_FILE_LIMITS.maxBytes * 2 : 64 * 1024)
  let input: Json = {}
  try {
    input = JSON.parse(body?.toString('utf8') || '{}') as Json
  } catch {
    return reply(400, { error: 'Malformed JSON body', message: 'invalid_json', status: 400 })
  }
  if (req.method === 'POST' && path === '/__sandbox/faults') {
    if (input['reset'] === true) faults.reset()
    const settings: Partial<FaultSettings> = {}
    if (typeof input['latencyMs'] === 'number') settings.latencyMs = input['latencyMs']
    if (typeof input['slowMs'] === 'number') settings.slowMs = input['slowMs']
    if (input['rates'] && typeof input['rates'] === 'object') {
      const rates: FaultSettings['rates'] = {}
      for (const [kind, rate] of Object.entries(input['rates'] as Json))
        if (isFaultKind(kind) && typeof rate === 'number') rates[kind] = rate
      settings.rates = rates
    }
    faults.set(settings)
    for (const kind of Array.isArray(input['queue']) ? input['queue'] : []) if (isFaultKind(kind)) faults.queueFault(kind)
    return reply(200, faults.describe())
  }
  if (req.method === 'POST' && path === '/__sandbox/bulk-files') {
    const mode = input['mode'] === 'live' ? 'live' : 'test'
    const result = target.submitBulkFile(mode, typeof input['csv'] === 'string' ? input['csv'] : '')
    return 'id' in result
      ? reply(200, result)
      : reply(400, { error: result.title, message: 'invalid_file', status: 400, failedRequests: result.failures })
  }
  if (req.method === 'POST' && path === '/__sandbox/rate-limits') {
    target.rateLimits.set(input['enabled'] !== false)
    return reply(200, { enabled: input['enabled'] !== false })
  }
  return reply(404, { error: 'Not found', message: 'not_found', status: 404 })
}

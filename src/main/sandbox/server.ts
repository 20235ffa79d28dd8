// The Sandbox: a local HTTP simulator of every endpoint in api-spec.md, with test/live keys, rate limits and injectable faults.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { BULK_FILE_LIMITS, KEY_PREFIXES, RATE_LIMITS } from '../../shared/api/assumptions'
import { MoneyError, parseMajor } from '../../shared/money'
import { SlidingWindow, type RateWindow } from '../api/rate-window'
import { checkPlanRows, checkTransferRows, parseCsv, PLAN_COLUMNS, TRANSFER_COLUMNS, type RowFailure } from './csv-checks'
import { major, type SandboxMode, type SeedOptions } from './data'
import { FaultControl, isFaultKind, type FaultKind, type FaultSettings } from './faults'
import { ModeState } from './state'
import { strictVirtualAccount } from './strict'

type Json = Record<string, unknown>

export interface SandboxOptions {
  seed?: number
  /** Seeded payments per mode. */
  payments?: number
  plans?: number
  subscriptions?: number
  /** Transfer counts of each seeded bulk file. */
  bulkFiles?: number[]
  /** Largest page the list endpoints return; larger requests are cut to it. */
  maxPageSize?: number
  /** Enforce the provider's documented rate limits (default), custom ones, or none. */
  rateLimits?: boolean | Partial<Record<SandboxMode, { perMinute: number; perSecond: number }>>
  keys?: Partial<Record<SandboxMode, string>>
  /** Required in X-Sandbox-Token by the /__sandbox/* control endpoints; default: a fresh random one. */
  controlToken?: string
  port?: number
  host?: string
  /** Largest request body accepted, in bytes. */
  maxBodyBytes?: number
  /**
   * Answer only with what api-spec.md shows: no invented fields (virtual accounts without amount,
   * currency or expiry; payments without made-up metadata), spec statuses only, and 400 (the spec
   * lists 400 and 401 only) for an id the server does not know. See strict.ts.
   */
  strictSpec?: boolean
}

/** Ways a misbehaving server pages, switchable while it runs (tests of the client's paging checks). */
export interface PagingQuirks {
  /** The `page` query parameter is ignored: every request gets the first page, labelled page 0. */
  ignorePage: boolean
  /** Like ignorePage, but the answer claims to be the page asked for. */
  ignorePageButEcho: boolean
  /** Overrides maxPageSize from now on (a server whose page size changed between two syncs). */
  maxPageSize: number | null
}

export interface RequestLogEntry {
  method: string
  path: string
  query: Record<string, string>
  status: number
  mode: SandboxMode | null
  fault: FaultKind | null
  at: number
}

export interface Sandbox {
  /** Ends in /v1, like the provider's {base_url}. */
  baseUrl: string
  keys: Record<SandboxMode, string>
  /** The X-Sandbox-Token value the control endpoints (faults, rate limits, info) require. */
  controlToken: string
  bulkFileIds: Record<SandboxMode, string[]>
  faults: FaultControl
  readonly strictSpec: boolean
  paging: PagingQuirks
  /** The most recent requests (bounded), for tests and diagnostics. */
  requests: RequestLogEntry[]
  setRateLimits(limits: SandboxOptions['rateLimits']): void
  state(mode: SandboxMode): ModeState
  /**
   * Takes a bulk transfer CSV as the provider's dashboard does when a merchant submits a checked
   * file, and answers with its bulk file id; a file the provider would refuse gives its failures.
   */
  submitBulkFile(mode: SandboxMode, csv: string): { id: string; transfers: number } | { failures: RowFailure[]; title: string }
  close(): Promise<void>
}

const DEFAULTS = { seed: 1, payments: 5_000, plans: 40, subscriptions: 600, bulkFiles: [25, 240, 1200], maxPageSize: 50 }
const LOG_LIMIT = 20_000
const SHAPE_B_ENDPOINTS = new Set(['bulk-transfers', 'transfer', 'banks', 'subscriptions', 'bulk-plans', 'plan', 'plan-cancel'])

class HttpReply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {}
  ) {}
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpReply => new HttpReply(status, body, headers)
const bad = (message: string, error = 'Missing Parameter'): HttpReply => json(400, { error, message, status: 400 })
const notFound = (what: string): HttpReply => json(404, { error: `${what} not found`, message: 'not_found', status: 404 })

function newKey(mode: SandboxMode): string {
  return `${KEY_PREFIXES[mode]}${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`
}

function intParam(value: string | null, fallback: number): number | null {
  if (value === null || value === '') return fallback
  return /^\d{1,9}$/.test(value) ? Number(value) : null
}

function pageWrapper(content: Json[], page: number, size: number, total: number): Json {
  return { content, pageNumber: page, pageSize: size, totalElements: total, totalPages: Math.ceil(total / size) }
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > limit) return null
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** The seeded data a Sandbox started with these options serves (its sample statement is built from the same). */
export function sandboxSeed(
  options: Pick<SandboxOptions, 'seed' | 'payments' | 'plans' | 'subscriptions' | 'bulkFiles'> = {}
): SeedOptions {
  return {
    seed: options.seed ?? DEFAULTS.seed,
    payments: options.payments ?? DEFAULTS.payments,
    plans: options.plans ?? DEFAULTS.plans,
    subscriptions: options.subscriptions ?? DEFAULTS.subscriptions,
    bulkFiles: options.bulkFiles ?? DEFAULTS.bulkFiles
  }
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seedOptions = sandboxSeed(options)
  const seed = seedOptions.seed
  const maxPageSize = options.maxPageSize ?? DEFAULTS.maxPageSize
  const maxBody = options.maxBodyBytes ?? BULK_FILE_LIMITS.maxBytes * 2
  const keys: Record<SandboxMode, string> = { test: options.keys?.test ?? newKey('test'), live: options.keys?.live ?? newKey('live') }
  const controlToken = options.controlToken ?? randomBytes(24).toString('base64url')
  const strictSpec = options.strictSpec === true
  const states: Record<SandboxMode, ModeState> = {
    test: new ModeState(seedOptions, 'test', strictSpec),
    live: new ModeState(seedOptions, 'live', strictSpec)
  }
  const pagingQuirks: PagingQuirks = { ignorePage: false, ignorePageButEcho: false, maxPageSize: null }
  /** An unknown id: 404 in the lenient Sandbox (as the provider answers in practice), 400 in strict mode (the spec shows no 404). */
  const unknown = (what: string): HttpReply => (strictSpec ? bad('invalid_parameter', 'Bad Request') : notFound(what))
  const accountShape = (account: Json): Json => (strictSpec ? strictVirtualAccount(account) : account)
  const faults = new FaultControl(seed)
  const requests: RequestLogEntry[] = []
  let limiters: Partial<Record<SandboxMode, { window: SlidingWindow; minute: RateWindow; second: RateWindow }>> = {}

  function setRateLimits(limits: SandboxOptions['rateLimits']): void {
    limiters = {}
    if (limits === false) return
    for (const mode of ['test', 'live'] as const) {
      const chosen = (limits === true || limits === undefined ? undefined : limits[mode]) ?? RATE_LIMITS[mode]
      const minute = { limit: chosen.perMinute, windowMs: 60_000 }
      const second = { limit: chosen.perSecond, windowMs: 1_000 }
      limiters[mode] = { window: new SlidingWindow([minute, second]), minute, second }
    }
  }
  setRateLimits(options.rateLimits ?? true)

  function modeForAuth(header: string | undefined): SandboxMode | null {
    const match = /^Bearer\s+(\S+)$/i.exec(header ?? '')
    if (!match) return null
    if (match[1] === keys.test) return 'test'
    if (match[1] === keys.live) return 'live'
    return null
  }

  function unauthorized(endpoint: string, hadHeader: boolean): HttpReply {
    if (SHAPE_B_ENDPOINTS.has(endpoint)) {
      return json(401, {
        message: hadHeader ? 'Authorization token is invalid.' : 'Authorization token is required.',
        statusCode: 401,
        code: 'AUTH_ERROR',
        requestMarker: crypto.randomUUID()
      })
    }
    return json(401, { error: 'Unauthorized', message: 'invalid_credentials', status: 401 })
  }

  /** Matches the path to an endpoint name and its path parameters. */
  function route(method: string, path: string): { endpoint: string; params: string[] } | null {
    const table: [string, string, RegExp][] = [
      ['POST', 'va-create', /^\/virtual-accounts\/temporary$/],
      ['GET', 'va-get', /^\/virtual-accounts\/([^/]+)$/],
      ['POST', 'authorize', /^\/payments\/authorize$/],
      ['GET', 'payments', /^\/payments$/],
      ['POST', 'bulk-validate', /^\/transfers\/bulk\/validate$/],
      ['GET', 'bulk-transfers', /^\/transfers\/bulk\/([^/]+)\/transfers$/],
      ['GET', 'transfer', /^\/transfers\/reference\/([^/]+)$/],
      ['GET', 'banks', /^\/transfers\/banks\/([^/]+)$/],
      ['GET', 'subscriptions', /^\/subscriptions$/],
      ['POST', 'bulk-plans', /^\/bulk-plans$/],
      ['GET', 'plan', /^\/plans\/([^/]+)$/],
      ['POST', 'plan-cancel', /^\/plans\/([^/]+)\/cancel$/],
      ['POST', 'funds', /^\/simulator\/funds$/]
    ]
    for (const [m, endpoint, pattern] of table) {
      const match = pattern.exec(path)
      if (match && m === method) return { endpoint, params: match.slice(1).map((p) => decodeURIComponent(p)) }
    }
    return null
  }

  async function csvFrom(req: IncomingMessage, body: Buffer, allowJson: boolean): Promise<{ csv: string; form?: FormData } | HttpReply> {
    const type = req.headers['content-type'] ?? ''
    if (allowJson && type.startsWith('application/json')) {
      let parsed: unknown
      try {
        parsed = JSON.parse(body.toString('utf8'))
      } catch {
        return bad('invalid_json', 'Malformed JSON body')
      }
      const file = (parsed as Json | null)?.['file']
      return typeof file === 'string' && file !== '' ? { csv: file } : bad('missing_parameter')
    }
    if (type.startsWith('multipart/form-data')) {
      let form: FormData
      try {
        form = await new Request('http://sandbox/', { method: 'POST', headers: { 'content-type': type }, body }).formData()
      } catch {
        return bad('invalid_form', 'Malformed multipart body')
      }
      const file = form.get('file')
      if (file === null) return bad('missing_parameter')
      return { csv: typeof file === 'string' ? file : await file.text(), form }
    }
    return bad(
      'missing_parameter',
      allowJson ? 'Send the CSV as JSON {"file": …} or as a multipart "file" part' : 'Send the CSV as a multipart "file" part'
    )
  }

  async function handle(req: IncomingMessage, url: URL, mode: SandboxMode, endpoint: string, params: string[]): Promise<HttpReply> {
    const state = states[mode]
    const q = url.searchParams
    const body = req.method === 'POST' ? await readBody(req, maxBody) : Buffer.alloc(0)
    if (body === null) return json(413, { error: 'Payload Too Large', message: 'payload_too_large', status: 413 })
    const jsonBody = (): Json | HttpReply => {
      try {
        const parsed: unknown = JSON.parse(body.toString('utf8') || 'null')
        return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Json) : bad('missing_parameter')
      } catch {
        return bad('invalid_json', 'Malformed JSON body')
      }
    }
    const paging = (): { page: number; size: number; label: number } | HttpReply => {
      const page = intParam(q.get('page'), 0)
      const size = intParam(q.get('size'), 10)
      if (page === null || size === null || size === 0) return bad('invalid_parameter', 'Invalid page or size')
      const largest = pagingQuirks.maxPageSize ?? maxPageSize
      if (pagingQuirks.ignorePage || pagingQuirks.ignorePageButEcho)
        return { page: 0, size: Math.min(size, largest), label: pagingQuirks.ignorePageButEcho ? page : 0 }
      return { page, size: Math.min(size, largest), label: page }
    }

    switch (endpoint) {
      case 'va-create': {
        const input = jsonBody()
        if (input instanceof HttpReply) return input
        const { currency, accountName, amount, expiresIn } = input
        if (currency !== 'NGN' && currency !== 'GHS')
          return bad(
            currency === undefined ? 'missing_parameter' : 'invalid_currency',
            currency === undefined ? 'Missing Parameter' : 'Currency must be NGN or GHS'
          )
        if (typeof accountName !== 'string' || accountName.trim() === '') return bad('missing_parameter')
        if (typeof amount !== 'number' && typeof amount !== 'string') return bad('missing_parameter')
        let minor: number
        try {
          minor = parseMajor(amount, currency)
        } catch (error) {
          return bad(error instanceof MoneyError ? error.code : 'invalid_amount', 'Invalid amount')
        }
        if (minor <= 0) return bad('invalid_amount', 'Invalid amount')
        const minutes = expiresIn === undefined ? 30 : expiresIn
        if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > 30)
          return bad('invalid_parameter', 'expiresIn must be 1 to 30 minutes')
        const id = crypto.randomUUID()
        const account: Json = {
          id,
          accountNumber: state.newAccountNumber(),
          accountName: accountName.trim(),
          bankName: mode === 'test' ? 'Sandbox Test Bank' : currency === 'NGN' ? 'Providus Bank' : 'GCB Bank',
          mode,
          lifecycle: 'temporary',
          amount: major(minor, currency),
          currency,
          createdAt: new Date().toISOString(),
          expiresAt: new Date(Date.now() + minutes * 60_000).toISOString()
        }
        state.virtualAccounts.set(id, account)
        return json(200, accountShape(account))
      }
      case 'va-get': {
        const account = state.virtualAccounts.get(params[0] ?? '')
        if (!account) return unknown('Virtual account')
        return json(
          200,
          accountShape(Date.parse(account['expiresAt'] as string) <= Date.now() ? { ...account, lifecycle: 'expired' } : account)
        )
      }
      case 'funds': {
        if (mode !== 'test') return bad('test_mode_only', 'The funds simulator works with test keys only')
        const input = jsonBody()
        if (input instanceof HttpReply) return input
        const account = typeof input['virtualAccountId'] === 'string' ? state.virtualAccounts.get(input['virtualAccountId']) : undefined
        if (!account) return input['virtualAccountId'] === undefined ? bad('missing_parameter') : unknown('Virtual account')
        if (Date.parse(account['expiresAt'] as string) <= Date.now()) return bad('account_expired', 'The virtual account has expired')
        const currency = account['currency'] as string
        let minor: number
        try {
          minor = parseMajor((input['amount'] as number | string | undefined) ?? (account['amount'] as number), currency)
        } catch {
          return bad('invalid_amount', 'Invalid amount')
        }
        const payment: Json = {
          id: state.newPaymentId(),
          reference: `VA-${(account['id'] as string).slice(0, 8)}-${Date.now()}`,
          serviceReference: `SRV${randomBytes(8).toString('hex').toUpperCase()}`,
          amount: major(minor, currency),
          currency,
          localAmount: major(minor, currency),
          localCurrency: currency,
          totalFees: 0,
          totalTaxAmount: 0,
          totalLocalAmount: major(minor, currency),
          channel: 'bank_transfer',
          status: 'successful',
          rate: 1,
          region: currency === 'NGN' ? 'NG' : 'GH',
          mode: 'TEST',
          createdAt: new Date().toISOString(),
          bankDetails: { accountName: account['accountName'], accountNumber: account['accountNumber'], bankName: account['bankName'] },
          metadata: { virtualAccountId: account['id'] }
        }
        state.addPayment(payment)
        return json(200, payment)
      }
      case 'authorize': {
        const input = jsonBody()
        if (input instanceof HttpReply) return input
        const auth = input['authorization']
        if (typeof input['reference'] !== 'string' || input['reference'] === '' || auth === null || typeof auth !== 'object')
          return bad('missing_parameter')
        const result = state.authorize(input['reference'], auth as Json)
        if (!result) return unknown('Payment')
        if ('error' in result) return bad(result.error, result.title)
        return json(200, ModeState.authorizeShape(result.payment))
      }
      case 'payments': {
        const p = paging()
        if (p instanceof HttpReply) return p
        const status = q.get('status') ?? undefined
        const channel = q.get('channel') ?? undefined
        if (status && !['successful', 'failed', 'pending'].includes(status)) return bad('invalid_parameter', 'Invalid status')
        if (channel && !['card', 'bank_transfer', 'mobile_money', 'eft'].includes(channel))
          return bad('invalid_parameter', 'Invalid channel')
        const filter = {
          ...(q.get('reference') ? { paymentId: q.get('reference') as string } : {}),
          ...(q.get('query') ? { reference: q.get('query') as string } : {}),
          ...(status ? { status } : {}),
          ...(channel ? { channel } : {}),
          ...(q.get('provider') ? { provider: q.get('provider') as string } : {})
        }
        const slice = state.listPayments(filter, p.page, p.size)
        return json(200, pageWrapper(slice.content, p.label, p.size, slice.total))
      }
      case 'bulk-validate': {
        const got = await csvFrom(req, body, true)
        if (got instanceof HttpReply) return got
        const parsed = parseCsv(got.csv, TRANSFER_COLUMNS)
        if ('code' in parsed) return bad(parsed.code, parsed.title)
        return json(200, { failedRequests: checkTransferRows(parsed.rows), totalRequests: parsed.rows.length })
      }
      case 'bulk-transfers': {
        const p = paging()
        if (p instanceof HttpReply) return p
        const submitted = state.listSubmittedBulkTransfers(params[0] ?? '', p.page, p.size)
        if (submitted) return json(200, pageWrapper(submitted.content, p.label, p.size, submitted.total))
        const file = state.bulkFileIndex(params[0] ?? '')
        if (file === null) return unknown('Bulk file')
        const slice = state.listBulkTransfers(file, p.page, p.size)
        return json(200, pageWrapper(slice.content, p.label, p.size, slice.total))
      }
      case 'transfer': {
        const transfer = state.transferByReference(params[0] ?? '')
        return transfer ? json(200, transfer) : unknown('Transfer')
      }
      case 'banks': {
        const currency = params[0]
        if (currency !== 'NGN' && currency !== 'GHS') return bad('invalid_currency', 'Currency must be NGN or GHS')
        return json(200, state.banks(currency))
      }
      case 'subscriptions': {
        const p = paging()
        if (p instanceof HttpReply) return p
        const slice = state.listSubscriptions(q.get('customerId') ?? undefined, q.get('email') ?? undefined, p.page, p.size)
        // Documented shape: an array whose element is a page wrapper.
        return json(200, [pageWrapper(slice.content, p.label, p.size, slice.total)])
      }
      case 'bulk-plans': {
        const got = await csvFrom(req, body, false)
        if (got instanceof HttpReply) return got
        const parsed = parseCsv(got.csv, PLAN_COLUMNS)
        if ('code' in parsed) return bad(parsed.code, parsed.title)
        const skipErrors = String(got.form?.get('skipErrors') ?? 'false').toLowerCase() === 'true'
        const { failures, valid } = checkPlanRows(parsed.rows, (ref) => state.planReferenceInUse(ref))
        if (failures.length === 0 || skipErrors) for (const plan of valid) state.createPlan(plan.fields)
        const created = failures.length === 0 || skipErrors ? valid.length : 0
        // The spec shows an empty object and no fields; a strict server says nothing more.
        if (strictSpec) return failures.length === 0 || skipErrors ? json(200, {}) : bad('invalid_file', 'Bad Request')
        return json(200, {
          status: failures.length === 0 ? 'success' : skipErrors ? 'partial' : 'failed',
          created,
          failedRequests: failures
        })
      }
      case 'plan': {
        const plan = state.plan(params[0] ?? '')
        return plan ? json(200, plan) : unknown('Plan')
      }
      case 'plan-cancel': {
        const plan = state.plan(params[0] ?? '')
        if (!plan) return unknown('Plan')
        // As the provider's sample does: a status outside the documented enum.
        const cancelled = { ...plan, status: 'cancelled' }
        state.savePlan(cancelled)
        return json(200, cancelled)
      }
    }
    return notFound('Endpoint')
  }

  function rateCheck(mode: SandboxMode): { headers: Record<string, string>; retryAfterMs: number } {
    const limiter = limiters[mode]
    if (!limiter) return { headers: {}, retryAfterMs: 0 }
    const now = Date.now()
    const delay = limiter.window.delayAt(now)
    if (delay === 0) limiter.window.record(now)
    const headers = {
      'X-RateLimit-Limit': String(limiter.minute.limit),
      'X-RateLimit-Remaining': String(limiter.window.remaining(now, limiter.minute)),
      'X-RateLimit-Reset': String(Math.ceil(limiter.window.resetAt(now, limiter.minute) / 1000))
    }
    return { headers, retryAfterMs: delay }
  }

  function send(res: ServerResponse, reply: HttpReply, fault: FaultKind | null): void {
    const text = reply.body === undefined ? '' : JSON.stringify(reply.body)
    const headers = { 'Content-Type': 'application/json', ...reply.headers }
    if (fault === 'cut-body') {
      res.writeHead(reply.status, { ...headers, 'Content-Length': String(Buffer.byteLength(text)) })
      res.write(text.slice(0, Math.floor(text.length / 2)))
      res.socket?.destroy()
      return
    }
    if (fault === 'truncated-json') {
      const half = text.slice(0, Math.max(1, Math.floor(text.length / 2)))
      res.writeHead(reply.status, { ...headers, 'Content-Length': String(Buffer.byteLength(half)) })
      res.end(half)
      return
    }
    if (fault === 'non-json') {
      const html = '<html><body><h1>Service temporarily unavailable</h1></body></html>'
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': String(html.length) })
      res.end(html)
      return
    }
    res.writeHead(reply.status, { ...headers, 'Content-Length': String(Buffer.byteLength(text)) })
    res.end(text)
  }

  function faultReply(fault: FaultKind): HttpReply | null {
    switch (fault) {
      case 'rate-limit':
        return json(429, { error: 'Too Many Requests', message: 'rate_limit_exceeded', status: 429 }, { 'Retry-After': '1' })
      case 'server-error':
        return json(500, { error: 'Internal Server Error', message: 'server_error', status: 500 })
      case 'unavailable':
        return json(503, { error: 'Service Unavailable', message: 'server_error', status: 503 }, { 'Retry-After': '1' })
      default:
        return null
    }
  }

  /**
   * Why a control request is refused, or null. A web page the user has open can reach 127.0.0.1 too:
   * it sends an Origin header (and, through DNS rebinding, a foreign Host), cannot read the token,
   * and cannot send application/json cross-origin without a preflight this server never answers.
   */
  function refuseControl(req: IncomingMessage): { status: number; message: string; error: string } | null {
    if (req.headers.origin !== undefined) return { status: 403, error: 'Requests from web pages are refused', message: 'origin_refused' }
    const port = (server.address() as AddressInfo).port
    const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`])
    if (!allowedHosts.has((req.headers.host ?? '').toLowerCase()))
      return { status: 403, error: 'Unexpected Host header', message: 'host_refused' }
    const token = req.headers['x-sandbox-token']
    const given = Buffer.from(typeof token === 'string' ? token : '')
    const expected = Buffer.from(controlToken)
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return { status: 401, error: 'X-Sandbox-Token missing or wrong', message: 'control_token_required' }
    if (req.method === 'POST' && !/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
      return { status: 415, error: 'Control requests must be application/json', message: 'unsupported_media_type' }
    }
    return null
  }

  function submitBulkFile(mode: SandboxMode, csv: string): ReturnType<Sandbox['submitBulkFile']> {
    const parsed = parseCsv(csv, TRANSFER_COLUMNS)
    if ('code' in parsed) return { failures: [], title: parsed.title }
    const failures = checkTransferRows(parsed.rows)
    if (failures.length > 0) return { failures, title: `${failures.length} row problem(s)` }
    const rows = parsed.rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, (v ?? '').trim()])))
    return { id: states[mode].submitBulkFile(rows), transfers: rows.length }
  }

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const reply = (status: number, body: unknown): void => {
      res.writeHead(status, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    const refused = refuseControl(req)
    if (refused) {
      req.resume()
      return reply(refused.status, { error: refused.error, message: refused.message, status: refused.status })
    }
    if (req.method === 'GET' && path === '/__sandbox/info') {
      return reply(200, {
        seed,
        payments: seedOptions.payments,
        bulkFileIds: sandbox.bulkFileIds,
        faults: faults.describe(),
        rateLimits: Object.keys(limiters).length > 0
      })
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
      const result = submitBulkFile(mode, typeof input['csv'] === 'string' ? input['csv'] : '')
      return 'id' in result
        ? reply(200, result)
        : reply(400, { error: result.title, message: 'invalid_file', status: 400, failedRequests: result.failures })
    }
    if (req.method === 'POST' && path === '/__sandbox/rate-limits') {
      setRateLimits(input['enabled'] !== false)
      return reply(200, { enabled: input['enabled'] !== false })
    }
    return reply(404, { error: 'Not found', message: 'not_found', status: 404 })
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox')
    if (url.pathname.startsWith('/__sandbox/')) return control(req, res, url.pathname)
    const log: RequestLogEntry = {
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status: 0,
      mode: null,
      fault: null,
      at: Date.now()
    }
    requests.push(log)
    if (requests.length > LOG_LIMIT) requests.splice(0, requests.length - LOG_LIMIT)
    const finish = (reply: HttpReply, fault: FaultKind | null = null): void => {
      log.status = reply.status
      send(res, reply, fault)
    }
    if (!url.pathname.startsWith('/v1/')) return finish(notFound('Endpoint'))
    const path = url.pathname.slice(3)
    const found = route(req.method ?? '', path)
    if (!found) return finish(notFound('Endpoint'))

    const held = faults.admit()
    if (held) {
      await held
      req.socket.destroy()
      return
    }
    const fault = faults.next()
    log.fault = fault
    const latency = faults.latencyMs + (fault === 'slow' ? faults.slowMs : 0)
    if (latency > 0) await new Promise((r) => setTimeout(r, latency))
    if (fault === 'drop') {
      req.socket.destroy()
      return
    }
    if (fault === 'bad-gateway') {
      log.status = 502
      res.writeHead(502, { 'Content-Type': 'text/html' })
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>')
      return
    }
    const failure = fault ? faultReply(fault) : null
    if (failure) return finish(failure)

    const mode = modeForAuth(req.headers.authorization)
    log.mode = mode
    if (!mode) return finish(unauthorized(found.endpoint, req.headers.authorization !== undefined))
    const rate = rateCheck(mode)
    if (rate.retryAfterMs > 0) {
      return finish(
        json(
          429,
          { error: 'Too Many Requests', message: 'rate_limit_exceeded', status: 429 },
          { ...rate.headers, 'Retry-After': String(Math.ceil(rate.retryAfterMs / 1000)) }
        )
      )
    }
    const reply = await handle(req, url, mode, found.endpoint, found.params)
    finish(new HttpReply(reply.status, reply.body, { ...rate.headers, ...reply.headers }), fault)
  }

  const server: Server = createServer((req, res) => {
    onRequest(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ error: 'Internal Server Error', message: 'server_error', status: 500, detail: String(error) }))
      } else res.destroy()
    })
  })
  server.keepAliveTimeout = 5_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve())
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address

  const sandbox: Sandbox = {
    baseUrl: `http://${host}:${address.port}/v1`,
    keys,
    controlToken,
    bulkFileIds: {
      test: seedOptions.bulkFiles.map((_, i) => states.test.data.bulkFileId(i)),
      live: seedOptions.bulkFiles.map((_, i) => states.live.data.bulkFileId(i))
    },
    faults,
    strictSpec,
    paging: pagingQuirks,
    requests,
    setRateLimits,
    state: (mode) => states[mode],
    submitBulkFile,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
  return sandbox
}

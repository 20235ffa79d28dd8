// The Sandbox: a local HTTP simulator of every endpoint in the provider's API, with test/live keys, rate limits and injectable faults. This is its HTTP core: a request's way from the socket through faults, the key and the rate limits to its endpoint (./endpoints) and back.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { BULK_FILE_LIMITS } from '../shared/api/assumptions'
import { modeForAuth, newKey, unauthorized } from './auth'
import { handleControl } from './control'
import type { SandboxMode } from './data'
import { route } from './endpoints'
import type { EndpointRequest } from './endpoints/route'
import { submitBulkFile } from './endpoints/transfers'
import { FaultControl, faultReply, type FaultKind } from './faults'
import { bad, HttpReply, intParam, json, notFound, readBody, send, type Json } from './http'
import { SandboxRateLimits, type RateLimitSetting } from './rate-limits'
import { sandboxSeed } from './seed'
import { ModeState } from './state'

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
  rateLimits?: RateLimitSetting
  keys?: Partial<Record<SandboxMode, string>>
  /** Required in X-Sandbox-Token by the /__sandbox/* control endpoints; default: a fresh random one. */
  controlToken?: string
  port?: number
  host?: string
  /** Largest request body accepted, in bytes. */
  maxBodyBytes?: number
  /**
   * Answer only with what the API description shows (docs/api.md): no invented fields (virtual accounts without amount,
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
  submitBulkFile(mode: SandboxMode, csv: string): ReturnType<typeof submitBulkFile>
  close(): Promise<void>
}

const DEFAULT_MAX_PAGE_SIZE = 50
const LOG_LIMIT = 20_000

/** A bulk upload's CSV: a multipart "file" part, or JSON `{ "file": … }` where the endpoint takes it; else the 400 to answer. */
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

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seedOptions = sandboxSeed(options)
  const seed = seedOptions.seed
  const maxPageSize = options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE
  const maxBody = options.maxBodyBytes ?? BULK_FILE_LIMITS.maxBytes * 2
  const keys: Record<SandboxMode, string> = { test: options.keys?.test ?? newKey('test'), live: options.keys?.live ?? newKey('live') }
  const controlToken = options.controlToken ?? randomBytes(24).toString('base64url')
  const strictSpec = options.strictSpec === true
  const states: Record<SandboxMode, ModeState> = {
    test: new ModeState(seedOptions, 'test', strictSpec),
    live: new ModeState(seedOptions, 'live', strictSpec)
  }
  const pagingQuirks: PagingQuirks = { ignorePage: false, ignorePageButEcho: false, maxPageSize: null }
  const faults = new FaultControl(seed)
  const rateLimits = new SandboxRateLimits(options.rateLimits ?? true)
  const requests: RequestLogEntry[] = []
  const bulkFileIds = {
    test: seedOptions.bulkFiles.map((_, i) => states.test.data.bulkFileId(i)),
    live: seedOptions.bulkFiles.map((_, i) => states.live.data.bulkFileId(i))
  }

  /** What an endpoint reads of an authorised request; the body is read first (413 when too large). */
  async function endpointRequest(
    req: IncomingMessage,
    url: URL,
    mode: SandboxMode,
    params: string[]
  ): Promise<EndpointRequest | HttpReply> {
    const body = req.method === 'POST' ? await readBody(req, maxBody) : Buffer.alloc(0)
    if (body === null) return json(413, { error: 'Payload Too Large', message: 'payload_too_large', status: 413 })
    const q = url.searchParams
    return {
      req,
      mode,
      state: states[mode],
      query: q,
      params,
      body,
      strictSpec,
      json: () => {
        try {
          const parsed: unknown = JSON.parse(body.toString('utf8') || 'null')
          return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Json) : bad('missing_parameter')
        } catch {
          return bad('invalid_json', 'Malformed JSON body')
        }
      },
      paging: () => {
        const page = intParam(q.get('page'), 0)
        const size = intParam(q.get('size'), 10)
        if (page === null || size === null || size === 0) return bad('invalid_parameter', 'Invalid page or size')
        const largest = pagingQuirks.maxPageSize ?? maxPageSize
        if (pagingQuirks.ignorePage || pagingQuirks.ignorePageButEcho)
          return { page: 0, size: Math.min(size, largest), label: pagingQuirks.ignorePageButEcho ? page : 0 }
        return { page, size: Math.min(size, largest), label: page }
      },
      unknown: (what) => (strictSpec ? bad('invalid_parameter', 'Bad Request') : notFound(what)),
      csv: (allowJson) => csvFrom(req, body, allowJson)
    }
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox')
    if (url.pathname.startsWith('/__sandbox/')) return handleControl(control, req, res, url.pathname)
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
    const found = route(req.method ?? '', url.pathname.slice(3))
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

    const mode = modeForAuth(keys, req.headers.authorization)
    log.mode = mode
    if (!mode) return finish(unauthorized(found.route.unauthorized, req.headers.authorization !== undefined))
    const rate = rateLimits.check(mode)
    if (rate.retryAfterMs > 0) {
      return finish(
        json(
          429,
          { error: 'Too Many Requests', message: 'rate_limit_exceeded', status: 429 },
          { ...rate.headers, 'Retry-After': String(Math.ceil(rate.retryAfterMs / 1000)) }
        )
      )
    }
    const request = await endpointRequest(req, url, mode, found.params)
    const reply = request instanceof HttpReply ? request : await found.route.handle(request)
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
  const submit = (mode: SandboxMode, csv: string): ReturnType<typeof submitBulkFile> => submitBulkFile(states[mode], csv)
  const control = {
    port: () => (server.address() as AddressInfo).port,
    token: controlToken,
    info: () => ({ seed, payments: seedOptions.payments, bulkFileIds }),
    faults,
    rateLimits,
    submitBulkFile: submit
  }

  return {
    baseUrl: `http://${host}:${address.port}/v1`,
    keys,
    controlToken,
    bulkFileIds,
    faults,
    strictSpec,
    paging: pagingQuirks,
    requests,
    setRateLimits: (limits) => rateLimits.set(limits),
    state: (mode) => states[mode],
    submitBulkFile: submit,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

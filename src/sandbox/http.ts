// What the Sandbox's endpoints answer with: a status, a JSON body and headers; the provider's 400 and 404 bodies; reading a body and paging parameters.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FaultKind } from './faults'

export type Json = Record<string, unknown>

export class HttpReply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {}
  ) {}
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpReply => new HttpReply(status, body, headers)
export const bad = (message: string, error = 'Missing Parameter'): HttpReply => json(400, { error, message, status: 400 })
export const notFound = (what: string): HttpReply => json(404, { error: `${what} not found`, message: 'not_found', status: 404 })

export function intParam(value: string | null, fallback: number): number | null {
  if (value === null || value === '') return fallback
  return /^\d{1,9}$/.test(value) ? Number(value) : null
}

export function pageWrapper(content: Json[], page: number, size: number, total: number): Json {
  return { content, pageNumber: page, pageSize: size, totalElements: total, totalPages: Math.ceil(total / size) }
}

/** The request's body, or null when it is larger than `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > limit) return null
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** Writes a reply as JSON, or broken the way a fault breaks it: cut off mid-body, truncated, or an HTML page instead. */
export function send(res: ServerResponse, reply: HttpReply, fault: FaultKind | null): void {
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

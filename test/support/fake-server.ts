// A tiny loopback HTTP server whose answers a test writes by hand: for servers that misbehave in ways the Sandbox never would.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface SeenRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
}

export interface FakeServer {
  /** http://127.0.0.1:PORT */
  origin: string
  requests: SeenRequest[]
  close(): Promise<void>
}

export async function startFakeServer(handle: (req: IncomingMessage, res: ServerResponse, origin: string) => void): Promise<FakeServer> {
  const requests: SeenRequest[] = []
  let origin = ''
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    handle(req, res, origin)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

/** One page of payments in the spec's wrapper, for a key check to accept. */
export const onePaymentPage = (mode: 'TEST' | 'LIVE' = 'TEST') => ({
  content: [
    { id: 'pay_1', reference: 'REF-1', amount: 100, currency: 'NGN', status: 'successful', createdAt: '2026-01-01T00:00:00Z', mode }
  ],
  pageNumber: 0,
  pageSize: 1,
  totalElements: 1,
  totalPages: 1
})

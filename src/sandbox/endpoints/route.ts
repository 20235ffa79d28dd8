// What an endpoint of the Sandbox is: its method and path, which 401 body it sends, and its handler over one request (mode, state, query, body, paging).
import type { IncomingMessage } from 'node:http'
import type { UnauthorizedShape } from '../auth'
import type { SandboxMode } from '../data'
import type { HttpReply, Json } from '../http'
import type { ModeState } from '../state'

/** One authorised request, as an endpoint reads it. */
export interface EndpointRequest {
  req: IncomingMessage
  mode: SandboxMode
  /** The state of the key's mode (test or live). */
  state: ModeState
  query: URLSearchParams
  /** The path's parameters, decoded. */
  params: string[]
  /** The POST body (empty for a GET). */
  body: Buffer
  /** Answer only with what the API description shows (see SandboxOptions.strictSpec). */
  strictSpec: boolean
  /** The body as a JSON object, or the 400 to answer. */
  json(): Json | HttpReply
  /** `page` and `size` with the spec's defaults (0 and 10), the size cut to the largest page; `label` is the page number the answer gives. */
  paging(): { page: number; size: number; label: number } | HttpReply
  /** An id the Sandbox does not know: 404 (as the provider answers in practice), 400 in strict mode (the spec shows no 404). */
  unknown(what: string): HttpReply
  /** A bulk upload's CSV: a multipart "file" part, or JSON `{ "file": … }` where the endpoint takes it; else the 400 to answer. */
  csv(allowJson: boolean): Promise<{ csv: string; form?: FormData } | HttpReply>
}

export interface Route {
  method: 'GET' | 'POST'
  /** The endpoint's name (the request log, tests). */
  name: string
  /** The path under /v1; groups are the path's parameters. */
  path: RegExp
  /** Which 401 body the provider sends from this endpoint. */
  unauthorized: UnauthorizedShape
  handle(request: EndpointRequest): HttpReply | Promise<HttpReply>
}

// The Sandbox's payments: the list (paged, filtered by the assumed query names) and authorising a pending payment (PIN, then OTP).
import { bad, HttpReply, json, pageWrapper, type Json } from '../http'
import { ModeState } from '../state'
import type { EndpointRequest, Route } from './route'

function authorize(request: EndpointRequest): HttpReply {
  const input = request.json()
  if (input instanceof HttpReply) return input
  const auth = input['authorization']
  if (typeof input['reference'] !== 'string' || input['reference'] === '' || auth === null || typeof auth !== 'object')
    return bad('missing_parameter')
  const result = request.state.authorize(input['reference'], auth as Json)
  if (!result) return request.unknown('Payment')
  if ('error' in result) return bad(result.error, result.title)
  return json(200, ModeState.authorizeShape(result.payment))
}

function list(request: EndpointRequest): HttpReply {
  const q = request.query
  const p = request.paging()
  if (p instanceof HttpReply) return p
  const status = q.get('status') ?? undefined
  const channel = q.get('channel') ?? undefined
  if (status && !['successful', 'failed', 'pending'].includes(status)) return bad('invalid_parameter', 'Invalid status')
  if (channel && !['card', 'bank_transfer', 'mobile_money', 'eft'].includes(channel)) return bad('invalid_parameter', 'Invalid channel')
  const filter = {
    ...(q.get('reference') ? { paymentId: q.get('reference') as string } : {}),
    ...(q.get('query') ? { reference: q.get('query') as string } : {}),
    ...(status ? { status } : {}),
    ...(channel ? { channel } : {}),
    ...(q.get('provider') ? { provider: q.get('provider') as string } : {})
  }
  const slice = request.state.listPayments(filter, p.page, p.size)
  return json(200, pageWrapper(slice.content, p.label, p.size, slice.total))
}

export const paymentRoutes: Route[] = [
  { method: 'POST', name: 'authorize', path: /^\/payments\/authorize$/, unauthorized: 'A', handle: authorize },
  { method: 'GET', name: 'payments', path: /^\/payments$/, unauthorized: 'A', handle: list }
]

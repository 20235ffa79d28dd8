// The Sandbox's subscriptions: the list, by customer id or email, paged, in the documented shape (an array holding one page wrapper).
import { HttpReply, json, pageWrapper } from '../http'
import type { EndpointRequest, Route } from './route'

function list(request: EndpointRequest): HttpReply {
  const q = request.query
  const p = request.paging()
  if (p instanceof HttpReply) return p
  const slice = request.state.listSubscriptions(q.get('customerId') ?? undefined, q.get('email') ?? undefined, p.page, p.size)
  // Documented shape: an array whose element is a page wrapper.
  return json(200, [pageWrapper(slice.content, p.label, p.size, slice.total)])
}

export const subscriptionRoutes: Route[] = [
  { method: 'GET', name: 'subscriptions', path: /^\/subscriptions$/, unauthorized: 'B', handle: list }
]

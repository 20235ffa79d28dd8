// The Sandbox's subscription plans: a bulk plan upload (all or nothing, or the valid rows with skipErrors), one plan by id, and cancelling a plan.
import { checkPlanRows, parseCsv, PLAN_COLUMNS } from '../csv-checks'
import { bad, HttpReply, json } from '../http'
import type { EndpointRequest, Route } from './route'

async function upload(request: EndpointRequest): Promise<HttpReply> {
  const { state } = request
  const got = await request.csv(false)
  if (got instanceof HttpReply) return got
  const parsed = parseCsv(got.csv, PLAN_COLUMNS)
  if ('code' in parsed) return bad(parsed.code, parsed.title)
  const skipErrors = String(got.form?.get('skipErrors') ?? 'false').toLowerCase() === 'true'
  const { failures, valid } = checkPlanRows(parsed.rows, (ref) => state.planReferenceInUse(ref))
  if (failures.length === 0 || skipErrors) for (const plan of valid) state.createPlan(plan.fields)
  const created = failures.length === 0 || skipErrors ? valid.length : 0
  // The spec shows an empty object and no fields; a strict server says nothing more.
  if (request.strictSpec) return failures.length === 0 || skipErrors ? json(200, {}) : bad('invalid_file', 'Bad Request')
  return json(200, {
    status: failures.length === 0 ? 'success' : skipErrors ? 'partial' : 'failed',
    created,
    failedRequests: failures
  })
}

function get(request: EndpointRequest): HttpReply {
  const plan = request.state.plan(request.params[0] ?? '')
  return plan ? json(200, plan) : request.unknown('Plan')
}

function cancel(request: EndpointRequest): HttpReply {
  const plan = request.state.plan(request.params[0] ?? '')
  if (!plan) return request.unknown('Plan')
  // As the provider's sample does: a status outside the documented enum.
  const cancelled = { ...plan, status: 'cancelled' }
  request.state.savePlan(cancelled)
  return json(200, cancelled)
}

export const planRoutes: Route[] = [
  { method: 'POST', name: 'bulk-plans', path: /^\/bulk-plans$/, unauthorized: 'B', handle: upload },
  { method: 'GET', name: 'plan', path: /^\/plans\/([^/]+)$/, unauthorized: 'B', handle: get },
  { method: 'POST', name: 'plan-cancel', path: /^\/plans\/([^/]+)\/cancel$/, unauthorized: 'B', handle: cancel }
]

// The Sandbox's transfers: checking a bulk payout file, a bulk file's transfers (seeded or submitted), one transfer by reference, the bank lists; and taking a file as the provider's dashboard does.
import { checkTransferRows, parseCsv, TRANSFER_COLUMNS, type RowFailure } from '../csv-checks'
import { bad, HttpReply, json, pageWrapper } from '../http'
import type { ModeState } from '../state'
import type { EndpointRequest, Route } from './route'

/**
 * Takes a bulk transfer CSV as the provider's dashboard does when a merchant submits a checked
 * file, and answers with its bulk file id; a file the provider would refuse gives its failures.
 */
export function submitBulkFile(
  state: ModeState,
  csv: string
): { id: string; transfers: number } | { failures: RowFailure[]; title: string } {
  const parsed = parseCsv(csv, TRANSFER_COLUMNS)
  if ('code' in parsed) return { failures: [], title: parsed.title }
  const failures = checkTransferRows(parsed.rows)
  if (failures.length > 0) return { failures, title: `${failures.length} row problem(s)` }
  const rows = parsed.rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, (v ?? '').trim()])))
  return { id: state.submitBulkFile(rows), transfers: rows.length }
}

async function validate(request: EndpointRequest): Promise<HttpReply> {
  const got = await request.csv(true)
  if (got instanceof HttpReply) return got
  const parsed = parseCsv(got.csv, TRANSFER_COLUMNS)
  if ('code' in parsed) return bad(parsed.code, parsed.title)
  return json(200, { failedRequests: checkTransferRows(parsed.rows), totalRequests: parsed.rows.length })
}

function bulkTransfers(request: EndpointRequest): HttpReply {
  const { state, params } = request
  const p = request.paging()
  if (p instanceof HttpReply) return p
  const submitted = state.listSubmittedBulkTransfers(params[0] ?? '', p.page, p.size)
  if (submitted) return json(200, pageWrapper(submitted.content, p.label, p.size, submitted.total))
  const file = state.bulkFileIndex(params[0] ?? '')
  if (file === null) return request.unknown('Bulk file')
  const slice = state.listBulkTransfers(file, p.page, p.size)
  return json(200, pageWrapper(slice.content, p.label, p.size, slice.total))
}

function byReference(request: EndpointRequest): HttpReply {
  const transfer = request.state.transferByReference(request.params[0] ?? '')
  return transfer ? json(200, transfer) : request.unknown('Transfer')
}

function banks(request: EndpointRequest): HttpReply {
  const currency = request.params[0]
  if (currency !== 'NGN' && currency !== 'GHS') return bad('invalid_currency', 'Currency must be NGN or GHS')
  return json(200, request.state.banks(currency))
}

export const transferRoutes: Route[] = [
  { method: 'POST', name: 'bulk-validate', path: /^\/transfers\/bulk\/validate$/, unauthorized: 'A', handle: validate },
  { method: 'GET', name: 'bulk-transfers', path: /^\/transfers\/bulk\/([^/]+)\/transfers$/, unauthorized: 'B', handle: bulkTransfers },
  { method: 'GET', name: 'transfer', path: /^\/transfers\/reference\/([^/]+)$/, unauthorized: 'B', handle: byReference },
  { method: 'GET', name: 'banks', path: /^\/transfers\/banks\/([^/]+)$/, unauthorized: 'B', handle: banks }
]

// The Sandbox's dynamic virtual accounts: create a temporary account (NGN or GHS, 1 to 30 minutes), read one back (expired once its time is up).
import { MoneyError, parseMajor } from '../../shared/money'
import { major } from '../data'
import { bad, HttpReply, json, type Json } from '../http'
import { strictVirtualAccount } from '../strict'
import type { EndpointRequest, Route } from './route'

/** An account as the answer shows it: only what the spec shows in strict mode. */
const shown = (request: EndpointRequest, account: Json): Json => (request.strictSpec ? strictVirtualAccount(account) : account)

function create(request: EndpointRequest): HttpReply {
  const { state, mode } = request
  const input = request.json()
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
  return json(200, shown(request, account))
}

function get(request: EndpointRequest): HttpReply {
  const account = request.state.virtualAccounts.get(request.params[0] ?? '')
  if (!account) return request.unknown('Virtual account')
  return json(
    200,
    shown(request, Date.parse(account['expiresAt'] as string) <= Date.now() ? { ...account, lifecycle: 'expired' } : account)
  )
}

export const virtualAccountRoutes: Route[] = [
  { method: 'POST', name: 'va-create', path: /^\/virtual-accounts\/temporary$/, unauthorized: 'A', handle: create },
  { method: 'GET', name: 'va-get', path: /^\/virtual-accounts\/([^/]+)$/, unauthorized: 'A', handle: get }
]

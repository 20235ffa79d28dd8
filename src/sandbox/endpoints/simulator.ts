// The Sandbox's test-mode funds simulator: a payment into a virtual account, as if its customer had paid it.
import { randomBytes } from 'node:crypto'
import { parseMajor } from '../../shared/money'
import { major } from '../data'
import { bad, HttpReply, json, type Json } from '../http'
import type { EndpointRequest, Route } from './route'

function fund(request: EndpointRequest): HttpReply {
  const { state, mode } = request
  if (mode !== 'test') return bad('test_mode_only', 'The funds simulator works with test keys only')
  const input = request.json()
  if (input instanceof HttpReply) return input
  const account = typeof input['virtualAccountId'] === 'string' ? state.virtualAccounts.get(input['virtualAccountId']) : undefined
  if (!account) return input['virtualAccountId'] === undefined ? bad('missing_parameter') : request.unknown('Virtual account')
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

export const simulatorRoutes: Route[] = [{ method: 'POST', name: 'funds', path: /^\/simulator\/funds$/, unauthorized: 'A', handle: fund }]

// The README's list of assumptions is the module's list, and the client sends exactly what it says.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ASSUMPTIONS, QUERY_PARAMS, REQUESTED_PAGE_SIZE } from '../../src/shared/api/assumptions'
import type { ApiClient } from '../../src/main/api/client'
import type { Sandbox } from '../../src/sandbox/server'
import { PROJECT_ROOT } from '../support/renderer-harness'
import { sandboxWithClient } from '../support/sandbox'

const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')
const apiDoc = readFileSync(join(PROJECT_ROOT, 'docs', 'api.md'), 'utf8')
let sandbox: Sandbox
let client: ApiClient

beforeAll(async () => {
  ;({ sandbox, client } = await sandboxWithClient({ payments: 50 }))
})
afterAll(() => sandbox.close())

function lastRequest(path: string): Record<string, string> {
  const found = [...sandbox.requests].reverse().find((r) => r.path === path)
  if (!found) throw new Error(`no request to ${path}`)
  return found.query
}

describe('assumptions about the spec’s gaps', () => {
  it('are all listed in the README, word for word', () => {
    for (const assumption of ASSUMPTIONS) expect(readme, assumption.id).toContain(`**${assumption.id}**: ${assumption.summary}`)
  })

  it('the README lists nothing the module does not', () => {
    const section = readme.slice(readme.indexOf('## Assumptions about the spec'))
    const listed = [...section.matchAll(/^- \*\*([a-z0-9-]+)\*\*:/gm)].map((m) => m[1])
    expect(listed).toEqual(ASSUMPTIONS.map((a) => a.id))
  })

  it('docs/api.md lists exactly the same, word for word, and the README links to it, not outside the repository', () => {
    const section = apiDoc.slice(apiDoc.indexOf('## Assumptions about what the description leaves out'))
    expect([...section.matchAll(/^- \*\*([a-z0-9-]+)\*\*:/gm)].map((m) => m[1])).toEqual(ASSUMPTIONS.map((a) => a.id))
    for (const assumption of ASSUMPTIONS) expect(section, assumption.id).toContain(`**${assumption.id}**: ${assumption.summary}`)
    expect(readme).toContain('[docs/api.md](docs/api.md)')
    expect(readme).not.toMatch(/\.\.\/shared/)
  })

  it('GET /payments: the client sends the query names the README lists', async () => {
    await client.listPayments(
      { paymentId: 'id-1', reference: 'my-ref', status: 'failed', channel: 'card', provider: 'visa' },
      { page: 2, size: 7 }
    )
    const sent = lastRequest('/v1/payments')
    const names = QUERY_PARAMS.payments
    expect(sent).toEqual({
      [names.page]: '2',
      [names.size]: '7',
      [names.paymentId]: 'id-1',
      [names.reference]: 'my-ref',
      [names.status]: 'failed',
      [names.channel]: 'card',
      [names.provider]: 'visa'
    })
    const summary = ASSUMPTIONS.find((a) => a.id === 'payments-query')?.summary ?? ''
    for (const name of Object.keys(sent)) expect(summary).toContain(`\`${name}\``)
    expect(Object.keys(sent).sort()).toEqual(['channel', 'page', 'provider', 'query', 'reference', 'size', 'status'])
  })

  it('GET /subscriptions and bulk transfers: the listed names, and the requested page size by default', async () => {
    await client.listSubscriptions({ customerId: 'c-1', email: 'a@example.com' })
    expect(lastRequest('/v1/subscriptions')).toEqual({
      customerId: 'c-1',
      email: 'a@example.com',
      page: '0',
      size: String(REQUESTED_PAGE_SIZE)
    })
    const bulk = sandbox.bulkFileIds.test[0] as string
    await client.listBulkTransfers(bulk)
    expect(lastRequest(`/v1/transfers/bulk/${bulk}/transfers`)).toEqual({ page: '0', size: String(REQUESTED_PAGE_SIZE) })
    expect(ASSUMPTIONS.find((a) => a.id === 'page-size')?.summary).toContain(`size=${REQUESTED_PAGE_SIZE}`)
  })
})

// Retries, pacing, cancellation, timeouts and malformed bodies, against the Sandbox's injected faults over real HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createApiClient, type ApiClient } from '../../src/main/api/client'
import type { Sandbox } from '../../src/sandbox/server'
import { FAULT_KINDS } from '../../src/sandbox/faults'
import { collect, rejection, sandboxWithClient } from '../support/sandbox'

let sandbox: Sandbox
let client: ApiClient
let clientFor: Awaited<ReturnType<typeof sandboxWithClient>>['clientFor']
const retries: string[] = []

beforeAll(async () => {
  const started = await sandboxWithClient({ payments: 300 })
  sandbox = started.sandbox
  clientFor = started.clientFor
  client = clientFor(sandbox.keys.test, { onRetry: ({ error }) => retries.push(error.code) })
})
afterAll(() => sandbox.close())
beforeEach(() => {
  sandbox.faults.reset()
  sandbox.setRateLimits(false)
  retries.length = 0
})

describe('retries on safe reads', () => {
  it.each(['server-error', 'bad-gateway', 'unavailable', 'drop', 'cut-body', 'truncated-json', 'non-json', 'rate-limit'] as const)(
    'recovers from %s',
    async (fault) => {
      sandbox.faults.queueFault(fault, 2)
      const page = await client.listPayments()
      expect(page.content.length).toBeGreaterThan(0)
      expect(retries).toHaveLength(2)
    },
    15_000
  )

  it('gives up after the retry budget with the last error’s code', async () => {
    const strict = clientFor(sandbox.keys.test, { maxRetries: 2 })
    sandbox.faults.queueFault('server-error', 3)
    const error = await rejection(strict.listBanks('NGN'))
    expect(error).toMatchObject({ code: 'server_error', status: 500 })
    expect(sandbox.faults.injected['server-error']).toBe(3)
  })

  it('names a network failure, a non-JSON body and a truncated body clearly when not retried', async () => {
    const once = clientFor(sandbox.keys.test, { maxRetries: 0 })
    sandbox.faults.queueFault('drop')
    expect(await rejection(once.listPayments())).toMatchObject({ code: 'network_error', kind: 'network' })
    sandbox.faults.queueFault('non-json')
    const html = await rejection(once.listPayments())
    expect(html).toMatchObject({ code: 'malformed_response' })
    expect(html.message).toContain('not complete JSON')
    sandbox.faults.queueFault('truncated-json')
    expect(await rejection(once.listPayments())).toMatchObject({ code: 'malformed_response' })
    sandbox.faults.queueFault('bad-gateway')
    expect(await rejection(once.listPayments())).toMatchObject({ code: 'server_error', status: 502 })
  })

  it('honours Retry-After on 429', async () => {
    sandbox.faults.queueFault('rate-limit')
    const started = Date.now()
    await client.listPayments()
    expect(Date.now() - started).toBeGreaterThanOrEqual(950)
    expect(retries).toEqual(['rate_limit_exceeded'])
  })

  it('walks all pages to the same result through random faults as on a clean run', async () => {
    const clean = await collect(client.paymentPages({}, { size: 20 }))
    sandbox.faults.set({ rates: { 'server-error': 0.08, drop: 0.05, 'cut-body': 0.05, 'truncated-json': 0.05 } })
    const faulty = await collect(clientFor(sandbox.keys.test, { maxRetries: 8 }).paymentPages({}, { size: 20 }))
    expect(faulty.map((p) => p.id)).toEqual(clean.map((p) => p.id))
    expect(Object.values(sandbox.faults.injected).reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
  })
})

describe('writes are not repeated', () => {
  it('does not retry a POST after a 5xx or a dropped connection (the provider may have acted on it)', async () => {
    sandbox.faults.queueFault('server-error')
    expect(await rejection(client.createVirtualAccount({ currency: 'NGN', accountName: 'Once', amount: 10 }))).toMatchObject({
      code: 'server_error'
    })
    sandbox.faults.queueFault('drop')
    expect(await rejection(client.cancelPlan(sandbox.state('test').data.planId(1)))).toMatchObject({ code: 'network_error' })
    expect(retries).toEqual([])
  })

  it('retries a POST refused with 429, which the provider did not process', async () => {
    sandbox.faults.queueFault('rate-limit')
    const account = await client.createVirtualAccount({ currency: 'NGN', accountName: 'After 429', amount: 10 })
    expect(account.accountName).toBe('After 429')
    expect(retries).toEqual(['rate_limit_exceeded'])
  })
})

describe('timeouts and cancellation', () => {
  it('times out a call that does not answer in time', async () => {
    const impatient = clientFor(sandbox.keys.test, { timeoutMs: 300, maxRetries: 0 })
    // One that never answers: only the client's own timeout can end the call.
    sandbox.faults.holdAfter(0)
    expect(await rejection(impatient.listPayments())).toMatchObject({ code: 'timeout', kind: 'timeout' })
    sandbox.faults.release()
    // One that answers 3 s later: a client that waited for it would have the page (its 0.3 s timer is always due first).
    sandbox.faults.set({ slowMs: 3000 })
    sandbox.faults.queueFault('slow')
    expect(await rejection(impatient.listPayments())).toMatchObject({ code: 'timeout', kind: 'timeout' })
  })

  it('cancels through an AbortSignal during a request and during a backoff wait, without waiting them out', async () => {
    // During a request the server holds unanswered: only the abort can end the call.
    sandbox.faults.holdAfter(0)
    const controller = new AbortController()
    const during = rejection(client.listPayments({}, { signal: controller.signal }))
    await expect.poll(() => sandbox.faults.heldRequests).toBe(1)
    controller.abort()
    expect(await during).toMatchObject({ code: 'cancelled' })
    sandbox.faults.release()

    // During a backoff wait longer than the test may take (59 s): aborted once the wait has begun.
    const second = new AbortController()
    const waits: number[] = []
    const patient = clientFor(sandbox.keys.test, {
      backoffBaseMs: 60_000,
      backoffCapMs: 60_000,
      random: () => 0.99,
      onRetry: ({ delayMs }) => {
        waits.push(delayMs)
        setImmediate(() => second.abort())
      }
    })
    sandbox.faults.queueFault('server-error')
    expect(await rejection(patient.listBanks('GHS', second.signal))).toMatchObject({ code: 'cancelled' })
    expect(waits).toEqual([59_400])
  })

  it('stops a page walk when cancelled between pages', async () => {
    const controller = new AbortController()
    const seen: number[] = []
    const error = await rejection(
      (async () => {
        for await (const page of client.paymentPages({}, { size: 10, signal: controller.signal })) {
          seen.push(page.pageNumber)
          if (page.pageNumber === 2) controller.abort()
        }
      })()
    )
    expect(error).toMatchObject({ code: 'cancelled' })
    expect(seen).toEqual([0, 1, 2])
  })
})

describe('pacing under the rate limit', () => {
  it('stays under the server’s limits without a single 429', async () => {
    const limits = { perMinute: 1000, perSecond: 5 }
    sandbox.setRateLimits({ test: limits, live: limits })
    const paced = clientFor(sandbox.keys.test, { pacing: limits })
    const first = sandbox.requests.length
    const started = Date.now()
    for (let i = 0; i < 16; i++) await paced.listBanks('NGN')
    const elapsed = Date.now() - started
    const statuses = sandbox.requests.slice(first).map((r) => r.status)
    expect(statuses.filter((s) => s === 429)).toEqual([])
    // 16 requests at 5 per second: at least three full windows must pass (how much longer is the next test's).
    expect(elapsed).toBeGreaterThanOrEqual(3000)
  })

  it('waits no longer than the windows require: on a virtual clock, each five requests one window (with its margin) after the last', async () => {
    vi.useFakeTimers()
    try {
      const sent: number[] = []
      const banks = JSON.stringify([{ bankCode: '044', bankName: 'Access Bank' }])
      const paced = createApiClient({
        baseUrl: 'http://127.0.0.1:9/v1',
        getKey: () => 'sk_test_virtual',
        pacing: { perMinute: 1000, perSecond: 5 },
        fetch: async () => {
          sent.push(Date.now())
          return new Response(banks, { status: 200, headers: { 'content-type': 'application/json' } })
        }
      })
      const start = Date.now()
      const all = Promise.all(Array.from({ length: 16 }, () => paced.listBanks('NGN')))
      await vi.runAllTimersAsync()
      expect(await all).toHaveLength(16)
      const window = 1_000 + 120
      expect(sent.map((t) => t - start)).toEqual([...Array(5).fill(0), ...Array(5).fill(window), ...Array(5).fill(2 * window), 3 * window])
    } finally {
      vi.useRealTimers()
    }
  })

  it('without its own pacing, obeys the server’s 429s and rate-limit headers and still completes', async () => {
    const limits = { perMinute: 1000, perSecond: 4 }
    sandbox.setRateLimits({ test: limits, live: limits })
    const unpaced = clientFor(sandbox.keys.test, { pacing: false, maxRetries: 10 })
    const results = await Promise.all(Array.from({ length: 10 }, () => unpaced.listBanks('GHS')))
    expect(results).toHaveLength(10)
  })

  it('sends the documented rate-limit headers', async () => {
    sandbox.setRateLimits(true)
    const response = await fetch(`${sandbox.baseUrl}/transfers/banks/NGN`, { headers: { Authorization: `Bearer ${sandbox.keys.live}` } })
    expect(response.headers.get('x-ratelimit-limit')).toBe('300')
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeLessThan(300)
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1)
  })
})

describe('responses that break the contract', () => {
  function clientReturning(body: string, status = 200): ApiClient {
    return createApiClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      getKey: () => 'sk_test_x',
      pacing: false,
      maxRetries: 0,
      fetch: async () => new Response(body, { status, headers: { 'content-type': 'application/json' } })
    })
  }

  it('names the missing required field', async () => {
    const page = JSON.stringify({
      content: [{ id: 'p1', amount: 5, currency: 'NGN', status: 'successful' }],
      pageNumber: 0,
      pageSize: 10,
      totalElements: 1,
      totalPages: 1
    })
    const error = await rejection(clientReturning(page).listPayments())
    expect(error).toMatchObject({ code: 'unexpected_response', field: 'content.0.createdAt' })
    expect(error.message).toContain('content.0.createdAt')
    const noTotal = await rejection(clientReturning('{"content":[],"pageNumber":0,"pageSize":10,"totalElements":0}').listPayments())
    expect(noTotal.field).toBe('totalPages')
  })

  it('keeps unknown fields and unknown statuses, and accepts lifecycle or lifeCycle', async () => {
    const page = JSON.stringify({
      content: [{ id: 'p1', amount: '5.10', currency: 'NGN', status: 'ON_HOLD', createdAt: '2026-01-01T00:00:00Z', riskScore: 0.3 }],
      pageNumber: 0,
      pageSize: 10,
      totalElements: 1,
      totalPages: 1,
      sort: 'desc'
    })
    const result = await clientReturning(page).listPayments()
    expect(result.content[0]).toMatchObject({ status: 'ON_HOLD', riskScore: 0.3, amount: '5.10' })
    expect((result as unknown as Record<string, unknown>)['sort']).toBe('desc')
    const spec = await clientReturning('{"id":"a","accountNumber":"1","lifeCycle":"temporary"}').getVirtualAccount('a')
    expect(spec.lifeCycle).toBe('temporary')
  })

  it('reads a 400 body’s machine code, and a body that is not JSON at all', async () => {
    const error = await rejection(
      clientReturning('{"error":"Missing Parameter","message":"missing_parameter","status":400}', 400).listPayments()
    )
    expect(error).toMatchObject({ code: 'missing_parameter', status: 400 })
    expect(error.message).toContain('Missing Parameter')
    const gateway = await rejection(clientReturning('<html>oops</html>', 500).listPayments())
    expect(gateway).toMatchObject({ code: 'server_error', status: 500 })
  })

  it('every fault kind is exercised somewhere in this file', () => {
    expect([...FAULT_KINDS].sort()).toEqual([
      'bad-gateway',
      'cut-body',
      'drop',
      'non-json',
      'rate-limit',
      'server-error',
      'slow',
      'truncated-json',
      'unavailable'
    ])
  })
})

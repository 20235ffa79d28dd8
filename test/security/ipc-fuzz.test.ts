// IPC fuzz: random and malformed arguments at every call and event in the contract, and garbage on the host's own channel.
// Every one gets a coded refusal; the host keeps answering in the same process.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEventEmitter } from '../../src/main/ipc/events'
import { nodeHostLauncher } from '../../src/main/host/node-launcher'
import { readFromHost, readToHost } from '../../src/main/host/protocol'
import { createApi } from '../../src/preload/api'
import { callNames, calls, eventNames, events, type CallName } from '../../src/shared/ipc/contract'
import { startTestHost, testHostConfig, valueOf, type TestHost } from '../support/app-env'
import { PROPERTY_SEED, propertyRuns } from '../support/property'

/** One valid argument per call that takes one: the fuzzer breaks each of its fields in turn. */
const VALID: Partial<Record<CallName, Record<string, unknown>>> = {
  'profile:select': { id: 'sandbox' },
  'profile:add': { name: 'Acme', baseUrl: 'https://api.example.com/v1', key: 'sk_test_abc' },
  'profile:replaceKey': { id: 'sandbox', key: 'sk_test_abc' },
  'profile:remove': { id: 'nobody' },
  'profile:setTimeZone': { id: 'nobody', timeZone: 'Africa/Lagos' },
  'profile:setFundsSimulator': { id: 'nobody', url: 'https://simulator.example.com' },
  'records:rows': {
    query: { resource: 'payments', text: 'ada', currency: 'NGN', minAmount: '1', sort: { column: 'amount', desc: true } },
    offset: 0,
    limit: 50
  },
  'records:totals': { query: { resource: 'transfers', bulkFile: 'bulk-1' } },
  'records:detail': { resource: 'payments', key: 'pay-1' },
  'records:find': { text: 'ada' },
  'records:authorize': { paymentId: 'pay-1', pin: '1234' },
  'records:cancelPlan': { planId: 'plan-1' },
  'records:fund': { accountId: 'va-1', amount: '10.00' },
  'sync:start': { resources: ['banks'] },
  'sync:track': { kind: 'plan', value: 'plan-1' },
  'sync:trackMany': { kind: 'transfer', values: ['REF-1', 'REF-2'] },
  'sync:untrack': { kind: 'plan', value: 'plan-1' },
  'search:query': { resource: 'payments', text: 'okafor', page: 0, pageSize: 25 },
  'export:csv': { resource: 'payments', currency: 'NGN' },
  'accounts:create': { currency: 'NGN', accountName: 'Invoice 1', amount: '10.00', expiresIn: 10 },
  'job:cancel': { id: 'job-1' },
  'recon:open': { mapping: { dateOrder: 'dmy', defaultCurrency: 'NGN' } },
  'recon:sample': { format: 'mt940' },
  'recon:openDropped': { name: 'october.csv', base64: 'RGF0ZSxBbW91bnQKMjAyNi0xMC0wMSwxLjAwCg==' },
  'recon:preview': {
    token: '00000000-0000-4000-8000-000000000000',
    mapping: { columns: { date: 'Date', amount: 'Amount' }, decimalMark: ',' }
  },
  'recon:import': { token: '00000000-0000-4000-8000-000000000000', ifSameRows: 'skip', saveAs: 'Bank' },
  'recon:unlock': { token: '00000000-0000-4000-8000-000000000000', password: 'statement-password' },
  'recon:session': { id: 'session-1' },
  'recon:fileDays': { fileId: 'file-1' },
  'recon:create': { name: 'October', source: 'payments', from: '2026-10-01', to: '2026-10-31', settings: { daysAfter: 3 }, fileIds: [] },
  'recon:addFiles': { sessionId: 'session-1', fileIds: ['file-1'] },
  'recon:settings': { sessionId: 'session-1', settings: { netOfFees: true } },
  'recon:run': { sessionId: 'session-1' },
  'recon:items': { sessionId: 'session-1', outcome: 'matched', offset: 0, limit: 50 },
  'recon:decide': { sessionId: 'session-1', decision: { kind: 'note', itemKey: 'a|b', note: 'checked' } },
  'recon:close': { sessionId: 'session-1' },
  'recon:acceptAllPreview': { sessionId: 'session-1', currency: 'NGN', minScore: 8 },
  'recon:acceptAll': { sessionId: 'session-1', text: 'ada', minScore: 8 },
  'recon:reopen': { sessionId: 'session-1', reason: 'corrected statement' },
  'recon:events': { sessionId: 'session-1' },
  'recon:summary': { sessionId: 'session-1' },
  'recon:export': { sessionId: 'session-1', format: 'xlsx' },
  'recon:evidence': { sessionId: 'session-1' },
  'journal:preview': { sessionId: 'session-1' },
  'journal:saveMap': {
    accounts: {
      fees: '6100',
      bank_charges: '6110',
      vat: '2200',
      levies: '6130',
      stamp_duty: '6120',
      adjustments: '6900',
      clearing: '1150',
      bank: '1010'
    },
    taxRate: 'Tax Exempt'
  },
  'journal:export': { sessionId: 'session-1', format: 'xero' },
  'rules:save': {
    rule: {
      name: 'sms-alert-charges',
      match: 'all',
      conditions: [{ field: 'description', operator: 'contains', value: 'SMS ALERT' }],
      action: { type: 'classify', as: 'bank_charge', reasonCode: 'bank_charge' }
    }
  },
  'rules:preview': {
    sessionId: 'session-1',
    rule: {
      name: 'sms-alert-charges',
      match: 'any',
      conditions: [{ field: 'amount', operator: 'between', value: ['-60', '-10'] }],
      action: { type: 'leave_out', reason: 'printed twice' }
    }
  },
  'rules:setEnabled': { name: 'sms-alert-charges', enabled: true },
  'rules:move': { name: 'sms-alert-charges', to: 1 },
  'rules:remove': { name: 'sms-alert-charges' },
  'rules:draft': { sessionId: 'session-1', itemKey: 'a|b' },
  'backup:restore': { name: 'cache-2026-11-29T09-00-00-000Z-daily.sqlite' },
  'bulk:open': { kind: 'transfers' },
  'bulk:openDropped': { kind: 'plans', name: 'plans.csv', base64: 'dGl0bGUK' },
  'bulk:rows': { token: '00000000-0000-4000-8000-000000000000', from: 0, count: 100 },
  'bulk:check': { kind: 'transfers', csv: 'amount,currency\r\n5,NGN\r\n' },
  'bulk:send': { kind: 'transfers', csv: 'amount\r\n5\r\n', fileName: 'payouts.csv', transport: 'multipart' },
  'bulk:save': { kind: 'plans', csv: 'title\r\nGold\r\n', fileName: 'plans.csv' },
  'bulk:follow': { sendId: 1, bulkFileId: 'bulk-1' },
  'bulk:status': { sendId: 1 },
  'bulk:saveStatus': { sendId: 1, variant: 'retry' },
  'team:connect': { url: 'postgres://alice@127.0.0.1:1/postgres', password: 'a password' },
  'team:open': { sharedId: 'session-1' },
  'team:share': { sessionId: 'session-1' },
  'team:session': { sessionId: 'session-1' },
  'team:left': { sessionId: 'session-1' },
  'team:signOff': { sessionId: 'session-1', step: 'return', reason: 'check item 3' },
  'team:comment': { sessionId: 'session-1', itemKey: 'a|b', text: 'is the fee netted?' },
  'team:dismissConflict': { sessionId: 'session-1', ref: 'ref-1' }
}

const anything = fc.anything({
  maxDepth: 3,
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withNullPrototype: true,
  withBoxedValues: true,
  withSparseArray: true
})
const nasty = fc.oneof(
  anything,
  fc.string({ maxLength: 3000 }),
  fc.constantFrom('x'.repeat(100_000), '\u0000', '../../etc/passwd', 'sk_live_', -0, Number.NaN, Infinity, 2 ** 53 + 1, [], {}, null),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'then'), anything, { maxKeys: 3 })
)

/** The valid argument with one field replaced, removed, or joined by an unknown one. */
function broken(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid)
  return fc.oneof(
    fc.tuple(fc.constantFrom(...keys), nasty).map(([key, value]) => ({ ...valid, [key]: value })),
    fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key))),
    fc.tuple(fc.string({ minLength: 1, maxLength: 20 }), anything).map(([key, value]) => ({ ...valid, [`x${key}`]: value })),
    fc.constant(JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(valid).slice(1)}`) as unknown)
  )
}

describe('IPC fuzz against the real gate and host process', { timeout: 120_000 }, () => {
  let host: TestHost
  let pid: number

  beforeAll(async () => {
    host = await startTestHost()
    pid = host.supervisor.pid as number
  })
  afterAll(async () => {
    await host?.close()
  })

  it('has a valid example for every call that takes an argument, so each is fuzzed field by field', () => {
    const taking = callNames.filter((name) => !calls[name].args.safeParse(undefined).success)
    expect(taking.filter((name) => !VALID[name]).sort()).toEqual([])
    for (const [name, arg] of Object.entries(VALID)) expect(calls[name as CallName].args.safeParse(arg).success, name).toBe(true)
  })

  it('refuses every malformed argument of every call with INVALID_ARGUMENT, and the host keeps answering', async () => {
    let sent = 0
    for (const name of callNames) {
      const valid = VALID[name]
      const candidates = valid ? fc.oneof(broken(valid), nasty) : nasty
      await fc.assert(
        fc.asyncProperty(candidates, async (arg) => {
          if (calls[name].args.safeParse(arg).success) return
          sent++
          const result = await host.call(name, arg)
          expect(result.ok, `${name} accepted ${fc.stringify(arg)}`).toBe(false)
          if (!result.ok) {
            expect(result.error.code).toBe('INVALID_ARGUMENT')
            expect(typeof result.error.message).toBe('string')
            expect(result.error.message.length).toBeLessThan(3000)
          }
        }),
        propertyRuns(40)
      )
    }
    expect(sent).toBeGreaterThan(callNames.length * 20)
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    expect(valueOf(await host.call('app:info')).name).toBe('Ledgerline')
    expect(host.supervisor.pid).toBe(pid)
    expect(host.supervisor.restarts).toBe(0)
  })

  it('refuses random call names with UNKNOWN_CALL, and calls from anywhere but the app page with FORBIDDEN_SENDER', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 200 }), anything), async (name) => {
        if (typeof name === 'string' && Object.hasOwn(calls, name)) return
        expect(await host.gate.dispatch(name, undefined, { url: 'http://127.0.0.1:5173/', isMainFrame: true })).toMatchObject({
          ok: false,
          error: { code: 'UNKNOWN_CALL' }
        })
      }),
      propertyRuns(200)
    )
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), fc.boolean(), fc.constantFrom(...callNames), async (url, isMainFrame, name) => {
        if (url === 'http://127.0.0.1:5173/' && isMainFrame) return
        if (!url.startsWith('http://127.0.0.1:5173/') || !isMainFrame) {
          expect(await host.gate.dispatch(name, undefined, { url, isMainFrame })).toMatchObject({
            ok: false,
            error: { code: 'FORBIDDEN_SENDER' }
          })
        }
      }),
      propertyRuns(200)
    )
    expect(valueOf(await host.call('profile:list')).length).toBeGreaterThan(0)
    expect(host.supervisor.pid).toBe(pid)
  })

  it('never lets a malformed event payload through to the window', () => {
    for (const name of eventNames) {
      const delivered: unknown[] = []
      const emitter = createEventEmitter((_channel, _event, payload) => delivered.push(payload))
      fc.assert(
        fc.property(nasty, (payload) => {
          if (events[name].safeParse(payload).success) return
          expect(() => emitter.emit(name, payload as never)).toThrow()
        }),
        propertyRuns(100)
      )
      expect(delivered, name).toEqual([])
    }
    // And the window's api.on refuses unknown events and listeners that are not functions.
    const api = createApi(callNames, eventNames, {
      invoke: async () => ({ ok: true, value: null }),
      subscribe: () => () => {}
    }) as unknown as { on(e: unknown, l: unknown): unknown }
    fc.assert(
      fc.property(fc.oneof(fc.string(), anything), (event) => {
        if (typeof event === 'string' && (eventNames as readonly string[]).includes(event)) return
        expect(() => api.on(event, () => {})).toThrow()
      }),
      propertyRuns(100)
    )
    expect(() => api.on('job:progress', 'not a function')).toThrow()
  })
})

describe('the host channel itself', { timeout: 60_000 }, () => {
  it('reads malformed messages in both directions as nothing, never a crash', () => {
    fc.assert(
      fc.property(anything, (message) => {
        expect(() => readToHost(message)).not.toThrow()
        expect(() => readFromHost(message)).not.toThrow()
      }),
      propertyRuns(500)
    )
    expect(readToHost({ type: 'call', id: 'x', name: 'app:info' })).toBeNull()
    expect(
      readFromHost({
        type: 'ask',
        id: 1,
        request: { kind: 'confirm', title: 'x'.repeat(10_000), message: '', detail: '', confirmLabel: 'Go' }
      })
    ).toBeNull()
  })

  it('ignores garbage sent straight to a host process, which then still starts and answers', async () => {
    const child = nodeHostLauncher()()
    const answers: unknown[] = []
    let exited = false
    child.onMessage((message) => answers.push(message))
    child.onExit(() => (exited = true))
    const raw = child as unknown as { send(message: unknown): void }
    // Whatever the channel can carry at its top level (process.send refuses a bare bigint or undefined).
    const garbage = fc
      .sample(anything, { numRuns: 300, seed: PROPERTY_SEED })
      .filter((m) => ['string', 'number', 'boolean', 'object'].includes(typeof m) && m !== null)
    for (const message of [
      ...garbage,
      { type: 'call' },
      { type: 'call', id: 1, name: 42 },
      { type: 'answer', id: 5, value: { x: 1 } },
      { type: 'init' },
      { type: 'ping', id: 'a' }
    ])
      raw.send(message)
    // A call before init is answered, not dropped (once the process has loaded: that takes seconds on a busy machine).
    raw.send({ type: 'call', id: 1, name: 'app:info', arg: undefined })
    await expect
      .poll(() => answers.find((m) => (m as { id?: number }).id === 1), { timeout: 20_000 })
      .toMatchObject({ type: 'result', result: { ok: false, error: { code: 'HOST_STARTING' } } })
    raw.send({ type: 'init', config: testHostConfig() })
    await expect.poll(() => answers.some((m) => (m as { type?: string }).type === 'ready'), { timeout: 20_000 }).toBe(true)
    raw.send({ type: 'call', id: 2, name: 'app:info', arg: { bad: true } })
    raw.send({ type: 'call', id: 3, name: 'app:info', arg: undefined })
    await expect.poll(() => answers.find((m) => (m as { id?: number }).id === 3)).toMatchObject({ type: 'result', result: { ok: true } })
    expect(answers.find((m) => (m as { id?: number }).id === 2)).toMatchObject({
      result: { ok: false, error: { code: 'INVALID_ARGUMENT' } }
    })
    expect(exited).toBe(false)
    child.kill()
  })
})

// The IPC gate and the host's dispatcher: every way a call can be wrong is refused with a clear code, and nothing raw leaks out.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { AppError } from '../../src/main/errors'
import { createGate, createSenderCheck, type CallSender } from '../../src/main/ipc/gate'
import { createDispatcher } from '../../src/main/ipc/router'
import { mergeParts } from '../../src/shared/ipc/define'
import { calls, events } from '../../src/shared/ipc/contract'
import { startTestHost, type TestHost } from '../support/app-env'

const APP_PAGE = 'http://127.0.0.1:5173/'
const trusted: CallSender = { url: `${APP_PAGE}#/about`, isMainFrame: true }

const testContract = {
  'test:echo': { args: z.strictObject({ text: z.string().max(100), count: z.number().int().min(0) }) },
  'test:explode': { args: z.undefined() },
  'test:refuse': { args: z.undefined() }
}

/** main's gate in front of a dispatcher, as in the app (without the process boundary, which test/host covers). */
function makeTestRouter(logError = vi.fn()) {
  const dispatcher = createDispatcher({
    contract: testContract,
    domains: [
      { 'test:echo': (arg: { text: string; count: number }) => `${arg.text}×${arg.count}` },
      {
        'test:explode': () => {
          throw new Error('disk on fire with key sk_live_abcdef123456 and Bearer sk_test_zzz999')
        },
        'test:refuse': () => {
          throw new AppError('invalid_credentials', 'The key sk_test_secret42 was refused by the provider.')
        }
      }
    ],
    logError
  })
  const router = createGate({
    contract: testContract,
    isTrustedSender: createSenderCheck([APP_PAGE]),
    forward: (name, arg) => dispatcher.dispatch(name, arg)
  })
  return { router, logError }
}

describe('router', () => {
  it('passes a valid call from the app window to its service and wraps the value', async () => {
    const { router } = makeTestRouter()
    await expect(router.dispatch('test:echo', { text: 'hi', count: 2 }, trusted)).resolves.toEqual({ ok: true, value: 'hi×2' })
  })

  it('rejects an unknown call name with UNKNOWN_CALL', async () => {
    const { router } = makeTestRouter()
    const result = await router.dispatch('fs:readAnyFile', { path: '/etc/passwd' }, trusted)
    expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } })
    expect(result.ok ? '' : result.error.message).toContain('fs:readAnyFile')
  })

  it('rejects names that are not strings or that hit Object.prototype', async () => {
    const { router } = makeTestRouter()
    for (const name of [42, null, undefined, { toString: () => 'test:echo' }, 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(await router.dispatch(name, undefined, trusted)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } })
    }
  })

  it('rejects an argument of the wrong type, naming the field', async () => {
    const { router } = makeTestRouter()
    const result = await router.dispatch('test:echo', { text: 'hi', count: 'two' }, trusted)
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: [{ path: 'count' }] } })
    expect(result.ok ? '' : result.error.message).toMatch(/count/)
  })

  it('rejects extra fields', async () => {
    const { router } = makeTestRouter()
    const result = await router.dispatch('test:echo', { text: 'hi', count: 1, admin: true }, trusted)
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    expect(JSON.stringify(result)).toContain('admin')
  })

  it('rejects an oversized string', async () => {
    const { router } = makeTestRouter()
    const result = await router.dispatch('test:echo', { text: 'x'.repeat(101), count: 1 }, trusted)
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', details: [{ path: 'text' }] } })
  })

  it('rejects an argument to a call that takes none', async () => {
    const { router } = makeTestRouter()
    expect(await router.dispatch('test:explode', { sneaky: 1 }, trusted)).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
  })

  it('rejects calls from an unexpected sender before looking at the call', async () => {
    const { router } = makeTestRouter()
    const senders: CallSender[] = [
      { url: 'https://evil.example/', isMainFrame: true },
      { url: `${APP_PAGE}#/about`, isMainFrame: false },
      { url: 'http://127.0.0.1:5174/', isMainFrame: true },
      { url: 'file:///tmp/other/index.html', isMainFrame: true },
      { url: 'not a url', isMainFrame: true },
      { url: '', isMainFrame: true }
    ]
    for (const sender of senders) {
      const result = await router.dispatch('test:echo', { text: 'hi', count: 1 }, sender)
      expect(result, sender.url).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } })
    }
  })

  it('turns an unexpected error into INTERNAL with no stack or secret, and logs it redacted', async () => {
    const { router, logError } = makeTestRouter()
    const result = await router.dispatch('test:explode', undefined, trusted)
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } })
    const shown = JSON.stringify(result)
    expect(shown).not.toMatch(/disk on fire|sk_live|sk_test|at .*\.ts/)
    expect(logError).toHaveBeenCalledOnce()
    const logged = String(logError.mock.calls[0]?.[0])
    expect(logged).toContain('disk on fire')
    expect(logged).not.toMatch(/sk_live_abcdef123456|sk_test_zzz999/)
  })

  it("passes a service's AppError code through, with secrets redacted from its message", async () => {
    const { router } = makeTestRouter()
    const result = await router.dispatch('test:refuse', undefined, trusted)
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_credentials' } })
    expect(JSON.stringify(result)).not.toContain('sk_test_secret42')
  })

  it('refuses a handler outside the contract, a duplicate handler, and an unhandled call', () => {
    const base = { contract: testContract, logError: () => {} }
    const all = { 'test:echo': () => '', 'test:explode': () => '', 'test:refuse': () => '' }
    expect(() => createDispatcher({ ...base, domains: [all, { 'test:unknown': () => '' }] })).toThrow(/not in the IPC contract/)
    expect(() => createDispatcher({ ...base, domains: [all, { 'test:echo': () => '' }] })).toThrow(/registered twice/)
    expect(() => createDispatcher({ ...base, domains: [{ 'test:echo': () => '' }] })).toThrow(/No handler.*test:explode/)
  })

  it('never forwards a refused call: the gate checks before the host sees anything', async () => {
    const forward = vi.fn(async () => ({ ok: true as const, value: 'forwarded' }))
    const gate = createGate({ contract: testContract, isTrustedSender: createSenderCheck([APP_PAGE]), forward })
    await gate.dispatch('test:echo', { text: 'hi', count: 'x' }, trusted)
    await gate.dispatch('test:nope', undefined, trusted)
    await gate.dispatch('test:echo', { text: 'hi', count: 1 }, { url: 'https://evil.example/', isMainFrame: true })
    expect(forward).not.toHaveBeenCalled()
    await expect(gate.dispatch('test:echo', { text: 'hi', count: 1 }, trusted)).resolves.toEqual({ ok: true, value: 'forwarded' })
    expect(forward).toHaveBeenCalledWith('test:echo', { text: 'hi', count: 1 })
  })
})

describe('the gate over the real contract, in front of the real host process', () => {
  let host: TestHost
  beforeAll(async () => {
    host = await startTestHost({ trustedPages: [APP_PAGE] })
  })
  afterAll(async () => {
    await host?.close()
  })

  it('serves app:info from the host, with the Node build of SQLite', async () => {
    const result = await host.gate.dispatch('app:info', undefined, trusted)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value).toMatchObject({ name: 'Ledgerline', version: '0.1.0-test', runtime: { node: process.versions.node } })
    expect((result.value as { runtime: { sqlite: string } }).runtime.sqlite).toMatch(/^3\.\d+\.\d+$/)
  })

  it('refuses a malformed argument and an unknown call on the real contract', async () => {
    expect(await host.gate.dispatch('app:info', { verbose: true }, trusted)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' }
    })
    expect(await host.gate.dispatch('app:quit', undefined, trusted)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } })
  })

  it('trusts the app:// page by scheme and host, nothing else', () => {
    const check = createSenderCheck(['app://ledgerline/index.html'])
    expect(check({ url: 'app://ledgerline/index.html#/records', isMainFrame: true })).toBe(true)
    expect(check({ url: 'app://ledgerline/other.html', isMainFrame: true })).toBe(true)
    expect(check({ url: 'app://evil/index.html', isMainFrame: true })).toBe(false)
    expect(check({ url: 'app://user:pw@ledgerline/index.html', isMainFrame: true })).toBe(false)
    expect(check({ url: 'file:///opt/ledgerline/out/renderer/index.html', isMainFrame: true })).toBe(false)
    expect(check({ url: 'app://ledgerline/index.html', isMainFrame: false })).toBe(false)
  })

  it('trusts only the exact file:// page the app loads', () => {
    const check = createSenderCheck(['file:///opt/ledgerline/out/renderer/index.html'])
    expect(check({ url: 'file:///opt/ledgerline/out/renderer/index.html#/about', isMainFrame: true })).toBe(true)
    expect(check({ url: 'file:///opt/ledgerline/out/renderer/evil.html', isMainFrame: true })).toBe(false)
    expect(check({ url: 'file:///opt/ledgerline/out/renderer/index.html', isMainFrame: false })).toBe(false)
  })
})

describe('the contract itself', () => {
  /** Walks a schema and reports unbounded strings and non-strict objects anywhere inside it. */
  function weaknesses(schema: z.ZodType, path: string): string[] {
    const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def
    switch (def.type) {
      case 'string': {
        const checks = (def['checks'] as { _zod: { def: { check: string } } }[] | undefined) ?? []
        return checks.some((c) => c._zod.def.check === 'max_length' || c._zod.def.check === 'length_equals')
          ? []
          : [`${path}: unbounded string`]
      }
      case 'object': {
        const catchall = def['catchall'] as { _zod: { def: { type: string } } } | undefined
        const own = catchall?._zod.def.type === 'never' ? [] : [`${path}: object accepts unknown fields`]
        const shape = def['shape'] as Record<string, z.ZodType>
        return [...own, ...Object.entries(shape).flatMap(([key, inner]) => weaknesses(inner, `${path}.${key}`))]
      }
      case 'optional':
      case 'nullable':
      case 'default':
        return weaknesses(def['innerType'] as z.ZodType, path)
      case 'array':
        return weaknesses(def['element'] as z.ZodType, `${path}[]`)
      case 'union':
        return (def['options'] as z.ZodType[]).flatMap((option, i) => weaknesses(option, `${path}|${i}`))
      case 'record':
        return weaknesses(def['valueType'] as z.ZodType, `${path}{}`)
      default:
        return []
    }
  }

  it('detects loose objects and unbounded strings (so the check below can fail)', () => {
    expect(weaknesses(z.object({ a: z.string().max(5) }), 'x')).toEqual(['x: object accepts unknown fields'])
    expect(weaknesses(z.strictObject({ a: z.array(z.string()).optional() }), 'x')).toEqual(['x.a[]: unbounded string'])
    expect(weaknesses(z.discriminatedUnion('k', [z.strictObject({ k: z.literal('a'), v: z.string() })]), 'x')).toEqual([
      'x|0.v: unbounded string'
    ])
    expect(weaknesses(z.partialRecord(z.enum(['a']), z.object({})), 'x')).toEqual(['x{}: object accepts unknown fields'])
  })

  it('names every call domain:action, with strict objects and bounded strings only', () => {
    for (const [name, spec] of Object.entries(calls)) {
      expect(name).toMatch(/^[a-z]+:[a-zA-Z]+$/)
      expect(weaknesses(spec.args, name)).toEqual([])
    }
  })

  it('checks every event payload with strict objects and bounded strings too', () => {
    for (const [name, schema] of Object.entries(events)) {
      expect(name).toMatch(/^[a-z]+:[a-zA-Z]+$/)
      expect(weaknesses(schema as z.ZodType, name)).toEqual([])
    }
  })

  it("is merged from the domains' parts, and a name two parts define throws instead of overriding", () => {
    expect(() => mergeParts('call', [{ 'a:x': 1 }, { 'a:y': 2 }])).not.toThrow()
    expect(() => mergeParts('call', [{ 'a:x': 1 }, { 'b:y': 2, 'a:x': 3 }])).toThrow(/defines the call "a:x" twice/)
    expect(() => mergeParts('event', [{ 'e:x': 1 }, { 'e:x': 1 }])).toThrow(/event "e:x" twice/)
  })
})

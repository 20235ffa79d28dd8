// The service host in its own process: a dead or hung host fails calls and jobs in flight with a clear code, is restarted,
// and serves again; a host that cannot start says why instead of restarting forever.
import { afterEach, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { openDatabase } from '../../src/main/cache/sqlite'
import { nodeHostLauncher } from '../../src/main/host/node-launcher'
import { HostSupervisor } from '../../src/main/host/supervisor'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import { startTestHost, testHostConfig, valueOf, type TestHost } from '../support/app-env'
import { startFakeServer, type FakeServer } from '../support/fake-server'

describe('host supervisor', { timeout: 60_000 }, () => {
  const cleanup: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step()
  })
  const started = async (options: Parameters<typeof startTestHost>[0] = {}): Promise<TestHost> => {
    const host = await startTestHost(options)
    cleanup.push(() => host.close())
    return host
  }

  it('runs the services in another process', async () => {
    const host = await started()
    expect(host.supervisor.pid).toBeGreaterThan(0)
    expect(host.supervisor.pid).not.toBe(process.pid)
    expect(valueOf(await host.call('app:info')).runtime.node).toBe(process.versions.node)
  })

  it('fails a call in flight with HOST_RESTARTED when the host dies, restarts it, and serves the next call', async () => {
    // A server that never answers keeps profile:add waiting inside the host.
    const silent: FakeServer = await startFakeServer(() => {})
    cleanup.push(() => silent.close())
    const host = await started({ supervisor: { restarts: { max: 3, windowMs: 60_000, delayMs: 50 } } })
    const firstPid = host.supervisor.pid as number
    const inFlight = host.call('profile:add', { name: 'Hangs', baseUrl: `${silent.origin}/v1`, key: 'sk_test_waiting000001' })
    await expect.poll(() => silent.requests.length).toBeGreaterThan(0)
    process.kill(firstPid, 'SIGKILL')
    const failed = await inFlight
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'HOST_RESTARTED', message: expect.stringMatching(/stopped \(signal SIGKILL\) while working on profile:add/) }
    })
    // A call made while it restarts waits for it instead of failing.
    const meanwhile = host.call('profile:list')
    expect(valueOf(await meanwhile).map((p) => p.name)).toEqual(['Sandbox'])
    expect(host.supervisor.pid).not.toBe(firstPid)
    expect(host.supervisor.restarts).toBe(1)
    expect(host.events.filter((e) => e.name === 'host:status').map((e) => (e.payload as { state: string }).state)).toEqual([
      'restarting',
      'ready'
    ])
  })

  it('reports a job the host was running as failed when the host dies, and the next run resumes from what was saved', async () => {
    const sandbox: Sandbox = await startSandbox({ payments: 30_000, rateLimits: false, maxPageSize: 50 })
    cleanup.push(() => sandbox.close())
    // 40 pages (2,000 payments) are answered and the rest held: the job is running when the host is killed.
    sandbox.faults.holdAfter(40)
    const host = await started({ supervisor: { restarts: { max: 3, windowMs: 60_000, delayMs: 50 } } })
    const profile = valueOf(await host.call('profile:add', { name: 'Acme', baseUrl: sandbox.baseUrl, key: sandbox.keys.test }))
    valueOf(await host.call('profile:select', { id: profile.id }))
    const job = valueOf(await host.call('sync:start', { resources: ['payments'] }))
    // Held, not timed: the job waits on the Sandbox with its answered pages saved. (Progress events come
    // at most every 200 ms, so on a fast machine the last one before the hold may show fewer than were saved.)
    await expect.poll(() => sandbox.faults.heldRequests, { timeout: 30_000 }).toBeGreaterThan(0)
    await expect.poll(async () => valueOf(await host.call('sync:status')).counts.payments, { timeout: 30_000 }).toBeGreaterThan(1000)
    process.kill(host.supervisor.pid as number, 'SIGKILL')
    await expect
      .poll(() => host.events.find((e) => e.name === 'job:finished' && (e.payload as { id: string }).id === job.id)?.payload)
      .toMatchObject({
        state: 'failed',
        error: { code: 'HOST_RESTARTED' }
      })
    // After the restart the same profile is in use, its saved pages are there, and a new sync finishes the rest.
    expect(valueOf(await host.call('profile:active')).id).toBe(profile.id)
    const saved = valueOf(await host.call('sync:status')).counts.payments
    expect(saved).toBeGreaterThan(1000)
    sandbox.faults.release()
    const again = valueOf(await host.call('sync:start', { resources: ['payments'] }))
    await expect
      .poll(() => host.events.find((e) => e.name === 'job:finished' && (e.payload as { id: string }).id === again.id)?.payload, {
        timeout: 40_000
      })
      .toMatchObject({ state: 'succeeded' })
    expect(valueOf(await host.call('sync:status')).counts.payments).toBe(30_000)
  })

  it('kills and restarts a host that stops answering pings', async () => {
    const host = await started({
      supervisor: { heartbeat: { intervalMs: 100, timeoutMs: 600 }, restarts: { max: 3, windowMs: 60_000, delayMs: 50 } }
    })
    const frozen = host.supervisor.pid as number
    process.kill(frozen, 'SIGSTOP')
    await expect.poll(() => host.supervisor.restarts, { timeout: 10_000 }).toBe(1)
    expect(valueOf(await host.call('app:info')).name).toBe('Ledgerline')
    expect(host.supervisor.pid).not.toBe(frozen)
  })

  it('stops restarting a host that keeps dying, and then fails calls at once with HOST_UNAVAILABLE', async () => {
    const host = await started({ supervisor: { restarts: { max: 1, windowMs: 60_000, delayMs: 20 } } })
    process.kill(host.supervisor.pid as number, 'SIGKILL')
    await expect.poll(() => [host.supervisor.restarts, host.supervisor.state]).toEqual([1, 'ready'])
    process.kill(host.supervisor.pid as number, 'SIGKILL')
    await expect.poll(() => host.supervisor.state).toBe('failed')
    // At once: answered before any timer or I/O could run (a call waiting for a restart would still be waiting).
    const answer = await Promise.race([host.call('app:info'), new Promise((resolve) => setImmediate(() => resolve('still waiting')))])
    expect(answer).toMatchObject({ ok: false, error: { code: 'HOST_UNAVAILABLE' } })
    expect(host.events.filter((e) => e.name === 'host:status').at(-1)?.payload).toMatchObject({ state: 'failed' })
  })

  it('finishes at start-up a profile removal the app did not finish', async () => {
    const config = testHostConfig()
    const db = openCache(config.paths.cacheDatabase)
    db.prepare(
      "insert into profiles (id, name, base_url, mode, created_at, removing) values ('old', 'Old (removing old)', 'https://x.example/v1', 'live', 'x', 1)"
    ).run()
    db.prepare("insert into tracked (profile_id, kind, value, added_at) values ('old', 'plan', 'plan-1', 'x')").run()
    db.close()
    const host = await started({ config })
    await expect
      .poll(() => host.events.find((e) => e.name === 'job:finished')?.payload)
      .toMatchObject({ kind: 'profile-remove', state: 'succeeded', title: 'Removing "Old"' })
    const after = openDatabase(config.paths.cacheDatabase)
    expect(after.prepare("select count(*) as n from profiles where id = 'old'").get()).toEqual({ n: 0 })
    expect(after.prepare("select count(*) as n from tracked where profile_id = 'old'").get()).toEqual({ n: 0 })
    after.close()
  })

  it('fails a call at once with HOST_BAD_ANSWER when the host answers it with something that is not a result', async () => {
    // A host that starts, then answers every call with a result main cannot read.
    const listeners: ((message: unknown) => void)[] = []
    const exits: ((info: { code: number | null; signal: string | null }) => void)[] = []
    const reply = (message: unknown): void => void queueMicrotask(() => listeners.forEach((l) => l(message)))
    const logged: string[] = []
    const supervisor = new HostSupervisor({
      launch: () => ({
        pid: 1,
        send: (message) => {
          if (message.type === 'init') reply({ type: 'ready' })
          if (message.type === 'call') reply({ type: 'result', id: message.id, result: 'not a result' })
          if (message.type === 'shutdown') queueMicrotask(() => exits.forEach((e) => e({ code: 0, signal: null })))
        },
        onMessage: (listener) => void listeners.push(listener),
        onExit: (listener) => void exits.push(listener),
        kill: () => {}
      }),
      config: testHostConfig(),
      ui: { confirm: async () => false, chooseSaveFile: async () => null, chooseOpenFile: async () => null },
      onEvent: () => {},
      log: (_level, message) => void logged.push(message)
    })
    await supervisor.start()
    expect(await supervisor.call('app:info', undefined)).toMatchObject({
      ok: false,
      error: { code: 'HOST_BAD_ANSWER', message: expect.stringMatching(/answered app:info in a form Ledgerline cannot read/) }
    })
    expect(logged).toContain('service host answered app:info with a result main cannot read; the call failed')
    await supervisor.stop()
  })

  it('says why a host cannot start (a cache from a newer Ledgerline) and does not restart it', async () => {
    const config = testHostConfig()
    const db = openDatabase(config.paths.cacheDatabase)
    db.pragma('user_version = 99')
    db.close()
    const supervisor = new HostSupervisor({
      launch: nodeHostLauncher(),
      config,
      ui: { confirm: async () => false, chooseSaveFile: async () => null, chooseOpenFile: async () => null },
      onEvent: () => {}
    })
    await expect(supervisor.start()).rejects.toMatchObject({
      code: 'cache_too_new',
      message: expect.stringMatching(/newer Ledgerline \(schema version 99\)/)
    })
    expect(supervisor.state).toBe('failed')
    expect(await supervisor.call('app:info', undefined)).toMatchObject({ ok: false, error: { code: 'cache_too_new' } })
    await supervisor.stop()
  })
})

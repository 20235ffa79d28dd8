// The sync engine against the Sandbox: every resource, incremental runs, cancel and resume, faults, and isolated failures.
import type Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import type { ApiClient } from '../../src/main/api/client'
import { ApiError } from '../../src/main/api/errors'
import { openCache } from '../../src/main/cache/open'
import { virtualAccountRow } from '../../src/main/cache/api-rows'
import { CacheStore } from '../../src/main/cache/store'
import { runSync } from '../../src/main/sync/engine'
import type { SyncProgress } from '../../src/shared/sync'
import { collect, sandboxWithClient } from '../support/sandbox'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function setupSandbox(payments = 1200, extra: Parameters<typeof sandboxWithClient>[1] = {}, strictSpec = false) {
  const started = await sandboxWithClient({ payments, bulkFiles: [30, 260], subscriptions: 300, strictSpec }, extra)
  const db = openCache(':memory:')
  db.prepare("insert into profiles (id, name, mode, created_at) values ('p', 'Sandbox', 'test', '2026-01-01')").run()
  const store = new CacheStore(db)
  cleanups.push(
    () => void db.close(),
    () => started.sandbox.close()
  )
  return { ...started, db, store }
}

const distinctRequests = (log: readonly { method: string; path: string; query: Record<string, string> }[]): number =>
  new Set(log.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)}`)).size

const snapshot = (db: Database.Database, table: string, key: string): string[] =>
  (db.prepare(`select ${key} as k, raw from ${table} where profile_id = 'p' order by ${key}`).all() as { k: string; raw: string }[]).map(
    (r) => `${r.k} ${r.raw}`
  )

describe.each([{ strict: false }, { strict: true }])('sync engine (strict spec: $strict)', ({ strict }) => {
  const setup = (payments?: number, extra: Parameters<typeof sandboxWithClient>[1] = {}) => setupSandbox(payments, extra, strict)

  it('pulls every resource, with progress, totals and ETA', async () => {
    const { sandbox, client, store, db } = await setup()
    const bulk = sandbox.bulkFileIds.test[1] as string
    store.track('p', 'bulk_file', bulk)
    const single = (await client.listBulkTransfers(sandbox.bulkFileIds.test[0] as string)).content[3]?.reference as string
    store.track('p', 'transfer', single)
    store.track('p', 'plan', '00000000-0000-4000-8000-0000000000ff')
    const account = await client.createVirtualAccount({ currency: 'NGN', accountName: 'Invoice 7', amount: 100 })
    store.writePage('p', 'virtual_accounts', [virtualAccountRow(account)])

    const progress: SyncProgress[] = []
    const summary = await runSync({ client, store, profileId: 'p', onProgress: (p) => progress.push(p) })

    expect(summary.cancelled).toBe(false)
    expect(store.count('p', 'payments')).toBe(1200)
    expect(store.count('p', 'subscriptions')).toBe(300)
    expect(store.count('p', 'transfers')).toBe(261)
    expect(
      db.prepare("select total_transfers, last_synced_at is not null as synced from bulk_files where profile_id = 'p' and id = ?").get(bulk)
    ).toEqual({ total_transfers: 260, synced: 1 })
    expect(store.count('p', 'banks')).toBeGreaterThan(20)
    expect(store.count('p', 'virtual_accounts')).toBe(1)
    const planIds = store.referencedPlanIds('p')
    expect(store.count('p', 'plans')).toBe(planIds.length - 1)
    // The unknown plan id is recorded with its API code; everything else still synced.
    const unknownPlan = '00000000-0000-4000-8000-0000000000ff'
    expect(summary.resources.plans).toMatchObject({
      ok: false,
      failedItems: [{ id: unknownPlan, code: strict ? 'invalid_parameter' : 'not_found' }]
    })
    expect(summary.resources.plans?.failedItems?.[0]?.message).toContain(unknownPlan)
    expect(store.failures('p')[0]).toMatchObject({
      resource: 'plans',
      scope: unknownPlan,
      code: strict ? 'invalid_parameter' : 'not_found',
      status: strict ? 400 : 404
    })
    for (const resource of ['payments', 'subscriptions', 'banks', 'transfers', 'virtual_accounts'] as const)
      expect(summary.resources[resource]?.ok, resource).toBe(true)
    const last = progress.filter((p) => p.resource === 'payments').at(-1)
    expect(last).toMatchObject({ done: 1200, total: 1200 })
    expect(progress.some((p) => p.resource === 'payments' && p.etaSeconds !== null && p.rate > 0)).toBe(true)
    expect(
      (db.prepare("select last_synced_at from profiles where id = 'p'").get() as { last_synced_at: string | null }).last_synced_at
    ).not.toBeNull()
  })

  it('picks up new payments and re-checks unfinished ones on the next run', async () => {
    const { sandbox, client, store, db } = await setup(400)
    await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    const pending = (await collect(client.paymentPages({ status: 'pending' }))).find((p) => p.authorization?.mode === 'pin') as {
      reference: string
      id: string
    }
    await client.authorizePayment({ reference: pending.reference, authorization: { pin: '1234' } })
    await client.authorizePayment({ reference: pending.reference, authorization: { otp: '123456' } })
    const account = await client.createVirtualAccount({ currency: 'NGN', accountName: 'Top-up', amount: 50 })
    for (let i = 0; i < 3; i++) {
      await fetch(`${sandbox.baseUrl}/simulator/funds`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${sandbox.keys.test}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ virtualAccountId: account.id })
      })
    }
    const unfinished = store.unfinishedPaymentIds('p').length
    const before = sandbox.requests.length
    const summary = await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    expect(summary.resources.payments).toMatchObject({ ok: true })
    expect(store.count('p', 'payments')).toBe(403)
    const status = db.prepare("select status, status_raw from payments where profile_id = 'p' and id = ?").get(pending.id)
    expect(status).toEqual({ status: 'successful', status_raw: 'successful' })
    // The re-check takes the cheaper way: here re-reading the 9 pages beats one lookup per unfinished
    // payment. Distinct requests count the plan; a transport retry under load is not a second plan step.
    const requests = distinctRequests(sandbox.requests.slice(before))
    expect(unfinished).toBeGreaterThan(12)
    expect(requests).toBeLessThanOrEqual(Math.ceil(403 / 50))
  })

  it('looks up each unfinished payment by id when there are only a few', async () => {
    const { sandbox, client, store, db } = await setup(400)
    await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    // Two old ones: the newest page is read anyway (for new payments), so they must be beyond it.
    const keep = store.unfinishedPaymentIds('p').slice(-2)
    db.prepare(`update payments set is_final = 1 where profile_id = 'p' and id not in (?, ?)`).run(...keep)
    const before = sandbox.requests.length
    await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    const lookups = sandbox.requests
      .slice(before)
      .filter((r) => r.query['reference'] !== undefined)
      .map((r) => r.query['reference'])
    expect(lookups.sort()).toEqual([...keep].sort())
    expect(distinctRequests(sandbox.requests.slice(before))).toBeLessThanOrEqual(2 + 2)
  })

  it('cancels promptly, keeps what it saved, and resumes where it stopped', async () => {
    const { client, store, db } = await setup(3000)
    const controller = new AbortController()
    const summary = await runSync({
      client,
      store,
      profileId: 'p',
      resources: ['payments', 'subscriptions'],
      signal: controller.signal,
      onProgress: (p) => {
        if (p.resource === 'payments' && p.done >= 1000) controller.abort()
      }
    })
    expect(summary.cancelled).toBe(true)
    expect(summary.resources.payments?.error?.code).toBe('cancelled')
    expect(summary.resources.subscriptions).toBeUndefined()
    const saved = store.count('p', 'payments')
    expect(saved).toBeGreaterThanOrEqual(1000)
    expect(saved).toBeLessThan(3000)
    const checkpoint = store.checkpoint('p', 'payments:full')
    expect(checkpoint?.completed).toBe(false)
    expect(checkpoint?.nextPage).toBe(saved / 50)
    expect(checkpoint?.nextOffset).toBe(saved)
    const resumed = await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    expect(resumed.resources.payments?.ok).toBe(true)
    expect(store.count('p', 'payments')).toBe(3000)
    // Checked against the server's own list: the same ids, each with the status the server gives it.
    const server = new Map((await collect(client.paymentPages())).map((p) => [p.id, p.status]))
    const cached = new Map(
      (db.prepare("select id, status_raw from payments where profile_id = 'p'").all() as { id: string; status_raw: string }[]).map((r) => [
        r.id,
        r.status_raw
      ])
    )
    expect(cached).toEqual(server)
  })

  it('ends with the same cache through 429s, 5xx and dropped connections as on a clean run', async () => {
    const clean = await setup(1500)
    await runSync({ client: clean.client, store: clean.store, profileId: 'p' })
    const faulty = await setup(1500, { maxRetries: 10 })
    faulty.sandbox.faults.set({ rates: { 'rate-limit': 0.03, 'server-error': 0.05, unavailable: 0.02, drop: 0.05, 'cut-body': 0.03 } })
    const summary = await runSync({ client: faulty.client, store: faulty.store, profileId: 'p' })
    expect(Object.values(summary.resources).every((r) => r.ok)).toBe(true)
    expect(Object.values(faulty.sandbox.faults.injected).reduce((a, b) => a + b, 0)).toBeGreaterThan(5)
    for (const [table, key] of [
      ['payments', 'id'],
      ['subscriptions', 'id'],
      ['banks', 'bank_code'],
      ['plans', 'id']
    ] as const) {
      expect(snapshot(faulty.db, table, key), table).toEqual(snapshot(clean.db, table, key))
    }
  })

  it('records a failing resource with its API code and goes on with the others', async () => {
    const { client, store } = await setup(200)
    const broken: ApiClient = {
      ...client,
      listSubscriptions: async () => {
        throw new ApiError({
          kind: 'http',
          code: 'server_error',
          message: 'the provider had a server error',
          endpoint: 'GET /subscriptions',
          status: 500
        })
      }
    }
    const summary = await runSync({ client: broken, store, profileId: 'p', resources: ['payments', 'subscriptions', 'banks'] })
    expect(summary.resources.subscriptions).toMatchObject({ ok: false, error: { code: 'server_error' } })
    expect(summary.resources.payments).toMatchObject({ ok: true })
    expect(summary.resources.banks?.ok).toBe(true)
    expect(store.failures('p')[0]).toMatchObject({ resource: 'subscriptions', code: 'server_error', status: 500 })
  })
})

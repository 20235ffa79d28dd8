// Sync against the strict-spec Sandbox: a second sync costs what changed, paging is checked, follows fail alone, virtual accounts keep what the app asked for.
import type Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { createVirtualAccount, listVirtualAccounts } from '../../src/main/accounts/service'
import { openCache } from '../../src/main/cache/open'
import { CacheStore } from '../../src/main/cache/store'
import { runSync } from '../../src/main/sync/engine'
import { normalizePaymentStatus } from '../../src/shared/api/assumptions'
import { collect, sandboxWithClient } from '../support/sandbox'

const PAGE = 50
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

async function setup(payments = 3000, bulkFiles = [30, 260]) {
  const started = await sandboxWithClient({ payments, bulkFiles, subscriptions: 120, strictSpec: true })
  const db = openCache(':memory:')
  db.prepare("insert into profiles (id, name, mode, created_at) values ('p', 'Strict', 'test', '2026-01-01')").run()
  const store = new CacheStore(db)
  cleanups.push(
    () => void db.close(),
    () => started.sandbox.close()
  )
  return { ...started, db, store }
}

/** The cache's payments as id → raw status, to compare with the server's own list. */
const cachedStatuses = (db: Database.Database): Map<string, string> =>
  new Map(
    (db.prepare("select id, status_raw from payments where profile_id = 'p'").all() as { id: string; status_raw: string }[]).map((r) => [
      r.id,
      r.status_raw
    ])
  )

describe('incremental sync against a spec-strict server', () => {
  it('second sync: only the pages holding new payments plus a bounded re-check, and every settled payment shows its new status', async () => {
    const { sandbox, client, store, db } = await setup()
    const first = await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    expect(first.resources.payments).toMatchObject({ ok: true })
    const firstRequests = first.resources.payments?.requests ?? 0
    expect(firstRequests).toBeGreaterThanOrEqual(3000 / PAGE)

    const state = sandbox.state('test')
    const pendingAtServer = (await collect(client.paymentPages({ status: 'pending' }))).map((p) => p.id)
    const NEW = 120
    const SETTLED = 30
    state.addNewPayments(NEW)
    const settled = pendingAtServer.filter((_, i) => i % 3 === 1).slice(0, SETTLED)
    settled.forEach((id, i) => state.setPaymentStatus(id, i % 2 === 0 ? 'successful' : 'failed'))

    const before = sandbox.requests.length
    const second = await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    const sent = sandbox.requests.slice(before).filter((r) => r.path === '/v1/payments')
    expect(second.resources.payments).toMatchObject({ ok: true, requests: sent.length })
    // Pages holding the new payments, then the pending list and one lookup per payment that left it.
    const bound = Math.ceil(NEW / PAGE) + Math.ceil(pendingAtServer.length / PAGE) + SETTLED
    expect(sent.length).toBeLessThanOrEqual(bound)
    expect(sent.length).toBeLessThan(firstRequests)
    // Never a walk through history: no page of the unfiltered list beyond the new payments is asked for.
    const unfilteredPages = sent
      .filter((r) => r.query['status'] === undefined && r.query['reference'] === undefined)
      .map((r) => Number(r.query['page']))
    expect(Math.max(...unfilteredPages)).toBeLessThanOrEqual(Math.ceil(NEW / PAGE))

    // The cache now says exactly what the server says, payment by payment.
    const server = new Map((await collect(client.paymentPages())).map((p) => [p.id, p.status]))
    expect(server.size).toBe(3000 + NEW)
    expect(cachedStatuses(db)).toEqual(server)
    for (const id of settled) expect(normalizePaymentStatus(cachedStatuses(db).get(id))).not.toBe('pending')

    // Nothing changed: a third sync is one page plus the pending list.
    const third = await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    expect(third.resources.payments?.requests).toBeLessThanOrEqual(1 + Math.ceil(pendingAtServer.length / PAGE))
  })

  it('does not re-read a payment whose status it does not know', async () => {
    const { sandbox, client, store, db } = await setup(600)
    await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    const oldPending = store.unfinishedPaymentIds('p').at(-1) as string
    sandbox.state('test').setPaymentStatus(oldPending, 'ON_HOLD_REVIEW')
    await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    expect(db.prepare("select status, status_raw, is_final from payments where profile_id = 'p' and id = ?").get(oldPending)).toEqual({
      status: 'unknown',
      status_raw: 'ON_HOLD_REVIEW',
      is_final: 1
    })
    const before = sandbox.requests.length
    await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    expect(sandbox.requests.slice(before).some((r) => r.query['reference'] === oldPending)).toBe(false)
  })

  it('a server that ignores the page parameter ends the sync after a few requests with an error naming paging and the query-name assumption', async () => {
    for (const quirk of ['ignorePage', 'ignorePageButEcho'] as const) {
      const { sandbox, client, store, db } = await setup(3000)
      sandbox.paging[quirk] = true
      const summary = await runSync({ client, store, profileId: 'p', resources: ['payments', 'subscriptions'] })
      const outcome = summary.resources.payments
      expect(outcome?.ok, quirk).toBe(false)
      expect(outcome?.error?.code).toBe('paging_unreliable')
      expect(outcome?.error?.message).toMatch(/paging/)
      expect(outcome?.error?.message).toContain('payments-query')
      expect(outcome?.error?.message).toContain('`page`')
      expect(outcome?.requests).toBeLessThanOrEqual(4)
      // Never reported complete: no finished checkpoint, no "last synced", and the progress never claimed the whole list.
      expect(store.checkpoint('p', 'payments:full')?.completed ?? false).toBe(false)
      expect(store.count('p', 'payments')).toBeLessThanOrEqual(PAGE)
      expect(db.prepare("select last_synced_at from profiles where id = 'p'").get()).toEqual({ last_synced_at: null })
      expect(summary.resources.subscriptions?.error?.code).toBe('paging_unreliable')
    }
  })

  it('resumes by record offset, so a page size that grew between runs skips no rows', async () => {
    const { sandbox, client, store } = await setup(3000)
    sandbox.paging.maxPageSize = 30
    const controller = new AbortController()
    await runSync({
      client,
      store,
      profileId: 'p',
      resources: ['payments'],
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done >= 1000) controller.abort()
      }
    })
    const saved = store.checkpoint('p', 'payments:full')
    expect(saved).toMatchObject({ completed: false, pageSize: 30 })
    expect(saved?.nextOffset).toBe((saved?.nextPage ?? 0) * 30)
    sandbox.paging.maxPageSize = 50
    const summary = await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    expect(summary.resources.payments?.ok).toBe(true)
    const server = (await collect(client.paymentPages())).map((p) => p.id).sort()
    const cached = (store.db.prepare("select id from payments where profile_id = 'p' order by id").all() as { id: string }[]).map(
      (r) => r.id
    )
    expect(cached).toEqual(server)
  })
})

describe('follows against a spec-strict server', () => {
  it('a mistyped followed reference fails alone, named, and everything else syncs', async () => {
    const { sandbox, client, store } = await setup(300)
    const [small, large] = sandbox.bulkFileIds.test as [string, string]
    const good = (await client.listBulkTransfers(small)).content[2]?.reference as string
    const typo = `${good.slice(0, -1)}X`
    store.track('p', 'bulk_file', large)
    store.track('p', 'transfer', typo)
    store.track('p', 'transfer', good)
    store.track('p', 'plan', 'not-a-plan-id')

    const summary = await runSync({ client, store, profileId: 'p' })
    for (const resource of ['payments', 'subscriptions', 'banks', 'virtual_accounts'] as const)
      expect(summary.resources[resource]?.ok, resource).toBe(true)
    const transfers = summary.resources.transfers
    expect(transfers?.ok).toBe(false)
    expect(transfers?.failedItems).toHaveLength(1)
    expect(transfers?.failedItems?.[0]).toMatchObject({ id: typo, code: 'invalid_parameter' })
    expect(transfers?.failedItems?.[0]?.message).toContain(`"${typo}"`)
    expect(transfers?.error?.message).toContain(typo)
    expect(store.count('p', 'transfers')).toBe(260 + 1)
    expect(summary.resources.plans?.failedItems?.map((f) => f.id)).toEqual(['not-a-plan-id'])

    const items = new Map(store.trackedItems('p', 'transfer').map((t) => [t.value, t]))
    expect(items.get(typo)).toMatchObject({ lastSyncedAt: null, lastError: expect.stringContaining(typo) })
    expect(items.get(good)).toMatchObject({ lastSyncedAt: expect.any(String), lastError: null })
    expect(store.trackedItems('p', 'bulk_file')[0]).toMatchObject({ value: large, lastSyncedAt: expect.any(String), lastError: null })
    expect(store.failures('p').some((f) => f.scope === typo && f.message.includes(typo))).toBe(true)

    // Unfollowed, it is not asked for again; what was fetched stays.
    expect(store.untrack('p', 'transfer', typo)).toBe(true)
    expect(store.untrack('p', 'transfer', typo)).toBe(false)
    const before = sandbox.requests.length
    const again = await runSync({ client, store, profileId: 'p', resources: ['transfers'] })
    expect(sandbox.requests.slice(before).some((r) => r.path.includes(encodeURIComponent(typo)))).toBe(false)
    expect(again.resources.transfers?.failedItems).toBeUndefined()
  })

  it('a followed transfer keeps its bulk file; settled bulk files and final transfers cost no request', async () => {
    const { sandbox, client, store, db } = await setup(100, [40])
    const file = sandbox.bulkFileIds.test[0] as string
    const transfers = await collect(client.bulkTransferPages(file))
    const pending = transfers.find((t) => ['processing', 'initiated', 'pending'].includes(t.status.toLowerCase()))
    expect(pending, 'the seed has a transfer still in progress').toBeDefined()
    store.track('p', 'bulk_file', file)
    store.track('p', 'transfer', pending?.reference as string)
    await runSync({ client, store, profileId: 'p', resources: ['transfers'] })
    // Read again by reference (it is not final), it still belongs to its file.
    expect(db.prepare("select bulk_file_id from transfers where profile_id = 'p' and reference = ?").get(pending?.reference)).toEqual({
      bulk_file_id: file
    })

    // Once every transfer is final, the file and the reference are left alone.
    db.prepare("update transfers set is_final = 1 where profile_id = 'p'").run()
    const before = sandbox.requests.length
    const summary = await runSync({ client, store, profileId: 'p', resources: ['transfers'] })
    expect(sandbox.requests.length).toBe(before)
    expect(summary.resources.transfers).toMatchObject({ ok: true, requests: 0, skipped: 2 })
  })
})

describe('virtual accounts as the spec gives them', () => {
  it('keeps amount and currency from the create request and computes expiry from creation and expiresIn', async () => {
    const { sandbox, client, store, db } = await setup(50)
    const at = Date.UTC(2026, 10, 22, 9, 0, 0)
    const created = await createVirtualAccount(
      client,
      store,
      'p',
      { currency: 'GHS', accountName: 'Invoice 88', amount: '12.50', expiresIn: 10 },
      () => at
    )
    expect(created).toMatchObject({ amountRaw: '12.50', currency: 'GHS', expiresAt: new Date(at + 10 * 60_000).toISOString() })
    expect(db.prepare("select amount_minor, created_at, expires_in_minutes from virtual_accounts where profile_id = 'p'").get()).toEqual({
      amount_minor: 1250,
      created_at: new Date(at).toISOString(),
      expires_in_minutes: 10
    })
    // A sync reads the account back (the response has no amount) and keeps what the request said.
    // (The expiry is moved into the future here, so the account is still worth a request.)
    store.db.prepare("update virtual_accounts set expires_at = ? where profile_id = 'p'").run(new Date(Date.now() + 60_000).toISOString())
    const summary = await runSync({ client, store, profileId: 'p', resources: ['virtual_accounts'] })
    expect(summary.resources.virtual_accounts).toMatchObject({ ok: true, requests: 1 })
    expect(listVirtualAccounts(db, 'p')[0]).toMatchObject({ amountRaw: '12.50', currency: 'GHS', lifecycle: 'temporary' })

    // Seen after its expiry, an account is not asked for again.
    store.db.prepare("update virtual_accounts set expires_at = ? where profile_id = 'p'").run(new Date(Date.now() - 60_000).toISOString())
    await runSync({ client, store, profileId: 'p', resources: ['virtual_accounts'] })
    const before = sandbox.requests.length
    const idle = await runSync({ client, store, profileId: 'p', resources: ['virtual_accounts'] })
    expect(sandbox.requests.length).toBe(before)
    expect(idle.resources.virtual_accounts).toMatchObject({ requests: 0, skipped: 1 })
  })
})

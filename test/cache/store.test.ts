// The cache store with real Sandbox pages: exact money, statuses kept raw, pages and checkpoints atomic, nothing dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type Database from 'better-sqlite3'
import { openCache } from '../../src/main/cache/open'
import { paymentRow, planRow, subscriptionRow, transferRow } from '../../src/main/cache/api-rows'
import { CacheStore } from '../../src/main/cache/store'
import type { ApiClient } from '../../src/main/api/client'
import type { Sandbox } from '../../src/sandbox/server'
import type { Payment } from '../../src/shared/api/schemas'
import { sandboxWithClient } from '../support/sandbox'

let sandbox: Sandbox
let client: ApiClient
let db: Database.Database
let store: CacheStore

beforeAll(async () => {
  ;({ sandbox, client } = await sandboxWithClient({ payments: 400 }))
  db = openCache(':memory:')
  db.prepare(
    "insert into profiles (id, name, base_url, mode, created_at) values ('p1', 'Sandbox', null, 'test', '2026-01-01'), ('p2', 'Other', null, 'live', '2026-01-01')"
  ).run()
  store = new CacheStore(db)
})
afterAll(async () => {
  db.close()
  await sandbox.close()
})

describe('record rows', () => {
  const base: Payment = { id: 'x', amount: 0.29, currency: 'NGN', status: 'SUCCESS', createdAt: '2026-03-01T10:00:00Z' }

  it('convert money exactly and normalise the status while keeping it raw', () => {
    const row = paymentRow({ ...base, localAmount: 1234.5, localCurrency: 'NGN', totalFees: 0.01 })
    expect(row).toMatchObject({
      amount_raw: '0.29',
      amount_minor: 29,
      local_amount_minor: 123450,
      fees_minor: 1,
      status: 'successful',
      status_raw: 'SUCCESS',
      is_final: 1
    })
    expect(row['created_at_ms']).toBe(Date.UTC(2026, 2, 1, 10))
    expect(JSON.parse(String(row['raw']))).toEqual({ ...base, localAmount: 1234.5, localCurrency: 'NGN', totalFees: 0.01 })
    expect(transferRow({ reference: 'T1', amount: '10.5', currency: 'GHS', status: 'processing' }, 'bulk-1')).toMatchObject({
      amount_minor: 1050,
      status: 'pending',
      status_raw: 'processing',
      bulk_file_id: 'bulk-1'
    })
    expect(planRow({ id: 'pl', title: 'Gold', amount: 5000, currency: 'NGN', status: 'cancelled' })).toMatchObject({
      amount_minor: 500000,
      status: 'cancelled'
    })
    expect(subscriptionRow({ id: 's', planId: 'pl', status: 'ACTIVE' })).toMatchObject({
      status: 'active',
      amount_minor: null,
      amount_raw: null
    })
  })

  it('keep a record they cannot convert or understand instead of dropping it', () => {
    const odd = paymentRow({ ...base, amount: 12.5, currency: 'XYZ', status: 'ON_HOLD', createdAt: 'yesterday', riskScore: 3 })
    expect(odd).toMatchObject({
      amount_raw: '12.5',
      amount_minor: null,
      currency: 'XYZ',
      status: 'unknown',
      status_raw: 'ON_HOLD',
      is_final: 1,
      created_at_ms: null
    })
    expect(JSON.parse(String(odd['raw']))).toMatchObject({ riskScore: 3 })
  })
})

describe('cache store', () => {
  const sample: Payment = { id: 'x', amount: 10, currency: 'NGN', status: 'successful', createdAt: '2026-03-01T10:00:00Z' }

  it('writes Sandbox pages once each, however often a page is written again', async () => {
    let seen = 0
    for await (const page of client.paymentPages()) {
      const checkpoint = {
        resource: 'payments',
        scope: '',
        nextPage: page.pageNumber + 1,
        nextOffset: page.pageNumber * page.pageSize + page.content.length,
        pageSize: page.pageSize,
        totalElements: page.totalElements,
        completed: page.pageNumber + 1 >= page.totalPages
      }
      store.writePage('p1', 'payments', page.content.map(paymentRow), checkpoint)
      if (seen++ === 2) store.writePage('p1', 'payments', page.content.map(paymentRow), { ...checkpoint, completed: false })
    }
    expect(store.count('p1', 'payments')).toBe(400)
    expect(store.count('p2', 'payments')).toBe(0)
    expect(store.checkpoint('p1', 'payments')).toEqual({
      resource: 'payments',
      scope: '',
      nextPage: 8,
      nextOffset: 400,
      pageSize: 50,
      totalElements: 400,
      completed: true
    })
    const sums = db
      .prepare("select currency, sum(amount_minor) as total, count(*) as n from payments where profile_id = 'p1' group by currency")
      .all() as { total: number; n: number }[]
    expect(sums.reduce((a, s) => a + s.n, 0)).toBe(400)
    for (const s of sums) expect(Number.isSafeInteger(s.total)).toBe(true)
    expect(
      (db.prepare("select count(*) as n from payments where profile_id = 'p1' and status_raw <> lower(status_raw)").get() as { n: number })
        .n
    ).toBeGreaterThan(0)
  })

  it('updates a payment whose status changed, in place, and tells final from unfinished', () => {
    const unfinished = store.unfinishedPaymentIds('p1')
    expect(unfinished.length).toBeGreaterThan(0)
    const raw = (db.prepare("select raw from payments where profile_id = 'p1' and id = ?").get(unfinished[0]) as { raw: string }).raw
    const payment = JSON.parse(raw) as Payment
    store.writePage('p1', 'payments', [paymentRow({ ...payment, status: 'successful' })])
    expect(store.unfinishedPaymentIds('p1')).not.toContain(payment.id)
    expect(store.knownPaymentIds('p1', [payment.id, 'nope'])).toEqual(new Set([payment.id]))
    expect(store.count('p1', 'payments')).toBe(400)
  })

  it('orders payments by time through their rowids, keeping the API’s order within a millisecond', () => {
    // Newest first, as the API lists them: two in one millisecond, two in the one before, one either side.
    const at = (ms: number, id: string): Payment => ({
      ...sample,
      id,
      createdAt: new Date(Date.UTC(2026, 10, 22, 4, 15, 54) + ms).toISOString()
    })
    const page = [at(2, 'c2'), at(1, 'b1'), at(1, 'b2'), at(0, 'a1'), at(0, 'a2'), at(-1, 'z1')].map(paymentRow)
    try {
      store.writePage('p2', 'payments', page)
      store.writePage('p2', 'payments', [paymentRow({ ...sample, id: 'far', createdAt: '9999-12-31T23:59:59.999Z' })])
      store.writePage('p2', 'payments', page)
      const newestFirst = (db.prepare("select id from payments where profile_id = 'p2' order by rowid desc").all() as { id: string }[]).map(
        (r) => r.id
      )
      expect(newestFirst).toEqual(['far', 'c2', 'b1', 'b2', 'a1', 'a2', 'z1'])
    } finally {
      db.prepare("delete from payments where profile_id = 'p2'").run()
    }
  })

  it('writes nothing of a page, checkpoint included, when any part of it fails', () => {
    const good = paymentRow({ id: 'g1', amount: 1, currency: 'NGN', status: 'pending', createdAt: '2026-01-01T00:00:00Z' })
    const broken = { ...good, id: null }
    expect(() =>
      store.writePage('p2', 'payments', [good, broken], {
        resource: 'payments',
        scope: '',
        nextPage: 1,
        nextOffset: 2,
        pageSize: 2,
        totalElements: 2,
        completed: false
      })
    ).toThrow()
    expect(store.count('p2', 'payments')).toBe(0)
    expect(store.checkpoint('p2', 'payments')).toBeNull()
  })

  it('remembers tracked ids, referenced plans and failures per profile', () => {
    store.track('p1', 'bulk_file', 'b-1')
    store.track('p1', 'bulk_file', 'b-1')
    store.track('p1', 'plan', 'user-plan')
    expect(store.tracked('p1', 'bulk_file')).toEqual(['b-1'])
    expect(store.tracked('p2', 'bulk_file')).toEqual([])
    const plans = store.referencedPlanIds('p1')
    expect(plans).toContain('user-plan')
    expect(plans.length).toBeGreaterThan(1)
    store.recordFailure('p1', 'plans', 'x', { code: 'not_found', message: 'GET /plans/{plan-id}: not found', status: 404 })
    expect(store.failures('p1')[0]).toMatchObject({ resource: 'plans', code: 'not_found', status: 404 })
    expect(store.failures('p2')).toEqual([])
  })
})

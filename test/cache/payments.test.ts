// Payments written to the cache from real Sandbox pages: exact money, statuses kept raw, pages and checkpoints atomic.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type Database from 'better-sqlite3'
import { openCache } from '../../src/main/cache/open'
import { createPaymentStore, paymentRow, type PaymentStore } from '../../src/main/cache/payments'
import type { ApiClient } from '../../src/main/api/client'
import type { Sandbox } from '../../src/main/sandbox/server'
import type { Payment } from '../../src/shared/api/schemas'
import { sandboxWithClient } from '../support/sandbox'

let sandbox: Sandbox
let client: ApiClient
let db: Database.Database
let store: PaymentStore

beforeAll(async () => {
  ;({ sandbox, client } = await sandboxWithClient({ payments: 400 }))
  db = openCache(':memory:')
  db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('p1', 'Sandbox', null, 'test', '2026-01-01'), ('p2', 'Other', null, 'live', '2026-01-01')").run()
  store = createPaymentStore(db)
})
afterAll(async () => {
  db.close()
  await sandbox.close()
})

describe('paymentRow', () => {
  const base: Payment = { id: 'x', amount: 0.29, currency: 'NGN', status: 'SUCCESS', createdAt: '2026-03-01T10:00:00Z' }

  it('converts money exactly and normalises the status while keeping it raw', () => {
    const row = paymentRow({ ...base, localAmount: 1234.5, localCurrency: 'NGN', totalFees: 0.01 }, 5)
    expect(row).toMatchObject({ amount_raw: '0.29', amount_minor: 29, local_amount_minor: 123450, fees_minor: 1, status: 'successful', status_raw: 'SUCCESS', is_final: 1 })
    expect(row.created_at_ms).toBe(Date.UTC(2026, 2, 1, 10))
    expect(JSON.parse(row.raw)).toEqual({ ...base, localAmount: 1234.5, localCurrency: 'NGN', totalFees: 0.01 })
  })

  it('keeps a record it cannot convert or understand instead of dropping it', () => {
    const odd = paymentRow({ ...base, amount: 12.5, currency: 'XYZ', status: 'ON_HOLD', createdAt: 'yesterday', riskScore: 3 }, 5)
    expect(odd).toMatchObject({ amount_raw: '12.5', amount_minor: null, currency: 'XYZ', status: 'unknown', status_raw: 'ON_HOLD', is_final: 0, created_at_ms: null })
    expect(JSON.parse(odd.raw)).toMatchObject({ riskScore: 3 })
  })
})

describe('payment store', () => {
  it('writes Sandbox pages once each, however often a page is written again', async () => {
    let page = 0
    for await (const result of client.paymentPages()) {
      const last = result.pageNumber + 1 >= result.totalPages
      store.writePage('p1', result.content, { resource: 'payments', scope: '', nextPage: result.pageNumber + 1, pageSize: result.pageSize, totalElements: result.totalElements, completed: last })
      if (page++ === 2) store.writePage('p1', result.content, { resource: 'payments', scope: '', nextPage: result.pageNumber + 1, pageSize: result.pageSize, totalElements: result.totalElements, completed: false })
    }
    expect(store.count('p1')).toBe(400)
    expect(store.count('p2')).toBe(0)
    expect(store.checkpoint('p1', 'payments')).toEqual({ resource: 'payments', scope: '', nextPage: 8, pageSize: 50, totalElements: 400, completed: true })
    const sums = db.prepare("select currency, sum(amount_minor) as total, count(*) as n from payments where profile_id = 'p1' group by currency").all() as { currency: string; total: number; n: number }[]
    expect(sums.reduce((a, s) => a + s.n, 0)).toBe(400)
    for (const s of sums) expect(Number.isSafeInteger(s.total)).toBe(true)
    const upper = db.prepare("select count(*) as n from payments where profile_id = 'p1' and status_raw <> lower(status_raw)").get() as { n: number }
    expect(upper.n).toBeGreaterThan(0)
  })

  it('updates a payment whose status changed, in place', () => {
    const row = db.prepare("select raw from payments where profile_id = 'p1' and is_final = 0 limit 1").get() as { raw: string }
    const payment = JSON.parse(row.raw) as Payment
    store.writePage('p1', [{ ...payment, status: 'successful' }], { resource: 'payments', scope: 'recheck', nextPage: 1, pageSize: 1, totalElements: 1, completed: true })
    const after = db.prepare("select status, is_final from payments where profile_id = 'p1' and id = ?").get(payment.id)
    expect(after).toEqual({ status: 'successful', is_final: 1 })
    expect(store.count('p1')).toBe(400)
  })

  it('writes nothing of a page, checkpoint included, when any part of it fails', () => {
    const before = store.checkpoint('p2', 'payments')
    const good: Payment = { id: 'g1', amount: 1, currency: 'NGN', status: 'pending', createdAt: '2026-01-01T00:00:00Z' }
    const broken = { id: null } as unknown as Payment
    expect(() => store.writePage('p2', [good, broken], { resource: 'payments', scope: '', nextPage: 1, pageSize: 2, totalElements: 2, completed: false })).toThrow()
    expect(store.count('p2')).toBe(0)
    expect(store.checkpoint('p2', 'payments')).toEqual(before)
  })
})

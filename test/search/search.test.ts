// Offline search over a cache filled from the Sandbox: text, filters, order and paging, and no input that errors.
import type Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { paymentRow, subscriptionRow, transferRow } from '../../src/main/cache/records'
import { CacheStore } from '../../src/main/cache/store'
import { search, toFtsQuery } from '../../src/main/search/search'
import { COUNT_LIMIT } from '../../src/shared/search'
import type { Payment } from '../../src/shared/api/schemas'
import { collect, sandboxWithClient } from '../support/sandbox'

let db: Database.Database
let payments: Payment[]

beforeAll(async () => {
  const { sandbox, client } = await sandboxWithClient({ payments: 2000, bulkFiles: [120] })
  db = openCache(':memory:')
  db.prepare("insert into profiles (id, name, mode, created_at) values ('p1', 'One', 'test', 'x'), ('p2', 'Two', 'live', 'x')").run()
  const store = new CacheStore(db)
  payments = await collect(client.paymentPages())
  store.writePage('p1', 'payments', payments.map(paymentRow))
  store.writePage('p2', 'payments', (await client.listPayments()).content.slice(0, 5).map(paymentRow))
  store.writePage('p1', 'transfers', (await collect(client.bulkTransferPages(sandbox.bulkFileIds.test[0] as string))).map((t) => transferRow(t, 'b')))
  store.writePage('p1', 'subscriptions', (await collect(client.subscriptionPages())).map(subscriptionRow))
  await sandbox.close()
})
afterAll(() => db.close())

describe('search', () => {
  it('finds a payment by its reference, id, email prefix and account number', () => {
    const target = payments.find((p) => p.bankDetails?.accountNumber) as Payment
    for (const text of [target.reference as string, target.id, target.bankDetails?.accountNumber as string]) {
      const result = search(db, 'p1', { resource: 'payments', text })
      expect(result.items.map((i) => i.key), text).toContain(target.id)
    }
    const email = String(target.metadata?.['customerEmail'])
    const byPrefix = search(db, 'p1', { resource: 'payments', text: email.slice(0, 6) })
    expect(byPrefix.items.length).toBeGreaterThan(0)
    expect(search(db, 'p1', { resource: 'payments', text: target.reference as string }).total).toBe(1)
  })

  it('folds case and diacritics', () => {
    const names = search(db, 'p1', { resource: 'payments', text: 'aissatou' })
    const accented = search(db, 'p1', { resource: 'payments', text: 'AÏSSATOU' })
    expect(accented.total).toBe(names.total)
  })

  it('filters by status, channel, currency, amount range and date range, in SQL', () => {
    const failed = search(db, 'p1', { resource: 'payments', status: 'failed', pageSize: 200 })
    expect(failed.total).toBe(payments.filter((p) => ['failed'].includes(p.status.toLowerCase())).length)
    const card = search(db, 'p1', { resource: 'payments', channel: 'card', currency: 'ngn', minAmount: '1000', maxAmount: '50000.50', pageSize: 200 })
    for (const item of card.items) {
      expect(item.channel).toBe('card')
      expect(item.currency).toBe('NGN')
      expect(item.amountMinor).toBeGreaterThanOrEqual(100_000)
      expect(item.amountMinor).toBeLessThanOrEqual(5_000_050)
    }
    const day = (payments[100] as Payment).createdAt.slice(0, 10)
    const onDay = search(db, 'p1', { resource: 'payments', from: day, to: day, pageSize: 200 })
    const expected = payments.filter((p) => p.createdAt.startsWith(day)).length
    expect(onDay.total).toBe(Math.min(expected, COUNT_LIMIT))
    expect(onDay.totalCapped).toBe(expected > COUNT_LIMIT)
    const early = search(db, 'p1', { resource: 'payments', to: (payments.at(-1) as Payment).createdAt.slice(0, 10) })
    expect(early.total).toBe(payments.filter((p) => p.createdAt.slice(0, 10) <= (payments.at(-1) as Payment).createdAt.slice(0, 10)).length)
    expect(early.totalCapped).toBe(false)
    expect(() => search(db, 'p1', { resource: 'payments', minAmount: '10' })).toThrow(/choose a currency/)
    expect(() => search(db, 'p1', { resource: 'payments', from: 'last tuesday' })).toThrow(/not a date/)
  })

  it('sorts and pages in SQLite, consistently', () => {
    const all: string[] = []
    for (let page = 0; page < 10; page++) all.push(...search(db, 'p1', { resource: 'payments', page, pageSize: 200 }).items.map((i) => i.key))
    expect(all).toEqual([...payments].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)).map((p) => p.id))
    const amounts = search(db, 'p1', { resource: 'payments', currency: 'GHS', sort: 'amount_desc', pageSize: 200 }).items.map((i) => i.amountMinor as number)
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a))
  })

  it('never shows another profile’s records', () => {
    expect(search(db, 'p2', { resource: 'payments' }).total).toBe(5)
    expect(search(db, 'p2', { resource: 'transfers' }).total).toBe(0)
  })

  it('searches transfers by narration, name and account, and subscriptions by email', () => {
    expect(search(db, 'p1', { resource: 'transfers', text: 'salary' }).total).toBeGreaterThan(0)
    expect(search(db, 'p1', { resource: 'transfers' }).total).toBe(120)
    expect(search(db, 'p1', { resource: 'subscriptions', text: 'example.com' }).total).toBeGreaterThan(0)
  })

  it('answers anything a user can type with results or none, never an error', () => {
    const hostile = ['"', '""', "'", 'AND(', 'OR', 'NOT', 'NEAR(a b)', '*', '-', '--', '-x', '^', ':', 'payments_fts:', 'a OR b', '(((', ')', '{}', '[x]', '\\', '%', '_',
      "'; DROP TABLE payments; --", 'é', '日本語', '🙂', '\u0000', 'a\u0000b', 'x'.repeat(10_000), '\u202e', 'ß', '   ', '\n\t']
    for (const text of hostile) {
      expect(() => search(db, 'p1', { resource: 'payments', text }), JSON.stringify(text).slice(0, 30)).not.toThrow()
    }
    expect(search(db, 'p1', { resource: 'payments', text: '*' }).total).toBe(0)
    expect(search(db, 'p1', { resource: 'payments' })).toMatchObject({ total: COUNT_LIMIT, totalCapped: true })
    expect(toFtsQuery('INV-0001 "x" AND(')).toBe('"INV"* "0001"* "x" "AND"*')
  })
})

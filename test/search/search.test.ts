// Offline search over a cache filled from the Sandbox: text, filters, order and paging, and no input that errors.
import type Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { paymentRow, subscriptionRow, transferRow } from '../../src/main/cache/api-rows'
import { CacheStore } from '../../src/main/cache/store'
import { toFtsQuery } from '../../src/main/cache/text-match'
import { search } from '../../src/main/search/search'
import { COUNT_LIMIT, type SearchQuery } from '../../src/shared/search'
import { normalizePaymentStatus } from '../../src/shared/api/assumptions'
import { parseMajor } from '../../src/shared/money'
import { DateTime } from 'luxon'
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
  store.writePage(
    'p1',
    'transfers',
    (await collect(client.bulkTransferPages(sandbox.bulkFileIds.test[0] as string))).map((t) => transferRow(t, 'b'))
  )
  store.writePage('p1', 'subscriptions', (await collect(client.subscriptionPages())).map(subscriptionRow))
  await sandbox.close()
})
afterAll(() => db.close())

describe('search', () => {
  it('finds a payment by its reference, id, email prefix and account number', () => {
    const target = payments.find((p) => p.bankDetails?.accountNumber) as Payment
    for (const text of [target.reference as string, target.id, target.bankDetails?.accountNumber as string]) {
      const result = search(db, 'p1', { resource: 'payments', text })
      expect(
        result.items.map((i) => i.key),
        text
      ).toContain(target.id)
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
    const card = search(db, 'p1', {
      resource: 'payments',
      channel: 'card',
      currency: 'ngn',
      minAmount: '1000',
      maxAmount: '50000.50',
      pageSize: 200
    })
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

  /** Every page from the first by next-cursors, then back again by previous-cursors. */
  function walkAll(query: SearchQuery): { forward: string[]; backward: string[]; pages: number } {
    const forward: string[] = []
    let result = search(db, 'p1', query)
    let pages = 1
    forward.push(...result.items.map((i) => i.key))
    expect(result.previousCursor).toBeNull()
    while (result.nextCursor) {
      result = search(db, 'p1', { ...query, after: result.nextCursor })
      forward.push(...result.items.map((i) => i.key))
      pages++
    }
    const backward: string[] = [...result.items.map((i) => i.key)].reverse()
    while (result.previousCursor) {
      result = search(db, 'p1', { ...query, before: result.previousCursor })
      backward.push(...[...result.items.map((i) => i.key)].reverse())
    }
    return { forward, backward: backward.reverse(), pages }
  }

  it('pages by keyset, forward and back, through every row in order', () => {
    const newest = walkAll({ resource: 'payments', pageSize: 150 })
    expect(newest.forward).toEqual([...payments].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)).map((p) => p.id))
    expect(newest.pages).toBe(Math.ceil(2000 / 150))
    expect(newest.backward).toEqual(newest.forward)
    const oldest = walkAll({ resource: 'payments', sort: 'oldest', pageSize: 200 })
    expect(oldest.forward).toEqual([...newest.forward].reverse())
    // With a text match too (driven from the FTS index), and on resources ordered by date then key.
    const text = walkAll({ resource: 'payments', text: 'example', pageSize: 97 })
    expect(text.forward.length).toBe(new Set(text.forward).size)
    expect(text.forward).toEqual(newest.forward.filter((id) => text.forward.includes(id)))
    expect(text.backward).toEqual(text.forward)
    const subs = walkAll({ resource: 'subscriptions', pageSize: 33 })
    expect(subs.forward.length).toBe(search(db, 'p1', { resource: 'subscriptions' }).total)
    expect(new Set(subs.forward).size).toBe(subs.forward.length)
    expect(subs.backward).toEqual(subs.forward)
    // A cursor from another sort or resource is refused clearly.
    const cursor = search(db, 'p1', { resource: 'payments', pageSize: 5 }).nextCursor as string
    expect(() => search(db, 'p1', { resource: 'payments', sort: 'oldest', after: cursor })).toThrow(
      expect.objectContaining({ code: 'invalid_cursor' })
    )
    expect(() => search(db, 'p1', { resource: 'payments', after: 'not-a-cursor' })).toThrow(
      expect.objectContaining({ code: 'invalid_cursor' })
    )
  })

  it('sorts by amount within each currency, never across currencies', () => {
    for (const sort of ['amount_desc', 'amount_asc'] as const) {
      const rows = walkAll({ resource: 'payments', sort, pageSize: 200 }).forward.map((id) => payments.find((p) => p.id === id) as Payment)
      expect(rows).toHaveLength(2000)
      const currencies = rows.map((p) => p.currency)
      // Each currency is one contiguous block, in code order.
      expect([...new Set(currencies)]).toEqual([...new Set(currencies)].sort())
      for (const currency of new Set(currencies)) {
        const minor = rows.filter((p) => p.currency === currency).map((p) => parseMajor(p.amount, currency))
        expect(minor, `${sort} ${currency}`).toEqual([...minor].sort((a, b) => (sort === 'amount_desc' ? b - a : a - b)))
      }
    }
  })

  it('reads the status filter the way statuses are stored: SUCCESS finds successful payments', () => {
    const successful = payments.filter((p) => normalizePaymentStatus(p.status) === 'successful').length
    for (const typed of ['SUCCESS', 'successful', 'Successful', 'SUCCESSFUL']) {
      expect(search(db, 'p1', { resource: 'payments', status: typed }).total, typed).toBe(Math.min(successful, COUNT_LIMIT))
    }
    // A status the app does not know is found as the provider sent it.
    const reversed = payments.filter((p) => p.status === 'reversed').length
    expect(search(db, 'p1', { resource: 'payments', status: 'REVERSED' }).total).toBe(reversed)
  })

  it('reads a date filter as whole days in the business time zone', () => {
    const day = (payments[300] as Payment).createdAt.slice(0, 10)
    for (const zone of ['UTC', 'Africa/Lagos', 'America/New_York', 'Pacific/Auckland']) {
      const start = DateTime.fromISO(day, { zone }).toMillis()
      const end = DateTime.fromISO(day, { zone }).plus({ days: 1 }).toMillis()
      const expected = payments.filter((p) => Date.parse(p.createdAt) >= start && Date.parse(p.createdAt) < end).length
      const found = search(db, 'p1', { resource: 'payments', from: day, to: day }, { timeZone: zone })
      expect(found.total, zone).toBe(Math.min(expected, COUNT_LIMIT))
    }
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
    const hostile = [
      '"',
      '""',
      "'",
      'AND(',
      'OR',
      'NOT',
      'NEAR(a b)',
      '*',
      '-',
      '--',
      '-x',
      '^',
      ':',
      'payments_fts:',
      'a OR b',
      '(((',
      ')',
      '{}',
      '[x]',
      '\\',
      '%',
      '_',
      "'; DROP TABLE payments; --",
      'é',
      '日本語',
      '🙂',
      '\u0000',
      'a\u0000b',
      'x'.repeat(10_000),
      '\u202e',
      'ß',
      '   ',
      '\n\t'
    ]
    for (const text of hostile) {
      expect(() => search(db, 'p1', { resource: 'payments', text }), JSON.stringify(text).slice(0, 30)).not.toThrow()
    }
    expect(search(db, 'p1', { resource: 'payments', text: '*' }).total).toBe(0)
    expect(search(db, 'p1', { resource: 'payments' })).toMatchObject({ total: COUNT_LIMIT, totalCapped: true })
    expect(toFtsQuery('INV-0001 "x" AND(')).toBe('"INV"* "0001"* "x" "AND"*')
  })
})

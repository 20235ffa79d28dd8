// The record tables on a cache of their own: any window read by keyset or by jump is the same rows as one ordered read, totals are exact or say they are not, and nothing typed escapes its filter.
import type Database from 'better-sqlite3'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { bankRow, paymentRow } from '../../src/main/cache/api-rows'
import { CacheStore } from '../../src/main/cache/store'
import { recordDetail } from '../../src/main/records/detail'
import { findRecords } from '../../src/main/records/find'
import { recordRows, recordTotals } from '../../src/main/records/table'
import type { Profile } from '../../src/main/profiles/service'
import type { Payment } from '../../src/shared/api/schemas'
import type { RecordQuery, RecordRow } from '../../src/shared/records'
import { propertyRuns } from '../support/property'

let db: Database.Database
const N = 1_500
const profile: Profile = {
  id: 'p1',
  name: 'One',
  baseUrl: 'https://api.example.com/v1',
  mode: 'test',
  builtIn: false,
  createdAt: 'x',
  lastSyncedAt: null,
  timeZone: 'UTC',
  timeZoneIsSystem: false,
  fundsSimulatorUrl: null,
  workspace: null
}

function payment(n: number): Payment {
  return {
    id: `pay-${n}`,
    reference: `REF-${n % 700}`,
    // Some amounts repeat (ties broken by the row's key), one cannot be converted exactly.
    amount: n === 7 ? '12.345' : `${(n * 37) % 400}.${String(n % 100).padStart(2, '0')}`,
    currency: ['NGN', 'GHS', 'KES'][n % 3] as string,
    status: n % 11 === 0 ? 'pending' : 'successful',
    channel: n % 2 ? 'card' : 'bank_transfer',
    // Many payments share a millisecond.
    createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(n / 4) * 1000).toISOString(),
    metadata: { customerName: `Customer ${n % 50}` }
  } as Payment
}

beforeAll(() => {
  db = openCache(':memory:')
  db.prepare("insert into profiles (id, name, mode, created_at) values ('p1', 'One', 'test', 'x'), ('p2', 'Two', 'live', 'x')").run()
  const store = new CacheStore(db)
  store.writePage(
    'p1',
    'payments',
    Array.from({ length: N }, (_, n) => paymentRow(payment(n)))
  )
  store.writePage('p2', 'payments', [paymentRow(payment(0))])
  store.writePage('p1', 'banks', [
    bankRow({ bankCode: '058', bankName: 'Guaranty Trust Bank' } as never, 'NGN'),
    bankRow({ bankCode: '044', bankName: '100% Microfinance_Bank' } as never, 'NGN')
  ])
})
afterAll(() => db.close())

const QUERIES: RecordQuery[] = [
  { resource: 'payments' },
  { resource: 'payments', sort: { column: 'amount', desc: true } },
  { resource: 'payments', sort: { column: 'amount', desc: false }, currency: 'NGN' },
  { resource: 'payments', sort: { column: 'reference', desc: false }, text: 'customer' },
  { resource: 'payments', sort: { column: 'status', desc: true }, channel: 'card' }
]

/** Every row of a query, by keyset windows of `size`. */
function walk(query: RecordQuery, size: number): RecordRow[] {
  const all: RecordRow[] = []
  let window = recordRows(db, 'p1', query, { offset: 0, limit: size }, 'UTC')
  all.push(...window.rows)
  while (window.next) {
    window = recordRows(db, 'p1', query, { offset: window.next.offset, limit: size, anchor: window.next }, 'UTC')
    all.push(...window.rows)
  }
  return all
}

describe('record tables', () => {
  it.each(QUERIES)('reads the same rows window by window, by jump and by keyset from any anchor: %o', (query) => {
    const all = walk(query, 97)
    const total = recordTotals(db, 'p1', query, 'UTC').total
    expect(all.length).toBe(total)
    expect(new Set(all.map((r) => r.key)).size).toBe(total)
    fc.assert(
      fc.property(fc.nat(total - 1), fc.integer({ min: 1, max: 120 }), fc.boolean(), (offset, limit, withTotal) => {
        const jumped = recordRows(db, 'p1', query, { offset, limit, ...(withTotal ? { total } : {}) }, 'UTC')
        expect(jumped.rows.map((r) => r.key)).toEqual(all.slice(offset, offset + limit).map((r) => r.key))
        // From that window's end, keyset carries on exactly where it stopped.
        if (jumped.next) {
          const after = recordRows(db, 'p1', query, { offset: jumped.next.offset + 3, limit: 5, anchor: jumped.next }, 'UTC')
          expect(after.rows.map((r) => r.key)).toEqual(all.slice(jumped.next.offset + 3, jumped.next.offset + 8).map((r) => r.key))
        }
      }),
      propertyRuns(40)
    )
  })

  it('keeps profiles apart and refuses a cursor from another sort or a tampered one', () => {
    expect(recordTotals(db, 'p2', { resource: 'payments' }, 'UTC').total).toBe(1)
    const first = recordRows(db, 'p1', { resource: 'payments' }, { offset: 0, limit: 10 }, 'UTC')
    const anchor = first.next as { offset: number; cursor: string }
    expect(() =>
      recordRows(db, 'p1', { resource: 'payments', sort: { column: 'amount', desc: true } }, { offset: 10, limit: 10, anchor }, 'UTC')
    ).toThrow(/another search/)
    expect(() =>
      recordRows(db, 'p1', { resource: 'payments' }, { offset: 10, limit: 10, anchor: { offset: 10, cursor: 'not-a-cursor' } }, 'UTC')
    ).toThrow(/another search/)
  })

  it('sums each currency exactly, and says so when one amount could not be converted', () => {
    const totals = recordTotals(db, 'p1', { resource: 'payments' }, 'UTC')
    const expected = new Map<string, number>()
    for (let n = 0; n < N; n++) {
      const p = payment(n)
      if (n === 7) continue
      const [whole, cents] = String(p.amount).split('.') as [string, string]
      expected.set(p.currency, (expected.get(p.currency) ?? 0) + Number(whole) * 100 + Number(cents))
    }
    // Payment 7 is in GHS with three decimals: GHS has two, so that sum is not exact.
    expect(payment(7).currency).toBe('GHS')
    for (const c of totals.byCurrency)
      expect(c.sumMinor, c.currency ?? '').toBe(c.currency === 'GHS' ? null : expected.get(c.currency as string))
    expect(totals.byCurrency.reduce((n, c) => n + c.count, 0)).toBe(N)
  })

  it('takes % and _ typed into a table without an index as themselves', () => {
    const names = (text: string): string[] =>
      recordRows(db, 'p1', { resource: 'banks', text }, { offset: 0, limit: 50 }, 'UTC').rows.map((r) => String(r.cells['name']))
    expect(names('100%')).toEqual(['100% Microfinance_Bank'])
    expect(names('%')).toEqual(['100% Microfinance_Bank'])
    expect(names('e_b')).toEqual(['100% Microfinance_Bank'])
    expect(names('trust')).toEqual(['Guaranty Trust Bank'])
    expect(findRecords(db, 'p1', '%').flatMap((g) => g.records.map((r) => r.label))).toEqual([])
    expect(
      findRecords(db, 'p1', 'microfinance')
        .find((g) => g.resource === 'banks')
        ?.records.map((r) => r.key)
    ).toEqual(['NGN:044'])
  })

  it('places a record in the reconciliation sessions that hold it, and not in those holding an id that merely contains it', () => {
    db.prepare(
      "insert into recon_sessions (id, profile_id, name, source, source_filter, period_from, period_to, time_zone, settings, created_at, created_by, head_hash) values ('s1', 'p1', 'October', 'payments', '{}', '2026-10-01', '2026-10-31', 'UTC', '{}', '2026-11-01', 'me', 'x')"
    ).run()
    const item = db.prepare("insert into recon_items (session_id, position, item_key, outcome, data) values ('s1', ?, ?, ?, '{}')")
    item.run(0, 'pay-12|f:1', 'matched')
    item.run(1, 'pay-120+pay-121|f:2', 'suggested')
    expect(recordDetail(db, profile, 'payments', 'pay-12', null).recon).toEqual([
      { sessionId: 's1', sessionName: 'October', closed: false, outcome: 'matched', itemKey: 'pay-12|f:1' }
    ])
    expect(recordDetail(db, profile, 'payments', 'pay-121', null).recon.map((r) => r.outcome)).toEqual(['suggested'])
    expect(recordDetail(db, profile, 'payments', 'pay-13', null).recon).toEqual([])
  })
})

// The other provider sides of a session: payouts of followed bulk files as debits, subscription charges that were due, and virtual accounts' expected amounts.
import type Database from 'better-sqlite3'
import { beforeEach, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { createdVirtualAccountRow, paymentRow, planRow, subscriptionRow, transferRow } from '../../src/main/cache/api-rows'
import { CacheStore } from '../../src/main/cache/store'
import { loadProviderSide, PERIOD_PAYMENTS } from '../../src/main/reconcile/provider-side'
import { ReconService } from '../../src/main/reconcile/service'

let db: Database.Database
let store: CacheStore
let service: ReconService

beforeEach(() => {
  db = openCache(':memory:')
  db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('p', 'Acme', null, 'live', '2026-01-01')").run()
  store = new CacheStore(db)
  service = new ReconService(db, { user: 'ada' })
})

async function reconcile(source: 'payouts' | 'subscriptions' | 'virtual-accounts', csv: string, filter = {}) {
  const outcome = await service.importStatement({
    profileId: 'p',
    name: `${source}.csv`,
    bytes: Buffer.from(csv),
    mapping: { defaultCurrency: 'NGN' }
  })
  if (outcome.status !== 'imported') throw new Error(outcome.status)
  const session = service.createSession({
    profileId: 'p',
    name: source,
    source,
    filter,
    from: '2026-10-01',
    to: '2026-10-31',
    timeZone: 'Africa/Lagos',
    fileIds: [outcome.file.id]
  })
  await service.run(session.id)
  return service.items(session.id).items
}

describe('provider sides', () => {
  it('payouts: the transfers of a followed bulk file are debits; one bank line for the whole file is offered as a group', async () => {
    store.track('p', 'bulk_file', 'bulk-1')
    db.prepare("update bulk_files set added_at = '2026-10-05T09:00:00Z' where id = 'bulk-1'").run()
    store.writePage('p', 'transfers', [
      transferRow(
        {
          reference: 'PAYOUT-1',
          servicereference: 'S1',
          amount: 1500,
          currency: 'NGN',
          status: 'SUCCESSFUL',
          destination: { accountName: 'Ada Obi', accountNumber: '0123456789' }
        },
        'bulk-1'
      ),
      transferRow({ reference: 'PAYOUT-2', servicereference: 'S2', amount: 2500, currency: 'NGN', status: 'SUCCESSFUL' }, 'bulk-1'),
      transferRow({ reference: 'PAYOUT-3', amount: 99, currency: 'NGN', status: 'FAILED' }, 'bulk-1'),
      transferRow({ reference: 'OTHER-9', amount: 7, currency: 'NGN', status: 'SUCCESSFUL' }, 'bulk-2')
    ])
    const side = loadProviderSide(db, {
      profileId: 'p',
      source: 'payouts',
      filter: { bulkFileIds: ['bulk-1'] },
      from: '2026-10-01',
      to: '2026-10-31',
      timeZone: 'Africa/Lagos'
    })
    expect(side.records.map((r) => [r.id, r.amountMinor, r.day])).toEqual([
      ['PAYOUT-1', -150000, '2026-10-05'],
      ['PAYOUT-2', -250000, '2026-10-05'],
      ['PAYOUT-3', -9900, '2026-10-05']
    ])
    expect(side.notes[0]).toMatch(/carry no date/)
    const items = await reconcile('payouts', 'Date,Description,Debit,Credit\n2026-10-06,BULK PAYOUT OCT,"4,000.00",\n', {
      bulkFileIds: ['bulk-1']
    })
    expect(items.map((i) => [i.outcome, i.provider.map((p) => p.id).sort(), i.differenceMinor])).toEqual([
      ['suggested', ['PAYOUT-1', 'PAYOUT-2'], 0]
    ])
  })

  it('subscriptions: every active subscription is due once per plan period; the ones the file does not show did not pay', async () => {
    store.writePage('p', 'plans', [
      planRow({ id: 'plan-m', title: 'Gold Monthly', frequency: 'MONTHLY', amount: 5000, currency: 'NGN', status: 'ACTIVE' }),
      planRow({ id: 'plan-w', title: 'Weekly box', frequency: 'WEEKLY', amount: 1000, currency: 'NGN', status: 'ACTIVE' })
    ])
    store.writePage('p', 'subscriptions', [
      subscriptionRow({
        id: 'sub-ama',
        planId: 'plan-m',
        status: 'active',
        startDate: '2026-08-03T00:00:00Z',
        customer: { id: 'c1', email: 'ama@example.com', name: 'Ama Owusu' }
      }),
      subscriptionRow({
        id: 'sub-kofi',
        planId: 'plan-m',
        status: 'active',
        startDate: '2026-09-20T00:00:00Z',
        customer: { id: 'c2', email: 'kofi@example.com', name: 'Kofi Mensah' }
      }),
      subscriptionRow({ id: 'sub-gone', planId: 'plan-m', status: 'cancelled', startDate: '2026-09-01T00:00:00Z' }),
      subscriptionRow({
        id: 'sub-box',
        planId: 'plan-w',
        status: 'active',
        startDate: '2026-10-01T00:00:00Z',
        customer: { id: 'c3', email: 'efua@example.com', name: 'Efua' }
      })
    ])
    const side = loadProviderSide(db, {
      profileId: 'p',
      source: 'subscriptions',
      filter: {},
      from: '2026-10-01',
      to: '2026-10-31',
      timeZone: 'Africa/Lagos'
    })
    expect(side.records.map((r) => r.id).sort()).toEqual([
      'sub-ama@2026-10-03',
      'sub-box@2026-10-01',
      'sub-box@2026-10-08',
      'sub-box@2026-10-15',
      'sub-box@2026-10-22',
      'sub-box@2026-10-29',
      'sub-kofi@2026-10-20'
    ])
    const items = await reconcile('subscriptions', 'Date,Description,Amount\n2026-10-03,CARD PAYMENT AMA OWUSU,"5,000.00"\n')
    const byOutcome = (o: string): string[] => items.filter((i) => i.outcome === o).flatMap((i) => i.provider.map((p) => p.id))
    expect(byOutcome('suggested')).toEqual(['sub-ama@2026-10-03'])
    expect(byOutcome('only_in_provider')).toEqual(expect.arrayContaining(['sub-kofi@2026-10-20', 'sub-box@2026-10-29']))
    expect(items.find((i) => i.provider[0]?.id === 'sub-kofi@2026-10-20')?.reasons).toEqual(['not in the file'])
  })

  it('virtual accounts: the amount each was created for, found by its account number in the description', async () => {
    store.writePage('p', 'virtual_accounts', [
      createdVirtualAccountRow(
        { id: 'va-1', accountNumber: '9900112233', accountName: 'Invoice 7', bankName: 'Test Bank', mode: 'live', lifeCycle: 'temporary' },
        { amount: '12500.00', currency: 'NGN' },
        Date.parse('2026-10-10T09:00:00Z')
      ),
      createdVirtualAccountRow(
        { id: 'va-2', accountNumber: '9900445566', accountName: 'Invoice 8', bankName: 'Test Bank', mode: 'live', lifeCycle: 'temporary' },
        { amount: '800.00', currency: 'NGN' },
        Date.parse('2026-10-11T09:00:00Z')
      )
    ])
    const items = await reconcile('virtual-accounts', 'Date,Narration,Credit\n2026-10-10,TRF TO 9900112233 FROM OBI,"12,000.00"\n')
    expect(items.map((i) => [i.outcome, i.provider.map((p) => p.id).join()])).toEqual([
      ['amount_differs', 'va-1'],
      ['only_in_provider', 'va-2']
    ])
    expect(items[0]?.differenceMinor).toBe(-50000)
  })
})

describe('the payments of a period', () => {
  it('are read as one stretch of the table in time order, exactly the period’s in its time zone, of this profile only', () => {
    db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('q', 'Other', null, 'live', '2026-01-01')").run()
    // Lagos is UTC+1: 1 October starts at 30 September 23:00 UTC and 31 October ends at 31 October 23:00 UTC.
    const at = (id: string, createdAt: string) =>
      paymentRow({ id, reference: id, amount: 10, currency: 'NGN', status: 'successful', createdAt })
    store.writePage('p', 'payments', [
      at('before', '2026-09-30T22:59:59.999Z'),
      at('first', '2026-09-30T23:00:00.000Z'),
      at('last', '2026-10-31T22:59:59.999Z'),
      at('after', '2026-10-31T23:00:00.000Z'),
      at('no-time', 'not a time')
    ])
    store.writePage('q', 'payments', [at('other-profile', '2026-10-15T12:00:00Z')])
    const october = {
      profileId: 'p',
      source: 'payments',
      filter: {},
      from: '2026-10-01',
      to: '2026-10-31',
      timeZone: 'Africa/Lagos'
    } as const
    expect(loadProviderSide(db, october).records.map((r) => [r.id, r.day])).toEqual([
      ['first', '2026-10-01'],
      ['last', '2026-10-31']
    ])
    const reach = loadProviderSide(db, { ...october, reach: { before: 1, after: 1 } })
    expect(reach.records.map((r) => [r.id, r.outsidePeriod])).toEqual([
      ['before', true],
      ['first', false],
      ['last', false],
      ['after', true]
    ])
    // A payment another program stored under a rowid that is not its time is read all the same: the
    // stretch is checked against a count through the time index, and the index is read when they differ.
    db.prepare(
      "insert into payments (seq, profile_id, id, reference, amount_raw, amount_minor, currency, status, status_raw, is_final, created_at, created_at_ms, raw, fetched_at_ms) values (1, 'p', 'elsewhere', 'elsewhere', '10', 1000, 'NGN', 'successful', 'SUCCESS', 1, '2026-10-10T10:00:00Z', ?, '{}', 0)"
    ).run(Date.parse('2026-10-10T10:00:00Z'))
    expect(
      loadProviderSide(db, october)
        .records.map((r) => r.id)
        .sort()
    ).toEqual(['elsewhere', 'first', 'last'])
    // The read walks the rowid range (a payment's rowid is its time), never the time index's scattered look-ups.
    const plan = db.prepare(`explain query plan ${PERIOD_PAYMENTS}`).all(0, 1, 'p', 0, 1) as { detail: string }[]
    expect(plan.map((p) => p.detail)).toEqual(['SEARCH payments USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)'])
  })
})

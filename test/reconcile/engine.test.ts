// The matching engine by scenario and by property: every outcome, groups net of fees, ties, currencies, signs, determinism, decisions, footing.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toExcelCsv } from '../../src/shared/csv/excel-safe'
import { DEFAULT_SETTINGS, pairKey, type Outcome, type ReconItem, type ReconSettings } from '../../src/shared/reconcile'
import { runMatch, runMatchAsync, type MatchResult } from '../../src/main/reconcile/engine'
import { findGroup, GroupSums, searchNearest } from '../../src/main/reconcile/match/groups'
import { MatchState } from '../../src/main/reconcile/match/state'
import type { EngineDecisions, EngineFileRow, EngineProvider } from '../../src/main/reconcile/match/types'
import { ITEM_COLUMNS, itemCells } from '../../src/main/reconcile/report'
import { summarise } from '../../src/main/reconcile/totals'
import { materialise } from '../../src/main/reconcile/runs'
import { propertyRuns } from '../support/property'

let fileSeq = 0
const P = (id: string, o: Partial<EngineProvider> = {}): EngineProvider => ({
  id,
  reference: null,
  serviceReference: null,
  day: '2026-10-10',
  amountMinor: 10_000,
  feesMinor: 0,
  currency: 'NGN',
  status: 'successful',
  channel: 'card',
  text: null,
  ...o
})
const F = (o: Partial<EngineFileRow> = {}): EngineFileRow => ({
  id: o.id ?? `f${String(++fileSeq).padStart(4, '0')}`,
  fileId: 'file',
  line: fileSeq,
  date: '2026-10-10',
  amountMinor: 10_000,
  currency: 'NGN',
  reference: null,
  description: null,
  counterparty: null,
  ...o
})

const noDecisions: EngineDecisions = { pinned: [], dismissed: new Set() }
const folded = { engine: noDecisions, notes: new Map(), adjustments: [], reopenedAt: null }

/** Outcome per member: provider ids and file ids each mapped to their item's outcome. */
function outcomes(result: MatchResult): Map<string, Outcome> {
  const map = new Map<string, Outcome>()
  for (const item of result.items) {
    for (const i of item.p) map.set((result.provider[i] as EngineProvider).id, item.outcome)
    for (const i of item.f) map.set((result.file[i] as EngineFileRow).id, item.outcome)
  }
  return map
}
const settings = (o: Partial<ReconSettings> = {}): ReconSettings => ({ ...DEFAULT_SETTINGS, ...o })
/** The period the scenarios' days are in: its end, which items are aged to. */
const PERIOD = { to: '2026-10-31', settings: DEFAULT_SETTINGS }
const reportBytes = (result: MatchResult): string =>
  toExcelCsv(
    ITEM_COLUMNS,
    materialise(result, folded, PERIOD).items.map((item) => itemCells(item))
  )

describe('matching scenarios', () => {
  it('gives every outcome its own case, by exact keys first and text-backed suggestions after', () => {
    const provider = [
      P('p-match', { reference: 'A-0001' }),
      P('p-amount', { reference: 'B-0002', amountMinor: 20_000 }),
      P('p-currency', { reference: 'C-0003' }),
      P('p-status', { reference: 'D-0004', status: 'failed', amountMinor: 5_000 }),
      P('p-pending', { reference: 'D-0005', status: 'pending', amountMinor: 7_000 }),
      P('p-only', { reference: 'E-0006', amountMinor: 12_345 }),
      P('p-dupfile', { reference: 'F-0007', amountMinor: 3_000 }),
      P('p-dup1', { reference: 'G-0008', amountMinor: 4_000, day: '2026-10-09' }),
      P('p-dup2', { reference: 'G-0008', amountMinor: 4_000 }),
      P('p-suggest', { amountMinor: 55_500, text: 'Adaeze Okafor adaeze@example.com' }),
      P('p-tie1', { amountMinor: 66_600, text: 'Bola Ade' }),
      P('p-tie2', { amountMinor: 66_600, text: 'Bola Ade' })
    ]
    const file = [
      F({ id: 'f-match', reference: ' a-0001 ' }),
      F({ id: 'f-amount', reference: 'B-0002', amountMinor: 19_900 }),
      F({ id: 'f-currency', reference: 'C-0003', currency: 'GHS' }),
      F({ id: 'f-status', reference: 'D-0004', amountMinor: 5_000 }),
      F({ id: 'f-dupfile1', reference: 'F-0007', amountMinor: 3_000 }),
      F({ id: 'f-dupfile2', reference: 'f-0007', amountMinor: 3_000, date: '2026-10-12' }),
      F({ id: 'f-dup', reference: 'G-0008', amountMinor: 4_000, date: '2026-10-09' }),
      F({ id: 'f-suggest', amountMinor: 55_500, description: 'NIP TRANSFER FROM OKAFOR ADAEZE', date: '2026-10-11' }),
      F({ id: 'f-tie', amountMinor: 66_600, description: 'BOLA ADE' }),
      F({ id: 'f-only', amountMinor: -5_250, description: 'SMS ALERT CHARGES' })
    ]
    const result = runMatch(provider, file, settings())
    const got = outcomes(result)
    expect(Object.fromEntries(got)).toEqual({
      'p-match': 'matched',
      'f-match': 'matched',
      'p-amount': 'amount_differs',
      'f-amount': 'amount_differs',
      'p-currency': 'currency_differs',
      'f-currency': 'currency_differs',
      'p-status': 'status_differs',
      'f-status': 'status_differs',
      'p-pending': 'pending_at_provider',
      'p-only': 'only_in_provider',
      'p-dupfile': 'matched',
      'f-dupfile1': 'matched',
      'f-dupfile2': 'duplicate_in_file',
      'p-dup1': 'matched',
      'f-dup': 'matched',
      'p-dup2': 'duplicate_in_provider',
      'p-suggest': 'suggested',
      'f-suggest': 'suggested',
      'p-tie1': 'ambiguous',
      'p-tie2': 'ambiguous',
      'f-tie': 'ambiguous',
      'f-only': 'only_in_file'
    })
    const suggestion = [...result.items].find((i) => i.outcome === 'suggested')
    expect(suggestion?.score).toBeGreaterThan(6)
    expect(suggestion?.reasons.join('; ')).toMatch(/amount equal \+3; date 1 day\(s\) after the provider's \+2; text 100% alike \+4/)
    // The bank charge stays a file item with its sign.
    expect(materialise(result, folded, PERIOD).items.find((i) => i.outcome === 'only_in_file')?.file[0]?.amountMinor).toBe(-5_250)
  })

  it('keeps money not due apart: pending with no line is pending_at_provider, reversed and refunded with no line are left out like failed ones', () => {
    const result = runMatch(
      [
        P('p-pending', { reference: 'PEND-0001', status: 'pending' }),
        P('p-reversed', { reference: 'REV-00001', status: 'reversed' }),
        P('p-refunded', { reference: 'REF-00002', status: 'refunded' }),
        P('p-reversed-paid', { reference: 'REV-00003', status: 'reversed' })
      ],
      [F({ id: 'f-reversed-paid', reference: 'REV-00003' })],
      settings()
    )
    expect(Object.fromEntries(outcomes(result))).toEqual({
      'p-pending': 'pending_at_provider',
      'p-reversed-paid': 'status_differs',
      'f-reversed-paid': 'status_differs'
    })
    expect(result.leftOutFailed).toBe(2)
    // Two days before the period's end, the pending payment is not due yet: counted and totalled, but no exception to review.
    const soon = { to: '2026-10-12', settings: settings() }
    const items = materialise(result, folded, soon).items
    expect(items.find((i) => i.outcome === 'status_differs')?.reasons.join('; ')).toMatch(/reversed/)
    const totals = summarise(items, { settings: soon.settings, periodTo: soon.to }, [])
    expect(totals.counts.pending_at_provider).toBe(1)
    expect(totals.exceptions).toBe(1)
    expect(totals.currencies[0]?.ageing.pending[0]).toEqual({ count: 1, minor: 10_000 })
    // Three weeks before it, it has waited longer than the session's 7 days: an item to review, its age said.
    const late = materialise(result, folded, PERIOD).items
    const pending = late.find((i) => i.outcome === 'pending_at_provider')
    expect(pending?.reasons).toContain(
      "pending at the provider for 21 days at the period's end (more than 7): ask the provider what became of it"
    )
    const lateTotals = summarise(late, { settings: PERIOD.settings, periodTo: PERIOD.to }, [])
    expect(lateTotals.exceptions).toBe(2)
    expect(lateTotals.currencies[0]?.ageing.pending[1]).toEqual({ count: 1, minor: 10_000 })
  })

  it('offers the one candidate of exactly the amount inside the window as a low suggestion, and never when a second qualifies', () => {
    const line = F({ id: 'f', amountMinor: 25_000, description: 'POS PURCHASE SHOPRITE', date: '2026-10-11' })
    const result = runMatch([P('p', { text: 'Chidi Eze', amountMinor: 25_000 })], [line], settings())
    expect(Object.fromEntries(outcomes(result))).toEqual({ p: 'suggested', f: 'suggested' })
    const item = [...result.items][0]
    expect(item?.score).toBeLessThan(3)
    expect(item?.reasons).toEqual([
      'amount and date only, no reference or name in common',
      'amount equal',
      "date 1 day(s) after the provider's"
    ])
    // Net of fees counts as exactly the amount too.
    const net = runMatch([P('p', { amountMinor: 25_500, feesMinor: 500 })], [line], settings())
    expect([...net.items][0]?.reasons[1]).toBe('amount equal net of fees (NGN 5.00)')
    // A second record of that amount in the window: nothing is offered.
    const two = runMatch([P('p', { amountMinor: 25_000 }), P('q', { amountMinor: 25_000, day: '2026-10-12' })], [line], settings())
    expect(Object.fromEntries(outcomes(two))).toEqual({ p: 'only_in_provider', q: 'only_in_provider', f: 'only_in_file' })
    // A second line for the one record: nothing either.
    const lines = runMatch([P('p', { amountMinor: 25_000 })], [line, F({ id: 'g', amountMinor: 25_000 })], settings())
    expect([...lines.items].some((i) => i.outcome === 'suggested')).toBe(false)
    // Not the exact amount (within a tolerance) or outside the window: never.
    const off = runMatch([P('p', { amountMinor: 25_050 })], [line], settings({ amountTolerance: '1' }))
    expect([...off.items].some((i) => i.outcome === 'suggested')).toBe(false)
    const far = runMatch([P('p', { amountMinor: 25_000, day: '2026-10-01' })], [line], settings())
    expect([...far.items].some((i) => i.outcome === 'suggested')).toBe(false)
  })

  it('keeps two different provider references apart even when they read alike', () => {
    const result = runMatch(
      [P('p1', { reference: 'AB-1234' }), P('p2', { reference: 'AB1234' })],
      [F({ id: 'f', reference: 'ab1234' })],
      settings()
    )
    expect([...result.items].some((i) => i.outcome === 'matched')).toBe(false)
    expect([...result.items].some((i) => i.outcome === 'duplicate_in_provider')).toBe(false)
  })

  it('finds a settlement line for several mobile-money payments net of fees, by day and channel, listing every member', () => {
    const provider = [
      P('m1', { channel: 'mobile_money', amountMinor: 100_000, feesMinor: 1_500, day: '2026-10-13' }),
      P('m2', { channel: 'mobile_money', amountMinor: 200_000, feesMinor: 3_000, day: '2026-10-13' }),
      P('m3', { channel: 'mobile_money', amountMinor: 50_000, feesMinor: 750, day: '2026-10-13' }),
      P('c1', { channel: 'card', amountMinor: 1_000, day: '2026-10-13' }),
      // Still pending that day: never part of a settlement, so the day's group is the three that moved.
      P('m4', { channel: 'mobile_money', amountMinor: 70_000, feesMinor: 1_050, day: '2026-10-13', status: 'pending' })
    ]
    const file = [F({ id: 'settle', amountMinor: 344_750, description: 'MOMO SETTLEMENT 13OCT', date: '2026-10-14' })]
    const result = runMatch(provider, file, settings({ netOfFees: true }))
    const group = [...result.items].find((i) => i.outcome === 'suggested')
    expect(group?.p.map((i) => result.provider[i]?.id).sort()).toEqual(['m1', 'm2', 'm3'])
    expect(group?.reasons).toEqual([
      'the line is the sum of 3 provider records, net of fees NGN 52.50 (all records of one day and channel)'
    ])
    // With no setting the same group is found, read net of fees per group, and its difference is nil.
    const unset = runMatch(provider, file, settings())
    const found = materialise(unset, folded, PERIOD).items.find((i) => i.outcome === 'suggested')
    expect(found?.provider.map((p) => p.id).sort()).toEqual(['m1', 'm2', 'm3'])
    expect(found?.netOfFees).toBe(true)
    expect(found?.differenceMinor).toBe(0)
    // A line of the gross sum is read gross: its reason says nothing of fees.
    const gross = runMatch(
      provider,
      [F({ id: 'gross', amountMinor: 350_000, description: 'MOMO SETTLEMENT', date: '2026-10-14' })],
      settings()
    )
    const grossItem = materialise(gross, folded, PERIOD).items.find((i) => i.outcome === 'suggested')
    expect(grossItem?.netOfFees).toBe(false)
    expect(grossItem?.reasons).toEqual(['the line is the sum of 3 provider records (all records of one day and channel)'])
  })

  it('matches a line equal to its record less the fees net of fees with no setting, and says so; the setting forces one reading', () => {
    const provider = [
      P('net', { reference: 'NET-0001', amountMinor: 100_000, feesMinor: 1_500 }),
      P('short', { reference: 'SHORT-0002', amountMinor: 200_000, feesMinor: 3_000 }),
      P('gross', { reference: 'GROSS-0003', amountMinor: 50_000, feesMinor: 750 })
    ]
    const file = [
      F({ id: 'f-net', reference: 'NET-0001', amountMinor: 98_500 }),
      F({ id: 'f-short', reference: 'SHORT-0002', amountMinor: 187_000 }),
      F({ id: 'f-gross', reference: 'GROSS-0003', amountMinor: 50_000 })
    ]
    const items = materialise(runMatch(provider, file, settings()), folded, PERIOD).items
    const of = (id: string): ReconItem => items.find((i) => i.provider[0]?.id === id) as ReconItem
    expect(of('net')).toMatchObject({ outcome: 'matched', netOfFees: true, differenceMinor: 0 })
    expect(of('net').reasons).toEqual(["the line's reference is the provider's reference", "same amount as the provider's net of its fees"])
    // Off by 100.00 from the net amount: read net (the nearer reading), in the accountant's words.
    expect(of('short')).toMatchObject({ outcome: 'amount_differs', netOfFees: true, differenceMinor: -10_000 })
    expect(of('short').reasons[1]).toBe("the file shows NGN 100.00 less than the provider's amount net of fees (NGN 30.00)")
    expect(of('gross')).toMatchObject({ outcome: 'matched', netOfFees: false, differenceMinor: 0 })
    // The totals foot item by item, each read as it was matched.
    const totals = summarise(items, { settings: settings(), periodTo: PERIOD.to }, [])
    expect(totals.currencies[0]?.unexplainedMinor).toBe(0)
    expect(totals.currencies[0]?.outcomes.amount_differs.differenceMinor).toBe(-10_000)
    // Forced net: the gross line now differs by its fee.
    const forced = materialise(runMatch(provider, file, settings({ netOfFees: true })), folded, PERIOD).items
    expect(forced.find((i) => i.provider[0]?.id === 'gross')).toMatchObject({ outcome: 'amount_differs', differenceMinor: 750 })
  })

  it('lets a line on the period’s first day settle a record from just before it, and leaves out records outside the period that no line claims', () => {
    const provider = [
      // The 30th: before an October period, read because the window reaches back five days.
      P('sep-30', { reference: 'R-0930', day: '2026-09-30', outsidePeriod: true }),
      P('sep-29', { reference: 'R-0929', day: '2026-09-29', outsidePeriod: true }),
      P('oct-01', { reference: 'R-1001', day: '2026-10-01' }),
      P('m1', { channel: 'mobile_money', amountMinor: 100_000, feesMinor: 1_500, day: '2026-09-30', outsidePeriod: true }),
      P('m2', { channel: 'mobile_money', amountMinor: 200_000, feesMinor: 3_000, day: '2026-09-30', outsidePeriod: true })
    ]
    const file = [
      F({ id: 'l1', reference: 'r-0930', date: '2026-10-01' }),
      F({ id: 'l2', reference: 'R-1001', date: '2026-10-01' }),
      F({ id: 'momo', amountMinor: 295_500, description: 'MOMO SETTLEMENT', date: '2026-10-01' })
    ]
    const result = runMatch(provider, file, settings({ netOfFees: true }))
    const by = outcomes(result)
    expect(by.get('sep-30')).toBe('matched')
    expect(by.get('l1')).toBe('matched')
    expect(by.get('oct-01')).toBe('matched')
    expect(by.get('m1')).toBe('suggested')
    expect(by.get('momo')).toBe('suggested')
    // The 29th's record is another period's: no item, counted as left out.
    expect(by.has('sep-29')).toBe(false)
    expect(result.leftOutOutsidePeriod).toBe(1)
    expect(
      materialise(result, folded, PERIOD)
        .items.find((i) => i.provider.some((p) => p.id === 'sep-30'))
        ?.reasons.at(-1)
    ).toBe("the provider's record R-0930 is dated 2026-09-30, outside the period: a line in the period settles it")
    // An in-period record with a reference the outside one shares keeps it; the outside one is no duplicate of this period.
    const shared = runMatch(
      [P('old', { reference: 'X-1', day: '2026-09-28', outsidePeriod: true }), P('new', { reference: 'X-1', day: '2026-10-02' })],
      [F({ id: 'x', reference: 'X-1', date: '2026-10-02' })],
      settings()
    )
    expect(outcomes(shared)).toEqual(
      new Map([
        ['new', 'matched'],
        ['x', 'matched']
      ])
    )
    expect(shared.leftOutOutsidePeriod).toBe(1)
  })

  it('finds a group by bounded subset search when no day-and-channel group sums to the line, and refuses an ambiguous one', () => {
    const provider = [
      P('a', { amountMinor: 1_000, day: '2026-10-01' }),
      P('b', { amountMinor: 2_500, day: '2026-10-02' }),
      P('c', { amountMinor: 7_000, day: '2026-10-03' })
    ]
    const one = runMatch(provider, [F({ id: 'l', amountMinor: 9_500, date: '2026-10-03' })], settings())
    expect([...one.items].find((i) => i.outcome === 'suggested')?.p.map((i) => one.provider[i]?.id)).toEqual(['b', 'c'])
    const tied = [
      P('a', { amountMinor: 1_000, day: '2026-10-01' }),
      P('b', { amountMinor: 2_000, day: '2026-10-02' }),
      P('c', { amountMinor: 3_000, day: '2026-10-03' }),
      P('d', { amountMinor: 4_000, day: '2026-10-02' })
    ]
    const two = runMatch(tied, [F({ id: 'l', amountMinor: 5_000, date: '2026-10-03' })], settings())
    expect(Object.fromEntries(outcomes(two))).toMatchObject({ l: 'ambiguous', a: 'only_in_provider', d: 'only_in_provider' })
  })

  it('matches one payout to the several debit lines it was paid in (N:1), and payouts as debits', () => {
    const provider = [
      P('T-1', { reference: 'PAYOUT-1', amountMinor: -90_000, day: '2026-10-05' }),
      P('T-2', { reference: 'PAYOUT-2', amountMinor: -10_000, day: '2026-10-05' })
    ]
    const file = [
      F({ id: 'd1', amountMinor: -50_000, date: '2026-10-05', description: 'OUTWARD 1/2' }),
      F({ id: 'd2', amountMinor: -40_000, date: '2026-10-06', description: 'OUTWARD 2/2' }),
      F({ id: 'd3', amountMinor: -10_000, reference: 'payout-2' })
    ]
    const result = runMatch(provider, file, settings())
    expect(Object.fromEntries(outcomes(result))).toEqual({
      'T-1': 'suggested',
      d1: 'suggested',
      d2: 'suggested',
      'T-2': 'matched',
      d3: 'matched'
    })
  })

  it('keeps currencies apart: the same amounts and names in two currencies pair within each', () => {
    const provider = [P('n', { currency: 'NGN', text: 'Kofi Mensah' }), P('g', { currency: 'GHS', text: 'Kofi Mensah' })]
    const file = [
      F({ id: 'fg', currency: 'GHS', description: 'KOFI MENSAH' }),
      F({ id: 'fn', currency: 'NGN', description: 'KOFI MENSAH' })
    ]
    const result = runMatch(provider, file, settings())
    const pairs = [...result.items].map((i) => [
      i.outcome,
      i.p.map((k) => result.provider[k]?.id).join(),
      i.f.map((k) => result.file[k]?.id).join()
    ])
    expect(pairs).toEqual(
      expect.arrayContaining([
        ['suggested', 'g', 'fg'],
        ['suggested', 'n', 'fn']
      ])
    )
  })

  it('gives a byte-identical report whatever the order of either side', () => {
    const provider = Array.from({ length: 60 }, (_, i) =>
      P(`p${i}`, {
        reference: i % 3 === 0 ? `REF-${i}` : null,
        amountMinor: 1_000 * (i % 7) + 500,
        day: `2026-10-${String(1 + (i % 20)).padStart(2, '0')}`,
        text: `Customer ${i % 11}`
      })
    )
    const file = Array.from({ length: 60 }, (_, i) =>
      F({
        id: `f${i}`,
        reference: i % 3 === 0 ? `ref-${i}` : null,
        amountMinor: 1_000 * (i % 7) + 500,
        date: `2026-10-${String(2 + (i % 20)).padStart(2, '0')}`,
        description: `CUSTOMER ${i % 11} PAYMENT`
      })
    )
    const base = reportBytes(runMatch(provider, file, settings()))
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 120, maxLength: 120 }), (keys) => {
        const shuffle = <T>(list: T[], offset: number): T[] =>
          list
            .map((v, i) => ({ v, k: keys[i + offset] as number }))
            .sort((a, b) => a.k - b.k)
            .map((x) => x.v)
        expect(reportBytes(runMatch(shuffle(provider, 0), shuffle(file, 60), settings()))).toBe(base)
      }),
      propertyRuns(25)
    )
  })

  it('foots: per currency, provider and file totals are the inputs, and outcomes account for the whole difference', () => {
    const provider = [
      P('a', { reference: 'R-1', amountMinor: 10_000, feesMinor: 150 }),
      P('b', { reference: 'R-2', amountMinor: 5_000, currency: 'GHS' }),
      P('c', { amountMinor: 777 }),
      P('x', { status: 'failed', amountMinor: 999 })
    ]
    const file = [
      F({ reference: 'R-1', amountMinor: 9_850 }),
      F({ reference: 'R-2', amountMinor: 4_000, currency: 'GHS' }),
      F({ amountMinor: -300, description: 'FEE' })
    ]
    const s = settings({ netOfFees: true })
    const result = runMatch(provider, file, s)
    const { currencies } = summarise(materialise(result, folded, PERIOD).items, { settings: s, periodTo: PERIOD.to }, [])
    const ngn = currencies.find((c) => c.currency === 'NGN')
    expect(ngn).toMatchObject({ providerTotalMinor: 9_850 + 777, fileTotalMinor: 9_850 - 300, unexplainedMinor: 0 })
    expect(ngn?.outcomes.only_in_provider).toMatchObject({ count: 1, differenceMinor: -777 })
    expect(currencies.find((c) => c.currency === 'GHS')).toMatchObject({
      providerTotalMinor: 5_000,
      fileTotalMinor: 4_000,
      unexplainedMinor: 0
    })
    expect(result.leftOutFailed).toBe(1)
  })

  it('holds the user’s decisions first and never suggests a dismissed pair again', () => {
    const provider = [P('p1', { text: 'Ngozi Umeh' }), P('p2', { amountMinor: 9_999 })]
    const file = [F({ id: 'f1', description: 'NGOZI UMEH' }), F({ id: 'f2', amountMinor: 9_000, description: 'CASH' })]
    const first = runMatch(provider, file, settings())
    expect(outcomes(first).get('p1')).toBe('suggested')
    const dismissed = runMatch(provider, file, settings(), { pinned: [], dismissed: new Set([pairKey(['p1'], ['f1'])]) })
    expect(outcomes(dismissed).get('p1')).toBe('only_in_provider')
    const manual = runMatch(provider, file, settings(), {
      pinned: [{ kind: 'manual', providerIds: ['p2'], fileIds: ['f2'] }],
      dismissed: new Set()
    })
    const item = [...manual.items].find((i) => i.decision === 'manual')
    expect(item).toMatchObject({ outcome: 'amount_differs', decision: 'manual' })
  })

  it('answers a search of the same amounts for another sum or tolerance as a search made afresh (searches are kept by what they asked)', () => {
    // Fourteen amounts (a search of a dozen or more is kept) whose sets each sum differently, each its own day and channel, all at the same distance.
    const amounts = Array.from({ length: 14 }, (_, i) => 10 * 2 ** i)
    const candidates = amounts.map((_, i) => i)
    const search = (target: number, tolerance: number): number[] | null =>
      findGroup(
        candidates,
        (i) => amounts[i] as number,
        target,
        tolerance,
        (i) => i,
        new GroupSums(amounts.length),
        () => 0,
        24
      )?.members.sort((a, b) => a - b) ?? null
    expect(search(10 + 20, 0)).toEqual([0, 1])
    expect(search(10 + 81_920, 0)).toEqual([0, 13])
    // One over 10 + 20: none within nothing, that pair within one.
    expect(search(31, 0)).toBeNull()
    expect(search(31, 1)).toEqual([0, 1])
    expect(search(10 + 20, 0)).toEqual([0, 1])
  })

  it('finds a pair among two candidates as the search among more finds it (the short way for two)', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.integer({ min: -5_000, max: 5_000 }), fc.integer({ min: -5_000, max: 5_000 })),
        fc.tuple(fc.nat(3), fc.nat(3)),
        // Mostly a sum near the pair's (either sign), sometimes any.
        fc.oneof(
          fc.integer({ min: -25, max: 25 }).map((near) => ({ near })),
          fc.integer({ min: -10_000, max: 10_000 }).map((any) => ({ any }))
        ),
        fc.boolean(),
        fc.nat(20),
        fc.integer({ min: 2, max: 24 }),
        (amounts, distances, asked, negative, tolerance, limit) => {
          const pair = Math.abs(amounts[0]) + Math.abs(amounts[1])
          const target = 'near' in asked ? (negative ? -1 : 1) * (pair + asked.near) : asked.any
          const amountOf = (i: number): number => amounts[i] as number
          const distanceOf = (i: number): number => distances[i] as number
          // Each its own day and channel: no whole group, so both ways come to the search.
          const found = findGroup([0, 1], amountOf, target, tolerance, (i) => i, new GroupSums(2), distanceOf, limit)
          const searched =
            Math.abs(amounts[0]) + Math.abs(amounts[1]) + tolerance < Math.abs(target)
              ? null
              : searchNearest([0, 1], amountOf, target, tolerance, distanceOf, limit, Math.max(...distances))
          expect(found).toEqual(searched)
        }
      ),
      propertyRuns(500)
    )
  })

  it('tells a rejected pair by its key exactly, whatever its ids hold and whatever else was rejected', () => {
    // Ids from a few letters and the characters pairKey joins ids with, so keys can be read more than one way.
    const id = fc.stringMatching(/^[ab|+]{1,3}$/)
    fc.assert(
      fc.property(
        fc.uniqueArray(id, { minLength: 1, maxLength: 5 }),
        fc.uniqueArray(id, { minLength: 1, maxLength: 5 }),
        // Rejected: sets of the records and lines by position (mostly pairs of one of each), and keys of other ids.
        fc.array(fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 2 }), fc.array(fc.nat(), { minLength: 1, maxLength: 2 })), {
          maxLength: 6
        }),
        fc.array(fc.tuple(fc.array(id, { minLength: 1, maxLength: 2 }), fc.array(id, { minLength: 1, maxLength: 2 })), { maxLength: 3 }),
        (records, lines, ours, others) => {
          const dismissed = new Set([
            ...ours.map(([ps, fs]) =>
              pairKey(
                ps.map((i) => records[i % records.length] as string),
                fs.map((i) => lines[i % lines.length] as string)
              )
            ),
            ...others.map(([ps, fs]) => pairKey(ps, fs))
          ])
          const state = new MatchState(
            records.map((r) => P(r)),
            lines.map((f) => F({ id: f })),
            settings(),
            { pinned: [], dismissed }
          )
          // Asked twice, in both orders: what is told once per line must not depend on which record asked first.
          for (const round of [0, 1])
            records.forEach((r, pi) =>
              lines.forEach((f, fi) => {
                const at = round === 0 ? fi : lines.length - 1 - fi
                expect(state.pairDismissed(pi, at), `${r} and ${lines[at]}`).toBe(dismissed.has(pairKey([r], [lines[at] as string])))
              })
            )
        }
      ),
      propertyRuns(300)
    )
  })
})

describe('matching as a job', () => {
  it('lets the event loop run between steps, and a cancel stops it at the next step', async () => {
    const provider = Array.from({ length: 150_000 }, (_, i) => P(`p${i}`, { reference: `R-${i}`, amountMinor: 100 + i }))
    const file = provider.map((p, i) => F({ id: `f${i}`, reference: p.reference, amountMinor: p.amountMinor }))
    let ticks = 0
    const timer = setInterval(() => ticks++, 0)
    const done = await runMatchAsync(provider, file, settings())
    clearInterval(timer)
    expect(done.items).toHaveLength(150_000)
    expect(ticks).toBeGreaterThan(0)
    const controller = new AbortController()
    setImmediate(() => controller.abort())
    await expect(runMatchAsync(provider, file, settings(), noDecisions, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError'
    })
  })
})

describe('matching property: injected differences come back exactly', () => {
  type Fate = 'match' | 'drop' | 'amount' | 'duplicate' | 'status'
  it('finds exactly what was injected into a file derived from random provider records', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            amount: fc.integer({ min: 100, max: 10_000_000 }),
            day: fc.integer({ min: 1, max: 28 }),
            fate: fc.constantFrom<Fate>('match', 'match', 'match', 'drop', 'amount', 'duplicate', 'status'),
            lower: fc.boolean()
          }),
          { minLength: 1, maxLength: 60 }
        ),
        fc.array(fc.integer({ min: 1, max: 5_000_000 }), { maxLength: 10 }),
        fc.array(fc.nat(), { minLength: 200, maxLength: 200 }),
        (records, extras, order) => {
          const provider: EngineProvider[] = []
          const file: EngineFileRow[] = []
          const expected = new Map<string, Outcome>()
          records.forEach((r, i) => {
            const day = `2026-10-${String(r.day).padStart(2, '0')}`
            const reference = `INV-${String(i).padStart(5, '0')}`
            const id = `p${i}`
            provider.push(P(id, { reference, amountMinor: r.amount, day, status: r.fate === 'status' ? 'failed' : 'successful' }))
            const row = (n: number, amountMinor = r.amount): EngineFileRow =>
              F({
                id: `f${i}-${n}`,
                reference: r.lower ? ` ${reference.toLowerCase()} ` : reference,
                amountMinor,
                date: day,
                description: 'CUSTOMER PAYMENT'
              })
            switch (r.fate) {
              case 'match':
                file.push(row(0))
                expected.set(id, 'matched')
                break
              case 'drop':
                expected.set(id, 'only_in_provider')
                break
              case 'amount':
                file.push(row(0, r.amount + 1))
                expected.set(id, 'amount_differs')
                break
              case 'duplicate':
                file.push(row(0), row(1))
                expected.set(id, 'matched')
                expected.set(`f${i}-1`, 'duplicate_in_file')
                break
              case 'status':
                file.push(row(0))
                expected.set(id, 'status_differs')
                break
            }
          })
          // Money out that nothing at the provider explains.
          extras.forEach((amount, k) => {
            file.push(F({ id: `x${k}`, amountMinor: -amount, description: `BANK CHARGE ${k}` }))
            expected.set(`x${k}`, 'only_in_file')
          })
          const shuffled = file
            .map((f, i) => ({ f, k: order[i % order.length] as number }))
            .sort((a, b) => a.k - b.k)
            .map((x) => x.f)
          const got = outcomes(runMatch(provider, shuffled, settings()))
          for (const [id, outcome] of expected) expect(got.get(id), id).toBe(outcome)
          const unexpected = [...got].filter(
            ([id, o]) => o !== 'matched' && o !== 'amount_differs' && o !== 'status_differs' && !expected.has(id)
          )
          expect(unexpected).toEqual([])
        }
      ),
      propertyRuns(60)
    )
  })
})

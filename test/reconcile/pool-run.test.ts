// Reject, match, unmatch and undo applied by matching the open pool again, not the session: each leaves what a full run leaves, and each case the keys could decide otherwise is run instead.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { RuleStore } from '../../src/main/reconcile/rules/store'
import { ReconContext } from '../../src/main/reconcile/context'
import { POOL_OUTCOMES, SessionItems } from '../../src/main/reconcile/items'
import type { ReconService } from '../../src/main/reconcile/service'
import type { ReconItem, SessionInfo } from '../../src/shared/reconcile'
import { scenarioService, scenarioSession, sessionShown } from '../support/recon-session'

const ADA = { name: 'Ada Obi', email: 'ada@example.com' }

function statement(lines: string[]): string {
  return ['Account number,0123456789', 'Currency,NGN', 'Date,Reference,Description,Amount', ...lines].join('\n')
}

function runs(service: ReconService, sessionId: string): number {
  return service.events(sessionId).filter((e) => e.kind === 'run').length
}

/** Takes a decision and says whether it was applied in place, having checked it left what a full run leaves. */
async function decided(service: ReconService, session: SessionInfo, decision: Parameters<ReconService['decide']>[1]): Promise<boolean> {
  const before = runs(service, session.id)
  const { inPlace } = await service.decide(session.id, decision)
  expect(runs(service, session.id)).toBe(inPlace ? before : before + 1)
  const kept = sessionShown(service, session.id)
  await service.run(session.id)
  expect(sessionShown(service, session.id)).toBe(kept)
  return inPlace
}

function itemOf(service: ReconService, sessionId: string, test: (i: ReconItem) => boolean): ReconItem {
  const found = [...service.allItems(sessionId)].find(test)
  if (!found) throw new Error('no such item')
  return found
}

describe('the open pool matched again', () => {
  it('unmatches a match by key in place: the record and the line wait alone, as a run leaves them', async () => {
    const service = scenarioService([
      { n: 1, amount: 1000, day: '2026-10-03' },
      { n: 2, amount: 2500, day: '2026-10-04', customer: ADA }
    ])
    const session = await scenarioSession(
      service,
      statement(['2026-10-03,PAY-0001,CARD,1000.00', '2026-10-04,,NIP TRF FROM ADA OBI,2500.00', '2026-10-20,,SMS ALERT CHARGES,-52.50']),
      { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' }
    )
    const keyed = itemOf(service, session.id, (i) => i.provider[0]?.reference === 'PAY-0001')
    expect(await decided(service, session, { kind: 'unmatch', itemKey: keyed.key })).toBe(true)
    expect(service.totals(session.id).counts).toMatchObject({ only_in_provider: 1, only_in_file: 2, suggested: 1 })
    // And back: the pair is a pair of keys again, made as the keys make it, in place (its line names no other record).
    expect(await decided(service, session, { kind: 'undo' })).toBe(true)
    expect(itemOf(service, session.id, (i) => i.provider[0]?.reference === 'PAY-0001').outcome).toBe('matched')
  })

  it('frees a line in place when no record holds the number in its text, or only the one it was unmatched from, and makes the pair of keys again in place', async () => {
    const service = scenarioService([
      { n: 1, amount: 2500, day: '2026-10-04', customer: ADA },
      { n: 2, amount: 900, day: '2026-10-09' }
    ])
    const session = await scenarioSession(
      service,
      statement(['2026-10-04,,NIP TRF FROM ADA OBI 7731904,2500.00', '2026-10-10,,TRANSFER FROM ADA PAY-0002,2500.00']),
      { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' }
    )
    const suggestion = itemOf(service, session.id, (i) => i.outcome === 'suggested')
    expect(await decided(service, session, { kind: 'accept', itemKey: suggestion.key })).toBe(true)
    const accepted = itemOf(service, session.id, (i) => i.decision === 'accepted')
    // 7731904 is no record's key: the freed line cannot be matched by one.
    expect(await decided(service, session, { kind: 'unmatch', itemKey: accepted.key })).toBe(true)
    // A line that names PAY-0002 in its text, unmatched from it, matched to Ada's payment by hand and freed again: the one
    // record its key names is the one it was unmatched from, so the keys leave it open, and the pool takes it.
    const named = itemOf(service, session.id, (i) => i.file[0]?.description === 'TRANSFER FROM ADA PAY-0002')
    expect(named.outcome).toBe('amount_differs')
    expect(await decided(service, session, { kind: 'unmatch', itemKey: named.key })).toBe(true)
    const line = named.file[0]?.id as string
    expect(await decided(service, session, { kind: 'match', providerIds: ['id-1'], fileIds: [line] })).toBe(true)
    expect(await decided(service, session, { kind: 'undo' })).toBe(true)
    // Undoing the unmatch makes them a pair of keys again, made in place as the keys make it (the text's key is the record's own).
    expect(await decided(service, session, { kind: 'undo' })).toBe(true)
    expect(itemOf(service, session.id, (i) => i.file[0]?.id === line).outcome).toBe('amount_differs')
  })

  it('pairs the freed record with the one other line naming it by its reference, in place, as the keys do; undone, the keys choose between the two again, in place too', async () => {
    const service = scenarioService([{ n: 1, amount: 1000, day: '2026-10-03' }])
    const session = await scenarioSession(
      service,
      statement(['2026-10-03,PAY-0001,CARD,1000.00', '2026-10-05,PAY-0001,CARD AGAIN,1000.00']),
      { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' }
    )
    expect(service.totals(session.id).counts).toMatchObject({ matched: 1, duplicate_in_file: 1 })
    const keyed = itemOf(service, session.id, (i) => i.outcome === 'matched')
    // The duplicate is the only line naming the record now: the keys pair them, and the first line joins the open pool.
    expect(await decided(service, session, { kind: 'unmatch', itemKey: keyed.key })).toBe(true)
    const now = itemOf(service, session.id, (i) => i.outcome === 'matched')
    expect(now.file[0]?.description).toBe('CARD AGAIN')
    // Undone, both lines name the record: the keys choose the nearer (the first), the other a duplicate again, as a run says.
    expect(await decided(service, session, { kind: 'undo' })).toBe(true)
    expect(itemOf(service, session.id, (i) => i.outcome === 'matched').file[0]?.description).toBe('CARD')
    expect(itemOf(service, session.id, (i) => i.outcome === 'duplicate_in_file').file[0]?.description).toBe('CARD AGAIN')
    expect(service.totals(session.id).counts).toMatchObject({ matched: 1, duplicate_in_file: 1, only_in_file: 0 })
  })

  it('rejects, matches by hand and undoes in place, one after another, as a run would', async () => {
    const service = scenarioService([
      { n: 1, amount: 2500, day: '2026-10-04', customer: ADA },
      { n: 2, amount: 400, day: '2026-10-06' },
      { n: 3, amount: 600, day: '2026-10-06' }
    ])
    const session = await scenarioSession(
      service,
      statement(['2026-10-04,,NIP TRF FROM ADA OBI,2500.00', '2026-10-07,,SETTLEMENT,1000.00', '2026-10-25,,POS PURCHASE,2500.00']),
      { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' }
    )
    const ada = itemOf(service, session.id, (i) => i.outcome === 'suggested' && i.provider.length === 1)
    expect(await decided(service, session, { kind: 'reject', itemKey: ada.key })).toBe(true)
    // Rejected, the pair is never offered again: the record and the line wait alone.
    expect(service.totals(session.id).counts).toMatchObject({ only_in_provider: 1 })
    const line = itemOf(service, session.id, (i) => i.file[0]?.description === 'POS PURCHASE').file[0]?.id as string
    expect(await decided(service, session, { kind: 'match', providerIds: ['id-1'], fileIds: [line] })).toBe(true)
    expect(itemOf(service, session.id, (i) => i.decision === 'manual').file[0]?.id).toBe(line)
    const group = itemOf(service, session.id, (i) => i.provider.length === 2)
    expect(await decided(service, session, { kind: 'reject', itemKey: group.key })).toBe(true)
    // Three undos: the group, the match and the first rejection come back.
    for (let k = 0; k < 3; k++) expect(await decided(service, session, { kind: 'undo' })).toBe(true)
    expect(service.totals(session.id).counts).toMatchObject({ suggested: 2, only_in_file: 1 })
  })

  it('keeps the records from just outside the period that no line claims, and gives them back to the pool', async () => {
    const service = scenarioService([
      { n: 1, amount: 700, day: '2026-09-29', customer: ADA },
      { n: 2, amount: 700, day: '2026-10-02', customer: ADA }
    ])
    // The line of the 2nd is Ada's payment of the 2nd; rejected, the one of the 29th (within the window's reach) is offered instead.
    const session = await scenarioSession(service, statement(['2026-10-02,,NIP TRF FROM ADA OBI,700.00']), {
      name: 'october.csv',
      from: '2026-10-01',
      to: '2026-10-31'
    })
    const first = itemOf(service, session.id, (i) => i.outcome === 'suggested')
    expect(first.provider[0]?.id).toBe('id-2')
    expect(await decided(service, session, { kind: 'reject', itemKey: first.key })).toBe(true)
    const second = itemOf(service, session.id, (i) => i.outcome === 'suggested')
    expect(second.provider[0]).toMatchObject({ id: 'id-1', date: '2026-09-29' })
    expect(await decided(service, session, { kind: 'reject', itemKey: second.key })).toBe(true)
    // Rejected too, the record of the 29th is another period's again: no item holds it.
    expect([...service.allItems(session.id)].flatMap((i) => i.provider.map((p) => p.id))).toEqual(['id-2'])
  })

  it('gives the lines it leaves open the enabled rules, as a run would; with a pairing rule too, which counts every free record', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-pool-')), 'cache.sqlite')
    const service = scenarioService([{ n: 1, amount: 2500, day: '2026-10-04', customer: ADA }], file)
    const session = await scenarioSession(service, statement(['2026-10-04,,NIP TRF FROM ADA OBI,2500.00']), {
      name: 'october.csv',
      from: '2026-10-01',
      to: '2026-10-31'
    })
    const db = openCache(file)
    const rules = new RuleStore(db, { user: 'ada' })
    rules.save('test', {
      name: 'transfers-left-out',
      description: 'Transfers from Ada are hers to explain',
      match: 'all',
      conditions: [{ field: 'description', operator: 'contains', value: 'ADA OBI' }],
      action: { type: 'leave_out', reason: 'personal' }
    })
    rules.setEnabled('test', 'transfers-left-out', true)
    const suggestion = itemOf(service, session.id, (i) => i.outcome === 'suggested')
    expect(await decided(service, session, { kind: 'reject', itemKey: suggestion.key })).toBe(true)
    expect(itemOf(service, session.id, (i) => i.outcome === 'only_in_file')).toMatchObject({ resolved: true, reasonCode: 'left_out' })
    // Undone (the rule's leaving out, then the rejection), the pair is suggested again; with a pairing rule enabled too, a
    // reject is made in place (the line was decided by a rule once: no rule decides it again).
    await service.decide(session.id, { kind: 'undo' })
    await service.decide(session.id, { kind: 'undo' })
    rules.save('test', {
      name: 'transfers-by-name',
      match: 'all',
      conditions: [{ field: 'description', operator: 'starts_with', value: 'NIP TRF FROM' }],
      action: { type: 'pair', with: 'customer', pattern: 'NIP TRF FROM (.+)$' }
    })
    rules.setEnabled('test', 'transfers-by-name', true)
    db.close()
    const again = itemOf(service, session.id, (i) => i.outcome === 'suggested')
    expect(await decided(service, session, { kind: 'reject', itemKey: again.key })).toBe(true)
  })

  it('finds what is open near an accepted item by its amount through the indexes of what is open, not by reading every open item', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-pool-')), 'cache.sqlite')
    const service = scenarioService(
      [
        { n: 1, amount: 1000, day: '2026-10-03' },
        { n: 2, amount: 2500, day: '2026-10-04', customer: ADA },
        { n: 3, amount: 2500, day: '2026-10-12' },
        { n: 4, amount: 7000, day: '2026-10-20', fees: 100 }
      ],
      file
    )
    const session = await scenarioSession(
      service,
      statement(['2026-10-04,,NIP TRF FROM ADA OBI,2500.00', '2026-10-06,,POS PURCHASE,2500.00', '2026-10-21,,TRANSFER,6900.00']),
      { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' }
    )
    const db = openCache(file)
    const asked: string[] = []
    const prepare = db.prepare.bind(db)
    db.prepare = ((sql: string) => {
      asked.push(sql)
      return prepare(sql)
    }) as typeof db.prepare
    const items = new SessionItems(new ReconContext(db))
    const open = [...service.allItems(session.id)].filter((i) => (POOL_OUTCOMES as readonly string[]).includes(i.outcome))
    const near = (low: number, high: number, netFeesUpTo: number | null): string[] =>
      [...items.openNear(session.id, 'none', { currency: 'NGN', fromDay: '2026-10-01', toDay: '2026-10-31', low, high, netFeesUpTo })]
        .map((i) => i.key)
        .sort()
    const holding = (test: (minor: number, fees: number) => boolean): string[] =>
      open
        .filter((i) => i.file.some((f) => test(f.amountMinor, 0)) || i.provider.some((p) => test(p.amountMinor, p.feesMinor)))
        .map((i) => i.key)
        .sort()
    expect(open.length).toBeGreaterThan(2)
    // Every open item holding 2,500.00 on either side, and nothing else.
    expect(near(250_000, 250_000, null)).toEqual(holding((minor) => minor === 250_000))
    // 6,900.00 is the 7,000.00 record net of its fee: found only when net readings are asked for.
    expect(near(690_000, 690_000, null)).toEqual(holding((minor) => minor === 690_000))
    expect(near(690_000, 690_000, 100_000)).toEqual(holding((minor, fees) => minor === 690_000 || minor - fees === 690_000))
    expect(near(690_000, 690_000, 100_000)).toContain(open.find((i) => i.provider[0]?.id === 'id-4')?.key)
    // Each by-amount query is answered from its index (schema v19), not by a scan of the open items.
    const byAmount = asked.filter((sql) => /(file|provider)_minor between/.test(sql))
    expect(byAmount.length).toBeGreaterThanOrEqual(2)
    for (const sql of byAmount) {
      const plan = (prepare(`explain query plan ${sql}`).all(...Array.from(sql.matchAll(/\?/g), () => 0)) as { detail: string }[])
        .map((r) => r.detail)
        .join('; ')
      expect(plan, sql).toMatch(
        /USING INDEX recon_items_open_by_(file|provider)_minor \(session_id=\? AND currency=\? AND (file|provider)_minor>\? AND (file|provider)_minor<\?\)/
      )
    }
    db.close()
  })

  it("reads every record alone on the statement's basis again when a decision turns it (net of fees or gross), in place", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-pool-')), 'cache.sqlite')
    const service = scenarioService(
      [
        { n: 1, amount: 1000, day: '2026-10-03', fees: 15 },
        { n: 2, amount: 1000, day: '2026-10-05', fees: 15 },
        { n: 3, amount: 500, day: '2026-10-07', fees: 10 }
      ],
      file
    )
    // One pair net of its fees, one gross: a tie, so the statement is read gross, and the record alone expects 500.00.
    const session = await scenarioSession(service, statement(['2026-10-03,PAY-0001,CARD,985.00', '2026-10-05,PAY-0002,CARD,1000.00']), {
      name: 'october.csv',
      from: '2026-10-01',
      to: '2026-10-31'
    })
    const alone = () => itemOf(service, session.id, (i) => i.provider.some((p) => p.id === 'id-3'))
    expect(alone()).toMatchObject({ outcome: 'only_in_provider', netOfFees: false, differenceMinor: -50_000 })
    // The gross pair unmatched, the net one is all that is left: the statement is read net, and so is every record alone.
    const gross = itemOf(service, session.id, (i) => i.provider.some((p) => p.id === 'id-2') && i.file.length > 0)
    expect(await decided(service, session, { kind: 'unmatch', itemKey: gross.key })).toBe(true)
    expect(alone()).toMatchObject({ netOfFees: true, differenceMinor: -49_000 })
    expect(itemOf(service, session.id, (i) => i.provider.some((p) => p.id === 'id-2') && i.file.length === 0)).toMatchObject({
      netOfFees: true,
      differenceMinor: -98_500
    })
    // Undone, it turns back, in place too.
    expect(await decided(service, session, { kind: 'undo' })).toBe(true)
    expect(alone()).toMatchObject({ netOfFees: false, differenceMinor: -50_000 })
  })

  it('unmatches a group the keys made of a line naming several references in its words: apart for good, in place; undone, the keys make it again, in place too', async () => {
    const service = scenarioService([
      { n: 1, amount: 100, day: '2026-10-03' },
      { n: 2, amount: 250, day: '2026-10-04' }
    ])
    const session = await scenarioSession(service, statement(['2026-10-05,,SETTLEMENT PAY-0001 PAY-0002,350.00']), {
      name: 'october.csv',
      from: '2026-10-01',
      to: '2026-10-31'
    })
    const group = itemOf(service, session.id, (i) => i.provider.length === 2)
    expect(group).toMatchObject({ outcome: 'matched', decision: null })
    // A run made the group again, whatever the user said (the keys did not read the unmatch): now it stays apart.
    expect(await decided(service, session, { kind: 'unmatch', itemKey: group.key })).toBe(true)
    expect(service.totals(session.id).counts).toMatchObject({ matched: 0, only_in_provider: 2, only_in_file: 1, suggested: 0 })
    expect(await decided(service, session, { kind: 'undo' })).toBe(true)
    expect(itemOf(service, session.id, (i) => i.provider.length === 2)).toMatchObject({ outcome: 'matched', decision: null })
    expect(service.totals(session.id).counts).toMatchObject({ matched: 1, only_in_provider: 0, only_in_file: 0 })
  })

  it('matches by hand a line the keys made a duplicate, in place: the record keeps its first line, as the keys keep it; undone in place too', async () => {
    const service = scenarioService([
      { n: 1, amount: 1000, day: '2026-10-03' },
      { n: 2, amount: 1000, day: '2026-10-05' }
    ])
    const session = await scenarioSession(
      service,
      statement(['2026-10-03,PAY-0001,CARD,1000.00', '2026-10-05,PAY-0001,CARD AGAIN,1000.00']),
      { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' }
    )
    const again = itemOf(service, session.id, (i) => i.outcome === 'duplicate_in_file')
    const alone = itemOf(service, session.id, (i) => i.outcome === 'only_in_provider')
    const decision = { kind: 'match' as const, providerIds: [alone.provider[0]?.id as string], fileIds: [again.file[0]?.id as string] }
    expect(await decided(service, session, decision)).toBe(true)
    expect(service.totals(session.id).counts).toMatchObject({ matched: 2, duplicate_in_file: 0, only_in_provider: 0 })
    // Undone, the freed line names the record its first line holds: the keys settle the two again (the nearer keeps it), in place.
    expect(await decided(service, session, { kind: 'undo' })).toBe(true)
    expect(itemOf(service, session.id, (i) => i.outcome === 'duplicate_in_file').file[0]?.description).toBe('CARD AGAIN')
    expect(service.totals(session.id).counts).toMatchObject({ matched: 1, duplicate_in_file: 1, only_in_provider: 1 })
  })
})

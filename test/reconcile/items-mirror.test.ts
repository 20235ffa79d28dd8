// The open pool kept in memory between decisions (items.ts's mirror) stands for the table only while nothing else changed it: a decision made through another connection, or a change rolled back, is read again, and the decision after it still leaves the session as a full run makes it; so with the run's record keys, read again when a run stored them anew.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { ReconContext } from '../../src/main/reconcile/context'
import { SessionItems } from '../../src/main/reconcile/items'
import { keyFilter, mayHoldKey } from '../../src/main/reconcile/key-filter'
import { ReconService } from '../../src/main/reconcile/service'
import type { ReconItem } from '../../src/shared/reconcile'
import { balancedStatement, scenarioService, scenarioSession, sessionShown } from '../support/recon-session'

const WHO = ['ADA OBI', 'TUNDE ADE', 'CHIDI OKAFOR', 'NGOZI EZE', 'BISI ALADE']

/** Five payments the statement names by their payers only (five suggestions), and a line no record matches. */
function month(dir: string): { file: string; csv: string } {
  const file = join(dir, 'cache.sqlite')
  scenarioService(
    WHO.map((name, k) => ({
      n: k + 1,
      amount: 1000 + 250 * k,
      day: `2026-10-0${k + 3}`,
      customer: { name: name.toLowerCase(), email: `p${k}@example.com` }
    })),
    file
  )
  const lines = WHO.map((name, k) => `2026-10-0${k + 3},,NIP TRF FROM ${name},${1000 + 250 * k}.00`)
  lines.push('2026-10-20,,INTEREST PAID,3.10')
  const csv = balancedStatement(lines)
  return { file, csv }
}

function suggestions(service: ReconService, sessionId: string): ReconItem[] {
  return [...service.allItems(sessionId)].filter((i) => i.outcome === 'suggested')
}

describe('the open pool kept between decisions', () => {
  let dir = ''
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('is read again after another connection decided, and the next decision is as a full run makes it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledgerline-mirror-'))
    const { file, csv } = month(dir)
    const here = new ReconService(openCache(file), { user: 'ada' })
    const session = await scenarioSession(here, csv, { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' })
    expect(suggestions(here, session.id)).toHaveLength(5)
    await here.decide(session.id, { kind: 'reject', itemKey: (suggestions(here, session.id)[0] as ReconItem).key })

    // Another process (a second connection to the same file) rejects another suggestion.
    const there = new ReconService(openCache(file), { user: 'bob' })
    const second = suggestions(there, session.id)[0] as ReconItem
    expect((await there.decide(session.id, { kind: 'reject', itemKey: second.key })).inPlace).toBe(true)

    // This one decides next, on what the other changed (it takes the other's rejection back): its pool must be the
    // table's as the other left it, not the one it kept.
    expect((await here.decide(session.id, { kind: 'undo' })).inPlace).toBe(true)
    const decided = sessionShown(here, session.id)
    expect(decided).toContain(`"key":"${second.key}"`)
    await here.run(session.id)
    expect(sessionShown(here, session.id)).toBe(decided)
  })

  it('is read again after a change made through it was rolled back', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledgerline-mirror-'))
    const { file, csv } = month(dir)
    const db = openCache(file)
    const service = new ReconService(db, { user: 'ada' })
    const session = await scenarioSession(service, csv, { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' })
    await service.decide(session.id, { kind: 'reject', itemKey: (suggestions(service, session.id)[0] as ReconItem).key })

    const items = new SessionItems(new ReconContext(db))
    const pool = (): string[] => [...items.mirrored(session.id).items.keys()].sort()
    const before = pool()
    const [first] = items.mirrored(session.id).items.values()
    const summary = items.storedSummary(session.id)
    expect(first && summary).toBeTruthy()
    expect(() =>
      db.transaction(() => {
        items.remove(session.id, first?.position as number)
        items.storeTotals(session.id, summary?.settings as never, summary?.totals as never)
        expect(pool()).not.toContain(first?.item.key)
        throw new Error('the transaction fails after the change')
      })()
    ).toThrow('the transaction fails')
    expect(pool()).toEqual(before)

    await service.decide(session.id, { kind: 'reject', itemKey: (suggestions(service, session.id)[0] as ReconItem).key })
    const decided = sessionShown(service, session.id)
    await service.run(session.id)
    expect(sessionShown(service, session.id)).toBe(decided)
  })

  it('reads the run’s record keys again when a run (here, another connection) stored them anew', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledgerline-mirror-'))
    const { file, csv } = month(dir)
    const db = openCache(file)
    const session = await scenarioSession(new ReconService(db, { user: 'ada' }), csv, {
      name: 'october.csv',
      from: '2026-10-01',
      to: '2026-10-31'
    })
    const items = new SessionItems(new ReconContext(db))
    const kept = items.recordKeys(session.id)
    expect(kept && [...kept.twice]).toEqual([])
    expect(items.recordKeys(session.id)).toBe(kept)
    new SessionItems(new ReconContext(openCache(file))).storeRecordKeys(session.id, keyFilter(['INV-9']), ['INV9'])
    const read = items.recordKeys(session.id)
    expect(read && [...read.twice]).toEqual(['INV9'])
    expect(read && mayHoldKey(read.filter, 'INV-9')).toBe(true)
  })
})

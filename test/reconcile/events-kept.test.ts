// A session's events kept between decisions (audit.ts sessionEventsKept): always what reading them all gives, through events added, and through a history cut back and written again (a restored cache, a transaction rolled back).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { sessionEvents, sessionEventsKept } from '../../src/main/reconcile/audit'
import { balancedStatement, scenarioService, scenarioSession } from '../support/recon-session'

describe("a session's events kept between decisions", () => {
  it('are what reading them all gives, after events are added and after the history is cut back and written again', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-events-kept-')), 'cache.sqlite')
    const service = scenarioService([{ n: 1, amount: 100, day: '2026-10-10' }], file)
    const session = await scenarioSession(service, balancedStatement(['2026-10-10,PAY-0001,CARD,100.00', '2026-10-12,,SMS ALERT,-5.00']), {
      name: 'october.csv',
      from: '2026-10-01',
      to: '2026-10-31'
    })
    const db = openCache(file)
    const same = (): void => expect(sessionEventsKept(db, session.id)).toEqual(sessionEvents(db, session.id))
    same()
    const key = [...service.allItems(session.id)][0]?.key as string
    await service.decide(session.id, { kind: 'note', itemKey: key, note: 'first' })
    await service.decide(session.id, { kind: 'note', itemKey: key, note: 'second' })
    same()
    // The last event gone (a cache restored from before it): read again whole, then the next one written in its place.
    db.prepare('delete from recon_events where session_id = ? and seq = (select max(seq) from recon_events where session_id = ?)').run(
      session.id,
      session.id
    )
    same()
    db.prepare('update recon_sessions set event_count = event_count - 1 where id = ?').run(session.id)
    await service.decide(session.id, { kind: 'note', itemKey: key, note: 'third' })
    same()
    expect(sessionEventsKept(db, session.id).at(-1)).toMatchObject({ kind: 'note', payload: { note: 'third' } })
    db.close()
  })
})

// A session shared and worked by members on their own computers (each its own cache), against a real PostgreSQL through a proxy that can cut the network: every member replays byte-identical items, decisions travel through the outbox, two preparers on one item get one win and one conflict, decisions made offline are sent on reconnect, a client killed mid-push loses and doubles nothing, and a history rewritten on the server is refused.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { ReconService } from '../../src/main/reconcile/service'
import { runCli, startCli, type CliRun } from '../support/cli'
import { scenarioService, scenarioSession } from '../support/recon-session'
import { firmWorkspace } from '../support/firm-workspace'
import { startPostgres, type TestPostgres } from '../support/postgres'
import { startProxy, type TcpProxy } from '../support/tcp-proxy'

let server: TestPostgres
let proxy: TcpProxy
const home = mkdtempSync(join(tmpdir(), 'ledgerline-team-replicas-'))
const PASSWORDS: Record<string, string> = { owner: 'o pass', alice: 'a pass', erin: 'e pass', bob: 'b pass' }
const cache = (login: string): string => join(home, `${login}.sqlite`)
const url = (login: string): string => `postgres://${login}@127.0.0.1:${proxy.port}/postgres`

const as = (login: string, ...args: string[]): Promise<CliRun> =>
  runCli([...args, '--server', url(login), '--db', cache(login)], {
    PGPASSWORD: PASSWORDS[login] ?? '',
    HOME: home,
    PGPASSFILE: join(home, 'none')
  })

/** A member's replayed session as its cache holds it: the items, exactly. */
function itemsOf(login: string): { sessionId: string; items: string } {
  const db = openCache(cache(login))
  try {
    const row = db.prepare('select session_id from team_replicas').get() as { session_id: string }
    const items = [...new ReconService(db).allItems(row.session_id)]
    return { sessionId: row.session_id, items: JSON.stringify(items) }
  } finally {
    db.close()
  }
}

function cacheRows(login: string, sql: string): unknown[] {
  const db = openCache(cache(login))
  try {
    return db.prepare(sql).all()
  } finally {
    db.close()
  }
}

let shared = ''
/** Forty payments, each with a statement line of its amount and no reference (forty suggestions), and one line that cannot be read. */
const PAYMENTS = Array.from({ length: 40 }, (_, i) => ({ n: i + 1, amount: 1000 + i, day: '2026-10-02' }))
const suggestion = (n: number): string => {
  const items = JSON.parse(itemsOf('bob').items) as { key: string; provider: { id: string }[] }[]
  return (items.find((i) => i.provider[0]?.id === `id-${n}`) as { key: string }).key
}

beforeAll(async () => {
  server = await startPostgres()
  proxy = await startProxy(server.port)
  await firmWorkspace(server, PASSWORDS, as)
  // Alice's own cache: the session reconciled there, one suggestion accepted before she shares it.
  const service = scenarioService(PAYMENTS, cache('alice'))
  const csv = ['Date,Reference,Amount', ...PAYMENTS.map((p) => `2026-10-02,,${p.amount}.00`), 'bad,row,zz'].join('\n') + '\n'
  // Its statement states no account: Alice names it, and every replay is of that account.
  const local = await scenarioSession(service, csv, { name: 'october.csv', from: '2026-10-01', to: '2026-10-31', account: 'GTB current' })
  const first = [...service.allItems(local.id)].find((i) => i.provider[0]?.id === 'id-1')
  await service.decide(local.id, { kind: 'accept', itemKey: first?.key as string })
  shared = local.id
  const share = await as('alice', 'team', 'share', '--session', shared)
  expect(share.stderr).toBe('')
  expect(share.code).toBe(0)
}, 180_000)

afterAll(async () => {
  await proxy?.close()
  await server?.stop()
})

describe('members replaying a shared session', () => {
  it('opens it on every member computer with byte-identical items, the decisions made before sharing included', async () => {
    for (const login of ['bob', 'erin', 'alice']) {
      const sync = await as(login, 'team', 'sync')
      expect(sync.code).toBe(0)
      expect(sync.stdout).toMatch(new RegExp(`${shared} {2}October: opened on this computer \\(1 event\\(s\\)\\); OPEN`))
    }
    const bob = itemsOf('bob')
    expect(itemsOf('erin').items).toBe(bob.items)
    expect(itemsOf('alice').items).toBe(bob.items)
    const items = JSON.parse(bob.items) as { outcome: string; provider: { id: string }[]; decidedBy: string | null }[]
    expect(items.find((i) => i.provider[0]?.id === 'id-1')).toMatchObject({ outcome: 'matched', decidedBy: 'alice (before sharing)' })
    expect(items.filter((i) => i.outcome === 'suggested')).toHaveLength(39)
    expect(items.filter((i) => i.outcome === 'not_read')).toHaveLength(1)
    // Of the account Alice named, on every computer: its periods chain there as they do on hers.
    for (const login of ['bob', 'erin'])
      expect(cacheRows(login, 'select account_named from recon_sessions')).toEqual([{ account_named: 'GTB current' }])
    // A reviewer needs no API key: the provider records came with the session.
    expect(cacheRows('bob', 'select count(*) as n from payments')).toEqual([{ n: 0 }])
    // Decided through the workspace only.
    const local = await runCli(['decide', '--db', cache('bob'), '--session', bob.sessionId, '--item', suggestion(2), 'accept'], {
      HOME: home
    })
    expect(local.code).toBe(2)
    expect(local.stderr).toMatch(/shared in a team workspace: it changes only through the workspace .* \[team_session\]/)
  }, 120_000)

  it('sends a decision and every member sees it with its author; a reviewer only comments', async () => {
    const key = suggestion(2)
    const decided = await as('alice', 'decide', '--session', shared, '--item', key, 'accept')
    expect(decided.stderr).toBe('')
    expect(decided.stdout).toMatch(
      new RegExp(`^Decided \\(accept\\) item ${key.replace(/[|+]/g, '\\$&')} in session ${shared}; the session is at event 2\\.\\n$`)
    )
    expect((await as('bob', 'team', 'sync')).stdout).toMatch(/1 new event\(s\)/)
    const seen = (JSON.parse(itemsOf('bob').items) as { key: string; outcome: string; decidedBy: string }[]).find((i) => i.key === key)
    expect(seen).toMatchObject({ outcome: 'matched', decidedBy: 'alice' })
    const byReviewer = await as('bob', 'decide', '--session', shared, '--item', suggestion(3), 'accept')
    expect(byReviewer.code).toBe(2)
    expect(byReviewer.stderr).toMatch(/bob is a reviewer: only preparers decide \(a reviewer comments with a note\) \[team_role_refused\]/)
    // The refusal is kept as a conflict on the item in bob's cache.
    expect(cacheRows('bob', 'select code, item_key from team_conflicts')).toEqual([{ code: 'team_role_refused', item_key: suggestion(3) }])
    expect((await as('bob', 'decide', '--session', shared, '--item', suggestion(3), 'note', 'Check the fee on this one')).code).toBe(0)
  }, 120_000)

  it('applies pulled decisions in place (a rejection, an unmatch and an undo too), as local ones are, with the items and totals a full run of the same events makes', async () => {
    const runs = (): number => (cacheRows('bob', "select count(*) as n from recon_events where kind = 'run'")[0] as { n: number }).n
    const before = runs()
    for (const [i, action] of [['accept'], ['resolve'], ['accept'], ['reject']].entries()) {
      const decided = await as('alice', 'decide', '--session', shared, '--item', suggestion(10 + i), ...action)
      expect(decided.stderr).toBe('')
    }
    // An unmatch, and its undo: the pool matched again, twice.
    expect((await as('alice', 'decide', '--session', shared, '--item', suggestion(12), 'unmatch')).stderr).toBe('')
    expect((await as('alice', 'undo', '--session', shared)).stderr).toBe('')
    expect((await as('bob', 'team', 'sync')).stdout).toMatch(/6 new event\(s\)/)
    // Not run again: each decision changed its own item and the totals, or the open pool was matched again.
    expect(runs()).toBe(before)
    const { sessionId, items } = itemsOf('bob')
    expect(items).toBe(itemsOf('alice').items)
    const decided = JSON.parse(items) as { provider: { id: string }[]; outcome: string; resolved: boolean; decidedBy: string | null }[]
    expect(decided.find((i) => i.provider[0]?.id === 'id-10')).toMatchObject({ outcome: 'matched', decidedBy: 'alice' })
    expect(decided.find((i) => i.provider[0]?.id === 'id-11')).toMatchObject({ outcome: 'suggested', resolved: true, decidedBy: 'alice' })
    expect(decided.find((i) => i.provider[0]?.id === 'id-12')).toMatchObject({ outcome: 'matched', decidedBy: 'alice' })
    expect(decided.find((i) => i.provider[0]?.id === 'id-13')?.outcome).not.toBe('suggested')
    // The same events run in full, on a copy of bob's cache: byte for byte the same items and totals.
    const copy = join(mkdtempSync(join(tmpdir(), 'ledgerline-full-run-')), 'copy.sqlite')
    const db = openCache(cache('bob'))
    const totalsInPlace = new ReconService(db).totals(sessionId)
    db.exec(`vacuum into '${copy}'`)
    db.close()
    const full = openCache(copy)
    try {
      const service = new ReconService(full)
      await service.run(sessionId)
      expect(JSON.stringify([...service.allItems(sessionId)])).toBe(items)
      expect(service.totals(sessionId)).toEqual(totalsInPlace)
    } finally {
      full.close()
    }
  }, 180_000)

  it('gives one of two preparers deciding on one item at the same moment the win, and the other a conflict naming who changed it', async () => {
    expect((await as('erin', 'team', 'sync')).code).toBe(0)
    expect((await as('alice', 'team', 'sync')).code).toBe(0)
    const key = suggestion(4)
    const runs = await Promise.all([
      as('alice', 'decide', '--session', shared, '--item', key, 'accept'),
      as('erin', 'decide', '--session', shared, '--item', key, 'reject')
    ])
    expect(runs.map((r) => r.code).sort()).toEqual([0, 2])
    const winner = runs[0]?.code === 0 ? 'alice' : 'erin'
    const loser = winner === 'alice' ? 'erin' : 'alice'
    const lost = runs.find((r) => r.code === 2) as CliRun
    expect(lost.stderr).toMatch(
      new RegExp(
        `was changed by ${winner} at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC \\(version 1\\) after the version 0 this decision was based on \\[team_conflict\\]`
      )
    )
    expect(cacheRows(loser, 'select code, item_key from team_conflicts')).toEqual([{ code: 'team_conflict', item_key: key }])
    expect(itemsOf('alice').items).toBe(itemsOf('erin').items)
  }, 120_000)

  it('keeps decisions made offline in the outbox and sends them on reconnect; a member who was away catches up by itself', async () => {
    await proxy.cut()
    try {
      for (const n of [5, 6, 7]) {
        const offline = await as('erin', 'decide', '--session', shared, '--item', suggestion(n), 'accept')
        expect(offline.code).toBe(0)
        expect(offline.stdout).toMatch(/cannot be reached .* waits on this computer \(\d queued\) and is sent by the next team sync/)
      }
      expect(cacheRows('erin', 'select count(*) as n from team_outbox')).toEqual([{ n: 3 }])
    } finally {
      await proxy.restore()
    }
    // Another login syncing on erin's computer sends none of them: the server would make them that login's.
    const other = await runCli(['team', 'sync', '--server', url('alice'), '--db', cache('erin')], {
      PGPASSWORD: PASSWORDS.alice ?? '',
      HOME: home,
      PGPASSFILE: join(home, 'none')
    })
    expect(other.code).toBe(0)
    expect(other.stdout).not.toMatch(/Sent \d+ event/)
    expect(cacheRows('erin', 'select count(*) as n, min(login) as login from team_outbox')).toEqual([{ n: 3, login: 'erin' }])
    const sync = await as('erin', 'team', 'sync')
    expect(sync.stdout).toMatch(/Sent 3 event\(s\) that waited on this computer/)
    expect(cacheRows('erin', 'select count(*) as n from team_outbox')).toEqual([{ n: 0 }])
    expect((await as('bob', 'team', 'sync')).code).toBe(0)
    expect(itemsOf('bob').items).toBe(itemsOf('erin').items)
    const decided = (JSON.parse(itemsOf('bob').items) as { provider: { id: string }[]; outcome: string; decidedBy: string }[]).filter((i) =>
      ['id-5', 'id-6', 'id-7'].includes(i.provider[0]?.id ?? '')
    )
    expect(decided.map((i) => [i.outcome, i.decidedBy])).toEqual([
      ['matched', 'erin'],
      ['matched', 'erin'],
      ['matched', 'erin']
    ])
  }, 120_000)

  it('loses and doubles nothing when a client is killed in the middle of sending', async () => {
    const keys = Array.from({ length: 8 }, (_, i) => suggestion(i + 10))
    await proxy.cut()
    try {
      for (const key of keys) expect((await as('alice', 'decide', '--session', shared, '--item', key, 'resolve')).code).toBe(0)
    } finally {
      await proxy.restore()
    }
    const before = Number(
      ((await server.sql(`select count(*) as n from ledgerline.events where session_id = $1`, [shared])).rows[0] as { n: string }).n
    )
    // Every packet slowed, so the sync is still sending when it is killed.
    proxy.delay(40)
    const { child, ended } = startCli(['team', 'sync', '--server', url('alice'), '--db', cache('alice')], {
      PGPASSWORD: PASSWORDS.alice,
      HOME: home
    })
    const count = async (): Promise<number> =>
      Number(((await server.sql(`select count(*) as n from ledgerline.events where session_id = $1`, [shared])).rows[0] as { n: string }).n)
    await expect.poll(count, { timeout: 60_000, interval: 20 }).toBeGreaterThan(before)
    child.kill('SIGKILL')
    await ended
    proxy.delay(0)
    const again = await as('alice', 'team', 'sync')
    expect(again.code).toBe(0)
    expect(await count()).toBe(before + keys.length)
    const refs = await server.sql(
      `select count(distinct ref) as refs, count(*) as n from ledgerline.event_refs where session_id = $1 and author = 'alice'`,
      [shared]
    )
    expect(refs.rows[0]).toMatchObject({ refs: refs.rows[0]?.n })
    expect(cacheRows('alice', 'select count(*) as n from team_outbox')).toEqual([{ n: 0 }])
    const resolved = (JSON.parse(itemsOf('alice').items) as { key: string; resolved: boolean }[]).filter((i) => keys.includes(i.key))
    expect(resolved.map((i) => i.resolved)).toEqual(keys.map(() => true))
  }, 180_000)

  it('follows the workspace live with team sync --watch, and catches up by itself after the connection drops', async () => {
    const watch = startCli(['team', 'sync', '--watch', '--server', url('bob'), '--db', cache('bob')], {
      PGPASSWORD: PASSWORDS.bob,
      HOME: home
    })
    const resolvedOn = (key: string): unknown[] =>
      cacheRows('bob', `select seq from team_events where kind = 'decision' and item_key = '${key}'`)
    // What it has said so far: each step below waits for the listener to be where the step needs it, not for a time.
    let said = ''
    watch.child.stdout?.on('data', (chunk: Buffer) => (said += chunk.toString()))
    try {
      await expect.poll(() => said, { timeout: 60_000 }).toMatch(/Listening for changes/)
      const first = suggestion(30)
      expect((await as('alice', 'decide', '--session', shared, '--item', first, 'accept')).code).toBe(0)
      await expect.poll(() => resolvedOn(first), { timeout: 60_000 }).toHaveLength(1)
      // The listener's connection drops; a decision made meanwhile arrives once it is back.
      await proxy.cut()
      await expect.poll(() => said, { timeout: 60_000 }).toMatch(/Lost the workspace/)
      await proxy.restore()
      const second = suggestion(31)
      expect((await as('alice', 'decide', '--session', shared, '--item', second, 'accept')).code).toBe(0)
      await expect.poll(() => resolvedOn(second), { timeout: 60_000 }).toHaveLength(1)
    } finally {
      watch.child.kill('SIGINT')
    }
    const ended = await watch.ended
    expect(ended.code).toBe(0)
    expect(ended.stdout).toMatch(/Listening for changes[\s\S]*Lost the workspace[\s\S]*Listening for changes/)
    expect(itemsOf('bob').items).toBe(itemsOf('alice').items)
  }, 180_000)

  it('writes the report with its sign-off, and refuses a history rewritten on the server', async () => {
    const byReviewer = await as('bob', 'team', 'submit', '--session', shared)
    expect(byReviewer.code).toBe(2)
    expect(byReviewer.stderr).toMatch(/bob is a reviewer: only a preparer submits a session for review \[team_role_refused\]/)
    expect((await as('alice', 'team', 'submit', '--session', shared)).stdout).toMatch(
      new RegExp(`^Session ${shared} submitted for review \\(event \\d+\\)\\.\\n$`)
    )
    const own = await as('alice', 'team', 'approve', '--session', shared)
    expect(own.code).toBe(2)
    expect(own.stderr).toMatch(/alice is a preparer: only a reviewer or an admin approves \[team_role_refused\]/)
    expect((await as('bob', 'team', 'approve', '--session', shared)).stdout).toMatch(
      new RegExp(`^Session ${shared} approved \\(event \\d+\\)\\.\\n$`)
    )
    // The approval is the lock of the period on each member's computer, as a close is on one.
    await as('alice', 'team', 'sync')
    expect(cacheRows('alice', 'select approved_at from recon_sessions where id in (select session_id from team_replicas)')).toEqual([
      { approved_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) }
    ])
    const out = join(home, 'october-team.csv')
    const report = await as('bob', 'team', 'report', '--session', shared, '--out', out, '--xlsx', join(home, 'october-team.xlsx'))
    expect(report.stderr).toBe('')
    expect(report.stdout).toMatch(/APPROVED, prepared by alice, reviewed by bob/)
    const signOff = readFileSync(join(home, 'october-team-sign-off.csv'), 'utf8')
    expect(signOff).toMatch(/"shared for preparation","alice"/)
    expect(signOff).toMatch(/"comment","bob",.*"Check the fee on this one"/)
    // The submission and the approval each name the same items: how many, and their SHA-256 as replayed on alice's and on bob's computer.
    const submitted = /"submitted for review","alice",.*"in force",(\d+),"=""([0-9a-f]{64})"""/.exec(signOff)
    expect(submitted?.[1]).toBe(String((JSON.parse(itemsOf('bob').items) as unknown[]).length))
    expect(signOff).toMatch(new RegExp(`"approved","bob",.*"in force",${submitted?.[1]},"=""${submitted?.[2]}"""`))
    expect(existsSync(join(home, 'october-team.xlsx'))).toBe(true)
    // A superuser takes the last event away and makes the session's head agree: bob's computer read it, and says so.
    await server.sql(
      `with gone as (delete from ledgerline.events where session_id = $1 and seq = (select max(seq) from ledgerline.events where session_id = $1) returning seq, prev_hash)
       update ledgerline.sessions s set last_seq = gone.seq - 1, last_hash = gone.prev_hash, state = 'open' from gone where s.id = $1`,
      [shared]
    )
    const sync = await as('bob', 'team', 'sync')
    expect(sync.code).toBe(1)
    expect(sync.stdout).toMatch(
      /no longer continues the history this computer read, at event \d+: events this computer read are no longer there as they were/
    )
  }, 120_000)
})

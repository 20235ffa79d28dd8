// Team mode against a throwaway local PostgreSQL: 20 clients deciding at once on one 100,000-item session (decisions a second against a raw INSERT loop of the same rows, commit p95, commit → another client has it p95), opening that session on a computer that never saw it (against running it where it was made), and verifying 1,000,000 events (against fetching the same rows).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { paymentRow } from '../src/main/cache/api-rows'
import { openCache } from '../src/main/cache/open'
import { CacheStore } from '../src/main/cache/store'
import { ReconService } from '../src/main/reconcile/service'
import { clientConfig, readServerUrl } from '../src/main/team/connection'
import { Doorbell } from '../src/main/team/doorbell'
import { setMember } from '../src/main/team/members'
import { setupWorkspace } from '../src/main/team/migrations'
import { TeamReplicas } from '../src/main/team/replicas'
import { addSessionEventOnce, eventHash, eventsAfter, shareSession, verifySharedSession } from '../src/main/team/server-sessions'
import { shareRequestOf } from '../src/main/team/share'
import { startPostgres, type TestPostgres } from '../test/support/postgres'
import { fmt, line } from './common'
import { percentile } from './stats'

const ITEMS = 100_000
const CLIENTS = 20
const PER_CLIENT = 500
const VERIFY_EVENTS = 1_000_000
const PASSWORD = 'bench pass'

async function connect(server: TestPostgres, login: string): Promise<pg.Client> {
  const client = new pg.Client(clientConfig(readServerUrl(server.url(login)), PASSWORD))
  await client.connect()
  return client
}

/** A cache with ITEMS payments and a statement line for each (all matched), run: the session a preparer shares. */
async function bigSession(
  file: string
): Promise<{ db: ReturnType<typeof openCache>; service: ReconService; sessionId: string; runSeconds: number }> {
  const db = openCache(file)
  db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('test', 'Bench test', null, 'test', '2026-01-01')").run()
  const store = new CacheStore(db)
  const lines = ['Date,Reference,Amount']
  for (let start = 0; start < ITEMS; start += 5_000) {
    const page = []
    for (let n = start; n < Math.min(ITEMS, start + 5_000); n++) {
      const amount = 1_000 + (n % 9_000)
      const day = `2026-03-${String(1 + (n % 28)).padStart(2, '0')}`
      page.push(
        paymentRow({
          id: `id-${n}`,
          reference: `PAY-${n}`,
          amount,
          currency: 'NGN',
          status: 'successful',
          channel: 'card',
          totalFees: 0,
          createdAt: `${day}T10:00:00Z`
        })
      )
      lines.push(`${day},PAY-${n},${amount}.00`)
    }
    store.writePage('test', 'payments', page)
  }
  const service = new ReconService(db, { user: 'preparer' })
  const imported = await service.importStatement({
    profileId: 'test',
    name: 'march.csv',
    bytes: Buffer.from(`${lines.join('\n')}\n`),
    mapping: { defaultCurrency: 'NGN' }
  })
  if (imported.status !== 'imported') throw new Error('the bench statement was not imported')
  const session = service.createSession({
    profileId: 'test',
    name: 'March',
    source: 'payments',
    from: '2026-03-01',
    to: '2026-03-31',
    timeZone: 'UTC',
    fileIds: [imported.file.id]
  })
  const start = performance.now()
  await service.run(session.id)
  return { db, service, sessionId: session.id, runSeconds: (performance.now() - start) / 1000 }
}

export async function teamBench(): Promise<void> {
  console.log(`\nTeam workspace (a throwaway PostgreSQL on this computer; ${CLIENTS} clients, a ${fmt(ITEMS)}-item session)`)
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-bench-team-'))
  const server = await startPostgres()
  const clients: pg.Client[] = []
  try {
    await server.createLogin('owner', PASSWORD)
    await server.sql('grant create on database postgres to owner')
    const owner = await connect(server, 'owner')
    await setupWorkspace(owner)
    const logins = Array.from({ length: CLIENTS }, (_, i) => `preparer${i + 1}`)
    for (const login of [...logins, 'reviewer']) {
      await server.createLogin(login, PASSWORD)
      await setMember(owner, login, login === 'reviewer' ? 'reviewer' : 'preparer')
    }
    await owner.end()

    const made = await bigSession(join(dir, 'preparer.sqlite'))
    const keys = [...made.service.allItems(made.sessionId)].map((i) => i.key)
    const sharer = await connect(server, 'preparer1')
    const request = shareRequestOf(made.db, made.sessionId)
    await shareSession(sharer, request)
    await sharer.end()
    const session = request.id

    for (const login of logins) clients.push(await connect(server, login))
    // The baseline: the same rows INSERTed by the same clients, one statement each, into a plain table.
    await server.sql(
      'create table bench_raw (session_id text, seq integer, kind text, item_key text, based_on integer, payload jsonb, author name, at timestamptz)'
    )
    await server.sql('grant insert on bench_raw to public')
    const body = (key: string): Record<string, unknown> => ({ body: { kind: 'resolve', payload: { itemKey: key, resolved: true } } })
    const slice = (c: number): string[] => keys.slice(c * PER_CLIENT, (c + 1) * PER_CLIENT)
    let t = performance.now()
    await Promise.all(
      clients.map(async (client, c) => {
        let n = 0
        for (const key of slice(c))
          await client.query('insert into bench_raw values ($1, $2, $3, $4, $5, $6, current_user, clock_timestamp())', [
            session,
            ++n,
            'decision',
            key,
            0,
            JSON.stringify(body(key))
          ])
      })
    )
    const rawPerSecond = (CLIENTS * PER_CLIENT) / ((performance.now() - t) / 1000)

    // Decisions through the workspace's function, while a reviewer's client listens and pulls.
    const committed = new Map<number, number>()
    const received = new Map<number, number>()
    const reader = await connect(server, 'reviewer')
    let last = 1
    let pulling: Promise<void> | null = null
    let again = false
    const pull = (): void => {
      if (pulling) {
        again = true
        return
      }
      pulling = (async () => {
        do {
          again = false
          const events = await eventsAfter(reader, session, last)
          const now = performance.now()
          for (const e of events) received.set(e.seq, now)
          if (events.length > 0) last = (events[events.length - 1] as { seq: number }).seq
        } while (again)
      })().finally(() => {
        pulling = null
      })
    }
    const bell = new Doorbell(readServerUrl(server.url('reviewer')), pull, { password: PASSWORD })
    await bell.start()
    const commits: number[] = []
    t = performance.now()
    await Promise.all(
      clients.map(async (client, c) => {
        for (const key of slice(c)) {
          const start = performance.now()
          const seq = await addSessionEventOnce(client, `${c}:${key}`, session, 'decision', body(key), { key, basedOn: 0 })
          const end = performance.now()
          commits.push(end - start)
          committed.set(seq, end)
        }
      })
    )
    const decidedSeconds = (performance.now() - t) / 1000
    const total = CLIENTS * PER_CLIENT
    const lastSeq = Math.max(...committed.keys())
    while (!received.has(lastSeq)) await new Promise((r) => setTimeout(r, 5))
    await bell.stop()
    await reader.end()
    const perSecond = total / decidedSeconds
    const propagation = [...committed].map(([seq, at]) => Math.max(0, (received.get(seq) ?? at) - at)).sort((a, b) => a - b)
    commits.sort((a, b) => a - b)
    line(
      `${CLIENTS} clients deciding at once`,
      `${fmt(perSecond)} decisions/s`,
      `${(perSecond / rawPerSecond).toFixed(2)}× a raw INSERT loop of the same rows (${fmt(rawPerSecond)}/s); target ≥ 500/s`
    )
    line('commit, p95', `${percentile(commits, 95).toFixed(1)} ms`, `p50 ${percentile(commits, 50).toFixed(1)} ms; target ≤ 50 ms`)
    line(
      'commit → another client has it, p95',
      `${percentile(propagation, 95).toFixed(1)} ms`,
      `p50 ${percentile(propagation, 50).toFixed(1)} ms; doorbell then pull; target ≤ 250 ms`
    )

    // A computer that never saw the session: download, read the statement, replay the decisions, run.
    const fresh = openCache(join(dir, 'reviewer.sqlite'))
    const reviewer = await connect(server, 'reviewer')
    t = performance.now()
    const opened = await new TeamReplicas(fresh, readServerUrl(server.url('reviewer'))).open(reviewer, session)
    const openSeconds = (performance.now() - t) / 1000
    await reviewer.end()
    fresh.close()
    line(
      'open it on a new computer',
      `${openSeconds.toFixed(2)} s`,
      `${(openSeconds / made.runSeconds).toFixed(2)}× running it where it was made (${made.runSeconds.toFixed(2)} s); ${fmt(opened.pulled.events)} events replayed; target ≤ 10 s`
    )

    await verifyBench(server)
  } finally {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)))
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A session of VERIFY_EVENTS events, a valid chain written straight into the table by the superuser, verified as a member does. */
async function verifyBench(server: TestPostgres): Promise<void> {
  const id = 'bench-verify'
  await server.sql(
    `insert into ledgerline.sessions (id, name, period_from, period_to, rule_version, settings, preparer) values ($1, 'Verify', '2026-03-01', '2026-03-31', 'bench', '{}', 'preparer1')`,
    [id]
  )
  // The payload as the server writes jsonb back, so the hash here is of the text verify reads.
  const payloadOf = (n: number): string => `{"body": {"kind": "resolve", "payload": {"itemKey": "k${n}", "resolved": true}}}`
  const check = (await server.sql('select $1::jsonb::text as t', [payloadOf(7)])).rows[0] as { t: string }
  if (check.t !== payloadOf(7)) throw new Error(`jsonb writes ${check.t}, not ${payloadOf(7)}`)
  const base = Date.UTC(2026, 2, 1)
  let prev = '0'.repeat(64)
  const BATCH = 5_000
  for (let start = 1; start <= VERIFY_EVENTS; start += BATCH) {
    const rows: unknown[] = []
    const values: string[] = []
    for (let seq = start; seq < start + BATCH && seq <= VERIFY_EVENTS; seq++) {
      const at = `${new Date(base + seq).toISOString().slice(0, 23)}${String(seq % 1000).padStart(3, '0')}Z`
      const e = { seq, kind: 'decision', itemKey: `k${seq}`, basedOn: 0, payload: payloadOf(seq), author: 'preparer1', at }
      const hash = eventHash(prev, e)
      const p = rows.length
      values.push(
        `($${p + 1}, $${p + 2}, 'decision', $${p + 3}, 0, $${p + 4}::jsonb, 'preparer1', $${p + 5}::timestamptz, $${p + 6}, $${p + 7})`
      )
      rows.push(id, seq, e.itemKey, e.payload, at, prev, hash)
      prev = hash
    }
    await server.sql(
      `insert into ledgerline.events (session_id, seq, kind, item_key, based_on, payload, author, at, prev_hash, hash) values ${values.join(', ')}`,
      rows
    )
  }
  await server.sql('update ledgerline.sessions set last_seq = $2, last_hash = $3 where id = $1', [id, VERIFY_EVENTS, prev])
  const member = await connect(server, 'reviewer')
  try {
    let t = performance.now()
    await member.query('select seq, kind, item_key, based_on, payload, author, at, prev_hash, hash from ledgerline.events_after($1, 0)', [
      id
    ])
    const fetchSeconds = (performance.now() - t) / 1000
    t = performance.now()
    const result = await verifySharedSession(member, id)
    const verifySeconds = (performance.now() - t) / 1000
    if (!result?.ok || result.events !== VERIFY_EVENTS)
      throw new Error(`the bench chain did not verify: ${JSON.stringify(result?.firstBad)}`)
    line(
      `verify ${fmt(VERIFY_EVENTS)} events`,
      `${verifySeconds.toFixed(2)} s`,
      `${(verifySeconds / fetchSeconds).toFixed(2)}× fetching the same rows (${fetchSeconds.toFixed(2)} s); target ≤ 10 s`
    )
  } finally {
    await member.end()
  }
}

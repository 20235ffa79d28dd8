// Sync benchmarks: ingest rate against a raw insert loop, FTS search at 1M payments against LIKE, paced sync against the rate-limit floor.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type Database from 'better-sqlite3'
import { createApiClient } from '../src/main/api/client'
import { openCache } from '../src/main/cache/open'
import { paymentRow, type Row } from '../src/main/cache/api-rows'
import { CacheStore } from '../src/main/cache/store'
import { SeededData } from '../src/sandbox/data'
import { startSandbox } from '../src/sandbox/server'
import { cursorAfterRow, search } from '../src/main/search/search'
import { runSync } from '../src/main/sync/engine'
import { RATE_LIMITS } from '../src/shared/api/assumptions'
import type { Payment } from '../src/shared/api/schemas'
import { fmt, line, seconds } from './common'
import { percentile } from './stats'

export function freshDb(dir: string, name: string): Database.Database {
  const db = openCache(join(dir, name))
  db.prepare("insert into profiles (id, name, mode, created_at) values ('p', 'Bench', 'test', '2026-01-01')").run()
  return db
}

/** The Sandbox in its own process (the real `ledgerline sandbox` command), as a real server would be. */
async function sandboxProcess(args: string[]): Promise<{ baseUrl: string; testKey: string; stop(): void }> {
  const child = spawn(process.execPath, [join(__dirname, '..', 'bin', 'ledgerline.cjs'), 'sandbox', ...args], {
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)))
  })
  const { baseUrl, testKey } = JSON.parse(first) as { baseUrl: string; testKey: string }
  return { baseUrl, testKey, stop: () => child.kill('SIGTERM') }
}

export async function ingestBench(dir: string): Promise<void> {
  const payments = Number(process.env['BENCH_INGEST'] ?? 100_000)
  const sandbox = await sandboxProcess(['--no-rate-limits', '--payments', String(payments)])
  const client = createApiClient({ baseUrl: sandbox.baseUrl, getKey: () => sandbox.testKey, pacing: false })
  const syncDb = freshDb(dir, 'ingest-sync.sqlite')
  const t0 = process.hrtime.bigint()
  await runSync({ client, store: new CacheStore(syncDb), profileId: 'p', resources: ['payments'] })
  const syncSeconds = seconds(t0)
  const count = (syncDb.prepare('select count(*) as n from payments').get() as { n: number }).n

  // The same rows (rowids included, read as BigInts: they exceed 2^53), inserted with a plain prepared statement into the same schema, one transaction per page of 50.
  const rows = (syncDb.prepare('select rowid, * from payments order by rowid').safeIntegers().all() as Row[]).map(
    ({ profile_id: _p, fetched_at_ms: _f, ...rest }) => rest
  )
  syncDb.close()
  sandbox.stop()
  const rawDb = freshDb(dir, 'ingest-raw.sqlite')
  const columns = Object.keys(rows[0] as Row)
  const insert = rawDb.prepare(
    `insert into payments (profile_id, fetched_at_ms, ${columns.join(', ')}) values ('p', 0, ${columns.map((c) => `@${c}`).join(', ')})`
  )
  const batch = rawDb.transaction((chunk: Row[]) => {
    for (const row of chunk) insert.run(row)
  })
  const t1 = process.hrtime.bigint()
  for (let i = 0; i < rows.length; i += 50) batch(rows.slice(i, i + 50))
  const rawSeconds = seconds(t1)
  rawDb.close()

  const syncRate = count / syncSeconds
  const rawRate = rows.length / rawSeconds
  console.log(`\nSync ingest — ${fmt(count)} payments from the Sandbox (its own process) over loopback into a WAL cache with FTS`)
  line('raw better-sqlite3 prepared-insert loop (same rows, same schema, 50/txn)', `${fmt(rawRate)} rows/s`)
  line(
    'sync ingest (HTTP + schema check + mapping + upsert + checkpoint)',
    `${fmt(syncRate)} rows/s`,
    `ratio ${(syncRate / rawRate).toFixed(2)} (target >= 0.50)`
  )
}

/** Writes `total` seeded payments for profile 'p' straight into the cache, 5,000 a transaction; returns the seeded data. */
export function seedPayments(db: Database.Database, total: number, seed: number): SeededData {
  const store = new CacheStore(db)
  const data = new SeededData({ seed, payments: total, plans: 40, subscriptions: 0, bulkFiles: [] }, 'test')
  for (let i = 0; i < total; i += 5000) {
    const page: Row[] = []
    for (let j = i; j < Math.min(total, i + 5000); j++) page.push(paymentRow(data.payment(j) as unknown as Payment))
    store.writePage('p', 'payments', page)
  }
  return data
}

export async function searchBench(dir: string): Promise<void> {
  const total = Number(process.env['BENCH_SEARCH_ROWS'] ?? 1_000_000)
  const db = freshDb(dir, 'search.sqlite')
  const t0 = process.hrtime.bigint()
  const data = seedPayments(db, total, 5)
  const buildSeconds = seconds(t0)

  // Realistic look-ups: exact references, email prefixes, account numbers, surnames.
  const sample: { text: string; like: string }[] = []
  for (let k = 0; k < 200; k++) {
    const p = data.payment(Math.floor((((k * 7919) % 997) / 997) * total)) as unknown as Payment
    const kind = k % 4
    const email = String(p.metadata?.['customerEmail'] ?? '')
    const text =
      kind === 0
        ? (p.reference as string)
        : kind === 1
          ? email.slice(0, 8)
          : kind === 2
            ? (p.bankDetails?.accountNumber ?? (p.reference as string))
            : (email.split('.')[1]?.replace(/\d.*$/, '') ?? 'okafor')
    sample.push({ text, like: text })
  }
  const time = (fn: () => unknown): number => {
    const start = process.hrtime.bigint()
    fn()
    return Number(process.hrtime.bigint() - start) / 1e6
  }
  for (const q of sample.slice(0, 20)) search(db, 'p', { resource: 'payments', text: q.text, pageSize: 50 })
  const ftsTimes = sample
    .map((q) => time(() => search(db, 'p', { resource: 'payments', text: q.text, pageSize: 50 })))
    .sort((a, b) => a - b)
  const likeStatement = db.prepare(
    `select id, reference, customer_name, amount_minor, currency, status, created_at from payments where profile_id = 'p' and
     (reference like @q or service_reference like @q or customer_name like @q or customer_email like @q or account_number like @q or id like @q)
     order by created_at_ms desc limit 50`
  )
  const likeSample = sample.filter((_, i) => i % 10 === 0)
  const likeTimes = likeSample.map((q) => time(() => likeStatement.all({ q: `%${q.like}%` }))).sort((a, b) => a - b)
  // Paging deep: the page after row total-50 by keyset cursor, against the first page and an OFFSET read of the same page.
  const deepOffset = total - 50
  const cursor = cursorAfterRow(db, 'p', { resource: 'payments' }, deepOffset - 1) as string
  const median = (fn: () => unknown): number =>
    percentile(
      Array.from({ length: 15 }, () => time(fn)).sort((a, b) => a - b),
      50
    )
  const firstPage = median(() => search(db, 'p', { resource: 'payments', pageSize: 50 }))
  const deepKeyset = median(() => search(db, 'p', { resource: 'payments', pageSize: 50, after: cursor }))
  const offsetStatement = db.prepare("select * from payments t where t.profile_id = 'p' order by t.seq desc limit 50 offset @offset")
  const deepOffsetMs = median(() => offsetStatement.all({ offset: deepOffset }))
  db.close()

  console.log(
    `\nOffline search — ${fmt(total)} cached payments (built in ${fmt(buildSeconds, 1)} s), ${sample.length} look-ups (reference, email prefix, account number, surname), first page of 50 with total count`
  )
  line('FTS5 search p50', `${fmt(percentile(ftsTimes, 50), 2)} ms`)
  line('FTS5 search p95', `${fmt(percentile(ftsTimes, 95), 2)} ms`, 'target <= 20 ms')
  line(`LIKE '%…%' scan p50 (${likeSample.length} of the same look-ups)`, `${fmt(percentile(likeTimes, 50), 2)} ms`)
  line(
    'LIKE scan p95',
    `${fmt(percentile(likeTimes, 95), 2)} ms`,
    `FTS p95 is ${(percentile(likeTimes, 95) / percentile(ftsTimes, 95)).toFixed(0)}x faster`
  )
  line('first page of 50 with total count (p50)', `${fmt(firstPage, 2)} ms`)
  line(
    `page at row ${fmt(deepOffset + 1)} by keyset cursor (p50)`,
    `${fmt(deepKeyset, 2)} ms`,
    `ratio ${(deepKeyset / firstPage).toFixed(2)} of the first page (target <= 2)`
  )
  line('the same page by OFFSET (p50)', `${fmt(deepOffsetMs, 2)} ms`, `keyset is ${(deepOffsetMs / deepKeyset).toFixed(0)}x faster`)
}

/** Fastest possible send times under both sliding windows; the last one is the floor for n requests. */
export function rateLimitFloorSeconds(requests: number, perMinute: number, perSecond: number): number {
  const sends: number[] = []
  for (let i = 0; i < requests; i++) {
    const byMinute = i >= perMinute ? (sends[i - perMinute] as number) + 60 : 0
    const bySecond = i >= perSecond ? (sends[i - perSecond] as number) + 1 : 0
    sends.push(Math.max(byMinute, bySecond))
  }
  return sends.at(-1) ?? 0
}

export async function pacedBench(dir: string): Promise<void> {
  const limits = RATE_LIMITS.live
  const pages = Number(process.env['BENCH_PACED_PAGES'] ?? 400)
  const sandbox = await startSandbox({ payments: pages * 50, rateLimits: true })
  const client = createApiClient({ baseUrl: sandbox.baseUrl, getKey: () => sandbox.keys.live })
  const db = openCache(join(dir, 'paced.sqlite'))
  db.prepare("insert into profiles (id, name, mode, created_at) values ('p', 'Bench', 'live', '2026-01-01')").run()
  const t0 = process.hrtime.bigint()
  const summary = await runSync({ client, store: new CacheStore(db), profileId: 'p', resources: ['payments'] })
  const wall = seconds(t0)
  const sent = sandbox.requests.filter((r) => r.path === '/v1/payments')
  const tooMany = sent.filter((r) => r.status === 429).length
  const floor = rateLimitFloorSeconds(sent.length, limits.perMinute, limits.perSecond)
  db.close()
  await sandbox.close()
  console.log(
    `\nPaced sync — ${fmt(pages * 50)} live-mode payments against the rate-limited Sandbox (${limits.perMinute}/min, ${limits.perSecond}/s)`
  )
  line('requests sent', fmt(sent.length), summary.resources.payments?.ok ? 'sync ok' : 'SYNC FAILED')
  line('429 responses', fmt(tooMany), 'target 0')
  line('rate-limit floor (fastest legal schedule for these requests)', `${fmt(floor, 1)} s`)
  line('sync wall time', `${fmt(wall, 1)} s`, `ratio ${(wall / floor).toFixed(3)} (target <= 1.10)`)
}

/**
 * The second sync against the first: 100,000 payments from the strict-spec Sandbox, then 1% new and
 * 1% of them settled. Requests are what a rate-limited server charges for; the floor at the live limit
 * turns them into the wait a user would see.
 */
export async function secondSyncBench(dir: string): Promise<void> {
  const total = Number(process.env['BENCH_SECOND_SYNC'] ?? 100_000)
  const sandbox = await startSandbox({ payments: total, rateLimits: false, strictSpec: true, subscriptions: 0, plans: 0, bulkFiles: [] })
  const client = createApiClient({ baseUrl: sandbox.baseUrl, getKey: () => sandbox.keys.test, pacing: false })
  const db = freshDb(dir, 'second-sync.sqlite')
  const store = new CacheStore(db)
  const run = async (): Promise<{ requests: number; seconds: number; ok: boolean }> => {
    const t = process.hrtime.bigint()
    const summary = await runSync({ client, store, profileId: 'p', resources: ['payments'] })
    return { requests: summary.resources.payments?.requests ?? 0, seconds: seconds(t), ok: summary.resources.payments?.ok === true }
  }
  const first = await run()
  const state = sandbox.state('test')
  const changed = Math.round(total / 100)
  const pending = store.unfinishedPaymentIds('p')
  const settled = pending.filter((_, i) => i % Math.max(1, Math.floor(pending.length / changed)) === 0).slice(0, changed)
  for (const id of settled) state.setPaymentStatus(id, 'successful')
  state.addNewPayments(changed)
  const second = await run()
  const wrongAfter = (ids: readonly string[]): number =>
    ids.filter(
      (id) =>
        (db.prepare("select status from payments where profile_id = 'p' and id = ?").get(id) as { status: string }).status !== 'successful'
    ).length
  const wrong = wrongAfter(settled)
  // As in practice: the ones that settle are the newest pending payments.
  const recent = store.unfinishedPaymentIds('p').slice(0, changed)
  for (const id of recent) state.setPaymentStatus(id, 'successful')
  state.addNewPayments(changed)
  const third = await run()
  const wrongRecent = wrongAfter(recent)
  const cached = store.count('p', 'payments')
  db.close()
  await sandbox.close()
  const live = RATE_LIMITS.live
  const floor = (requests: number): number => rateLimitFloorSeconds(requests, live.perMinute, live.perSecond)
  console.log(
    `\nSecond sync — ${fmt(total)} payments (strict-spec Sandbox, ${fmt(pending.length)} pending), then ${fmt(changed)} new and ${fmt(settled.length)} settled`
  )
  line('first sync: requests', fmt(first.requests), first.ok ? 'ok' : 'FAILED')
  line('first sync: seconds on loopback / at the live rate limit', `${fmt(first.seconds, 1)} s / ${fmt(floor(first.requests) / 60, 1)} min`)
  line('second sync: requests', fmt(second.requests), `ratio ${(second.requests / first.requests).toFixed(3)} of the first`)
  line(
    'second sync: seconds on loopback / at the live rate limit',
    `${fmt(second.seconds, 1)} s / ${fmt(floor(second.requests) / 60, 1)} min`,
    `ratio ${(second.seconds / first.seconds).toFixed(3)} of the first`
  )
  line(
    'after the second sync',
    `${fmt(settled.length - wrong)} of ${fmt(settled.length)} settled seen`,
    second.ok && wrong === 0 ? 'ok' : 'WRONG'
  )
  line(
    'third sync, the newest pending settled: requests',
    fmt(third.requests),
    `ratio ${(third.requests / first.requests).toFixed(3)} of the first`
  )
  line('third sync: seconds on loopback / at the live rate limit', `${fmt(third.seconds, 1)} s / ${fmt(floor(third.requests) / 60, 1)} min`)
  line(
    'after the third sync',
    `${fmt(cached)} cached, ${fmt(recent.length - wrongRecent)} of ${fmt(recent.length)} settled seen`,
    third.ok && wrongRecent === 0 && cached === total + 2 * changed ? 'ok' : 'WRONG'
  )
}

export async function syncBenches(which: Set<string>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-bench-'))
  try {
    if (which.has('ingest')) await ingestBench(dir)
    if (which.has('search')) await searchBench(dir)
    if (which.has('paced')) await pacedBench(dir)
    if (which.has('second-sync')) await secondSyncBench(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

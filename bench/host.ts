// Main's event-loop delay while heavy work runs: in-process on main's loop (how the services ran before the service host),
// against the same work in the host process behind the gate. Export of 1M rows, removing a profile with 1M payments, a deep search page.
import { closeSync, copyFileSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { openCache } from '../src/main/cache/open'
import { nodeHostLauncher } from '../src/main/host/node-launcher'
import { HostSupervisor } from '../src/main/host/supervisor'
import { cursorAfterRow } from '../src/main/search/search'
import { BOM, rowLine, text } from '../src/shared/csv/excel-safe'
import type { JobInfo } from '../src/shared/ipc/contract'
import { fmt, line, seconds } from './common'
import { percentile } from './stats'
import { freshDb, seedPayments } from './sync'

/**
 * How late main would answer something (a click, an IPC call) arriving at any moment: a 10 ms ticker,
 * where every 10 ms slot a blocked loop skipped counts with the wait it would have had.
 */
class LoopDelay {
  private delays: number[] = []
  private timer: ReturnType<typeof setTimeout> | null = null

  start(periodMs = 10): void {
    this.delays = []
    let due = performance.now() + periodMs
    const tick = (): void => {
      const now = performance.now()
      for (; due <= now; due += periodMs) this.delays.push(now - due)
      this.timer = setTimeout(tick, Math.max(0, due - performance.now()))
    }
    this.timer = setTimeout(tick, periodMs)
  }

  stop(): { p99: number; max: number } {
    if (this.timer) clearTimeout(this.timer)
    const sorted = this.delays.sort((a, b) => a - b)
    return { p99: percentile(sorted, 99), max: sorted.at(-1) ?? 0 }
  }
}

/** Lets the ticker settle, runs the work, lets the ticker see the end. */
async function measured(work: () => Promise<unknown> | unknown): Promise<{ p99: number; max: number; seconds: number }> {
  const delay = new LoopDelay()
  delay.start()
  await new Promise((r) => setTimeout(r, 200))
  const t0 = process.hrtime.bigint()
  await work()
  const took = seconds(t0)
  await new Promise((r) => setTimeout(r, 200))
  return { ...delay.stop(), seconds: took }
}

function buildCache(dir: string, name: string, total: number): number {
  const db = freshDb(dir, name)
  const t0 = process.hrtime.bigint()
  seedPayments(db, total, 9)
  db.close()
  return seconds(t0)
}

export async function hostBench(dir: string): Promise<void> {
  const total = Number(process.env['BENCH_HOST_ROWS'] ?? 1_000_000)
  const pageSize = 25
  const deepPage = Math.floor((total - pageSize) / pageSize)
  const inProcessFile = join(dir, 'host-inprocess.sqlite')
  const hostFile = join(dir, 'host-service.sqlite')
  const built = buildCache(dir, 'host-inprocess.sqlite', total)
  copyFileSync(inProcessFile, hostFile)
  // Where the deep page starts, found once before anything is timed; reading the page from there is keyset paging.
  const cursorDb = openCache(hostFile)
  const deepCursor = cursorAfterRow(cursorDb, 'p', { resource: 'payments' }, deepPage * pageSize - 1) as string
  cursorDb.close()

  // Before the service host: the same work on main's own event loop, as the services did it (one synchronous export
  // loop, one cascading DELETE of the profile, the search query).
  const db = openCache(inProcessFile)
  const before = {
    export: await measured(() => {
      const fd = openSync(join(dir, 'inprocess.csv'), 'w')
      let chunk = BOM
      for (const row of db.prepare("SELECT t.* FROM payments t WHERE t.profile_id = 'p' ORDER BY t.rowid DESC").iterate() as Iterable<
        Record<string, unknown>
      >) {
        const cells = Object.values(row).map((v) => (v === null ? null : text(String(v))))
        chunk += rowLine(cells, cells.length)
        if (chunk.length > 1 << 20) {
          writeSync(fd, chunk)
          chunk = ''
        }
      }
      writeSync(fd, chunk)
      closeSync(fd)
    }),
    // The deep page as it was read before keyset paging: ORDER BY … LIMIT … OFFSET.
    search: await measured(() =>
      db
        .prepare("SELECT * FROM payments t WHERE t.profile_id = 'p' ORDER BY t.seq DESC LIMIT @limit OFFSET @offset")
        .all({ limit: pageSize, offset: deepPage * pageSize })
    ),
    remove: await measured(() => db.prepare("delete from profiles where id = 'p'").run())
  }
  db.close()

  // With the service host: main only forwards calls and events; the host does the work in its own process.
  const finished = new Map<string, (job: JobInfo) => void>()
  const supervisor = new HostSupervisor({
    launch: nodeHostLauncher(),
    config: {
      app: { name: 'Ledgerline', version: 'bench', electronVersion: null, chromeVersion: null },
      paths: { userData: dir, cacheDatabase: hostFile, logs: join(dir, 'logs') },
      sqlite: {},
      keychainService: `app.ledgerline.bench-${process.pid}`,
      pacing: false
    },
    ui: { confirm: async () => true, chooseSaveFile: async () => join(dir, 'host.csv'), chooseOpenFile: async () => null },
    onEvent: (name, payload) => {
      const job = payload as JobInfo
      if (name === 'job:finished') finished.get(job.id)?.(job)
    }
  })
  await supervisor.start()
  const call = async (name: string, arg?: unknown): Promise<unknown> => {
    const result = await supervisor.call(name, arg)
    if (!result.ok) throw new Error(`${name}: ${result.error.code}: ${result.error.message}`)
    return result.value
  }
  const untilFinished = (job: JobInfo): Promise<JobInfo> => new Promise((resolve) => finished.set(job.id, resolve))
  await call('profile:select', { id: 'p' })
  const after = {
    export: await measured(async () => {
      const { job } = (await call('export:csv', { resource: 'payments' })) as { job: JobInfo }
      const done = await untilFinished(job)
      if (done.state !== 'succeeded') throw new Error(`export ${done.state}: ${done.error?.message ?? ''}`)
    }),
    search: await measured(() => call('search:query', { resource: 'payments', page: deepPage, pageSize, after: deepCursor })),
    remove: await measured(async () => {
      const removed = (await call('profile:remove', { id: 'p' })) as { jobId: string }
      const done = await new Promise<JobInfo>((resolve) => finished.set(removed.jobId, resolve))
      if (done.state !== 'succeeded') throw new Error(`removal ${done.state}: ${done.error?.message ?? ''}`)
    })
  }
  await supervisor.stop()

  console.log(
    `\nMain's event-loop delay — ${fmt(total)} cached payments (built in ${fmt(built, 1)} s); each delay is how late main would answer a click or call arriving during the work`
  )
  for (const [label, key] of [
    [`export ${fmt(total)} payments to CSV`, 'export'],
    [`search page at row ${fmt(deepPage * pageSize + 1)}`, 'search'],
    [`remove a profile with ${fmt(total)} payments`, 'remove']
  ] as const) {
    const b = before[key]
    const a = after[key]
    console.log(`  ${label}`)
    line("    on main's loop (before the service host)", `p99 ${fmt(b.p99)} ms`, `max ${fmt(b.max)} ms; took ${fmt(b.seconds, 1)} s`)
    line(
      '    in the service host (main forwards only)',
      `p99 ${fmt(a.p99, 1)} ms`,
      `max ${fmt(a.max, 1)} ms; took ${fmt(a.seconds, 1)} s; ratio ${(a.p99 / Math.max(b.p99, 0.001)).toFixed(4)} (target p99 <= 50 ms)`
    )
  }
}

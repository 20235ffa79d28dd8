// kill -9 inside the cache's writes: the real CLI syncs, reconciles and closes a session with a probe loaded into it
// (test/support/db-write-probe.cjs) that kills it right after a chosen write statement, at points the run's seed picks
// across every write each command makes. Afterwards the cache passes SQLite's integrity check and holds, row for row in
// every table, exactly the last state a commit made (or the one whose commit was under way), never a part of a transaction;
// and the command run again finishes as it would have.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import { CLI, CLI_KEYCHAIN_SERVICE } from '../support/cli'
import { PROPERTY_SEED } from '../support/property'
import { PROJECT_ROOT } from '../support/renderer-harness'

const { stateHash } = createRequire(import.meta.url)('../support/db-state.cjs') as { stateHash(db: Database.Database): string }
const PROBE = join(PROJECT_ROOT, 'test/support/db-write-probe.cjs')
const TRIALS = 6

let sandbox: Sandbox
beforeAll(async () => {
  sandbox = await startSandbox({ payments: 300, rateLimits: false, seed: 5, maxPageSize: 50 })
})
afterAll(() => sandbox.close())

type Step = 'sync' | 'reconcile' | 'close'
let packs = 0
const STEPS: Step[] = ['sync', 'reconcile', 'close']

/** A workspace: its cache, a statement, where reports go. */
function workspace(): { dir: string; cache: string; statement: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-killed-writes-'))
  const statement = join(dir, 'october.csv')
  writeFileSync(statement, 'Date,Reference,Description,Amount\n2026-10-29,X-1,Card,1000.00\n2026-10-30,,SMS ALERT CHARGES,-52.50\n')
  mkdirSync(join(dir, 'out'))
  return { dir, cache: join(dir, 'cache.sqlite'), statement }
}

/** The CLI's arguments for a step (close needs the session reconcile made). */
async function argsOf(step: Step, w: ReturnType<typeof workspace>): Promise<string[]> {
  const db = ['--db', w.cache]
  if (step === 'sync') return ['sync', ...db, '--base-url', sandbox.baseUrl, '--resources', 'payments', '--no-pacing']
  if (step === 'reconcile')
    return [
      'reconcile',
      ...db,
      '--source',
      'payments',
      '--against',
      w.statement,
      '--currency',
      'NGN',
      '--from',
      '2026-10-29',
      '--to',
      '2026-10-30',
      '--out',
      join(w.dir, 'out', 'report.csv')
    ]
  const listed = JSON.parse((await cli(['sessions', ...db, '--json'])).stdout) as { id: string }[]
  return ['close', ...db, '--session', listed[0]?.id as string, '--evidence', join(w.dir, 'out', `pack-${++packs}.zip`)]
}

/** Runs the CLI (with the probe when `probe` is given) and returns how it ended. Never synchronously: the Sandbox answers from this process. */
function cli(
  args: string[],
  probe?: { log: string; killAt: number }
): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...(probe ? ['--require', PROBE] : []), CLI, ...args], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      LEDGERLINE_API_KEY: sandbox.keys.test,
      LEDGERLINE_KEYCHAIN_SERVICE: CLI_KEYCHAIN_SERVICE,
      ...(probe ? { LEDGERLINE_PROBE_LOG: probe.log, LEDGERLINE_KILL_AT_RUN: String(probe.killAt) } : {})
    }
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }))
  })
}

/** The cache's whole state, read without Ledgerline (which would write as it opens), after SQLite's own check. */
function cacheState(file: string): { integrity: string; hash: string } | null {
  if (!existsSync(file)) return null
  const db = new Database(file)
  try {
    return { integrity: String(db.pragma('integrity_check', { simple: true })), hash: stateHash(db) }
  } finally {
    db.close()
  }
}

/** The states the cache may hold after a kill: the last one committed, and the one whose commit was under way. */
function allowed(log: string, before: string | null): { writes: number; states: (string | null)[] } {
  let committed = before
  let pending: string | null = null
  let writes = 0
  for (const line of existsSync(log) ? readFileSync(log, 'utf8').split('\n') : []) {
    if (line.startsWith('R ')) writes = Number(line.slice(2))
    else if (line.startsWith('P ')) pending = line.slice(2)
    else if (line === 'C' && pending !== null) {
      committed = pending
      pending = null
    }
  }
  return { writes, states: pending === null ? [committed] : [committed, pending] }
}

describe('the cache killed inside its writes', { timeout: 600_000 }, () => {
  it(`holds exactly its last committed state after kill -9 at ${TRIALS} points inside sync, reconcile and close, and each command then finishes`, async () => {
    // Once through without a kill: how many writes each step makes, and how each ends.
    const base = workspace()
    const writes = new Map<Step, number>()
    const ends = new Map<Step, number | null>()
    for (const step of STEPS) {
      const log = join(base.dir, `${step}.log`)
      const run = await cli(await argsOf(step, base), { log, killAt: 0 })
      expect(run.signal, `${step}: ${run.stderr}`).toBeNull()
      expect([0, 1], `${step}: ${run.stderr}`).toContain(run.status)
      ends.set(step, run.status)
      writes.set(step, allowed(log, null).writes)
    }
    for (const step of STEPS) expect(writes.get(step), step).toBeGreaterThan(2)

    // Kill points: each step, and a write inside it the run's seed picks (the first and the last included over the trials).
    const picks = fc.sample(fc.tuple(fc.constantFrom(...STEPS), fc.double({ min: 0, max: 1, noNaN: true })), {
      numRuns: TRIALS,
      seed: PROPERTY_SEED
    })
    const trials = picks.map(([step, at], k) => {
      const total = writes.get(step) as number
      return { step, killAt: k === 0 ? 1 : k === 1 ? total : 1 + Math.min(total - 1, Math.floor(at * total)) }
    })
    const wrong: string[] = []
    for (const { step, killAt } of trials) {
      const w = workspace()
      for (const earlier of STEPS.slice(0, STEPS.indexOf(step)))
        expect((await cli(await argsOf(earlier, w))).status, earlier).toBe(ends.get(earlier))
      const before = cacheState(w.cache)
      const log = join(w.dir, 'probe.log')
      const killed = await cli(await argsOf(step, w), { log, killAt })
      const where = `${step}, killed after write ${killAt} of ${writes.get(step)} (seed ${PROPERTY_SEED})`
      if (killed.signal !== 'SIGKILL') {
        wrong.push(`${where}: not killed (${killed.status}: ${killed.stderr})`)
        continue
      }
      const after = cacheState(w.cache)
      const { states } = allowed(log, before?.hash ?? null)
      if (after?.integrity !== undefined && after.integrity !== 'ok') wrong.push(`${where}: integrity check says ${after.integrity}`)
      if (!states.includes(after?.hash ?? null)) wrong.push(`${where}: the cache holds a state no commit made`)
      // Run again, it finishes as it would have; and so do the steps after it.
      for (const next of STEPS.slice(STEPS.indexOf(step))) {
        const again = await cli(await argsOf(next, w))
        if (again.status !== ends.get(next))
          wrong.push(`${where}: ${next} then ended ${again.status}, not ${ends.get(next)}: ${again.stderr}`)
      }
    }
    expect(wrong).toEqual([])
  })
})

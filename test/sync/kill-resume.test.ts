// Kill the real sync process at random points during a 100k-payment sync, then finish: every payment exactly once.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { startSandbox, type Sandbox } from '../../src/main/sandbox/server'
import { stream } from '../../src/main/sandbox/random'
import { runCli } from '../support/cli'

const PAYMENTS = 100_000
let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startSandbox({ payments: PAYMENTS, rateLimits: false, seed: 3 })
})
afterAll(() => sandbox.close())

describe('sync survives being killed', () => {
  it('resumes after 12 random SIGKILLs and ends with every payment exactly once', { timeout: 600_000 }, async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'ledgerline-kill-')), 'cache.sqlite')
    const args = ['sync', '--db', db, '--base-url', sandbox.baseUrl, '--resources', 'payments', '--no-pacing', '--json']
    const env = { LEDGERLINE_API_KEY: sandbox.keys.test }
    const random = stream(20261122)
    const seen: number[] = []
    let killed = 0
    for (let i = 0; i < 12; i++) {
      const run = await runCli(args, env, { killAfterMs: 700 + Math.floor(random() * 4000) })
      if (run.signal === 'SIGKILL') killed++
      const check = openCache(db)
      seen.push((check.prepare('select count(*) as n from payments').get() as { n: number }).n)
      check.close()
    }
    expect(killed).toBeGreaterThanOrEqual(10)
    // Progress is kept across kills: the count never goes down.
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    const final = await runCli(args, env, { timeoutMs: 300_000 })
    expect(final.code, final.stderr).toBe(0)

    const check = openCache(db)
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok')
    expect((check.prepare('select count(*) as n from payments').get() as { n: number }).n).toBe(PAYMENTS)
    // Against the server's own records: every seeded id, with the status the server gives it.
    const state = sandbox.state('test')
    const cached = new Map((check.prepare('select id, status_raw from payments').all() as { id: string; status_raw: string }[]).map((r) => [r.id, r.status_raw]))
    const missing: number[] = []
    for (let index = 0; index < PAYMENTS; index++) {
      const expected = state.seededPayment(index)
      if (cached.get(expected['id'] as string) !== expected['status']) missing.push(index)
    }
    expect(missing).toEqual([])
    const fts = check.prepare("select count(*) as n from payments_fts where payments_fts match '\"TST\"*'").get() as { n: number }
    expect(fts.n).toBe(PAYMENTS)
    check.close()
  })
})

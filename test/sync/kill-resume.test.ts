// Kill the real sync process a dozen times in the middle of a 100k-payment sync, each after a chosen number of pages are
// committed (read from the cache), then finish: every payment exactly once. Nothing here waits for a time to pass.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { openDatabase } from '../../src/main/cache/sqlite'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import { stream } from '../../src/sandbox/random'
import { runCli, startCli } from '../support/cli'

const PAYMENTS = 100_000
const KILLS = 12
/** The Sandbox's page size: pages are counted in it. */
const PAGE = 50
let sandbox: Sandbox

beforeAll(async () => {
  sandbox = await startSandbox({ payments: PAYMENTS, rateLimits: false, seed: 3, maxPageSize: PAGE })
})
afterAll(() => sandbox.close())

/** The payments the cache holds and the records its full walk has committed so far (0 before the cache exists). */
function progress(db: string): { payments: number; committed: number } {
  let reader
  try {
    reader = openDatabase(db, { readonly: true })
  } catch {
    return { payments: 0, committed: 0 }
  }
  try {
    const committed = reader.prepare("select next_offset from sync_state where resource = 'payments:full' and scope = ''").pluck().get() as
      number | undefined
    return { payments: reader.prepare('select count(*) from payments').pluck().get() as number, committed: committed ?? 0 }
  } catch {
    // The schema is not there yet: the process is still creating the cache.
    return { payments: 0, committed: 0 }
  } finally {
    reader.close()
  }
}

describe('sync survives being killed', () => {
  it(
    `resumes after ${KILLS} SIGKILLs, each a chosen number of pages into the sync, and ends with every payment exactly once`,
    { timeout: 600_000 },
    async () => {
      const db = join(mkdtempSync(join(tmpdir(), 'ledgerline-kill-')), 'cache.sqlite')
      const args = ['sync', '--db', db, '--base-url', sandbox.baseUrl, '--resources', 'payments', '--no-pacing', '--json']
      const env = { LEDGERLINE_API_KEY: sandbox.keys.test }
      const random = stream(20261122)
      let before = { payments: 0, committed: 0 }
      for (let round = 0; round < KILLS; round++) {
        // Kill once `pages` more pages are committed. The Sandbox answers a few more requests than that (so the process
        // may be writing the next page when the kill lands) and holds the rest: the sync cannot finish before the kill.
        const pages = 1 + Math.floor(random() * 120)
        const target = before.committed + pages * PAGE
        sandbox.faults.holdAfter(pages + 3)
        const { child, ended } = startCli(args, env, { timeoutMs: 300_000 })
        await expect
          .poll(() => progress(db).committed, {
            timeout: 120_000,
            interval: 20,
            message: `round ${round}: waiting for ${pages} more page(s) committed`
          })
          .toBeGreaterThanOrEqual(target)
        child.kill('SIGKILL')
        const run = await ended
        sandbox.faults.release()
        expect(run.signal, `round ${round}: the sync ended by itself (${run.code}): ${run.stderr}`).toBe('SIGKILL')
        const after = progress(db)
        // The kill landed mid-sync, and what was committed before it stayed committed.
        expect(after.payments, `round ${round}`).toBeGreaterThan(0)
        expect(after.payments, `round ${round}`).toBeLessThan(PAYMENTS)
        expect(after.payments, `round ${round}: progress went down`).toBeGreaterThanOrEqual(before.payments)
        expect(after.committed, `round ${round}: progress went down`).toBeGreaterThanOrEqual(target)
        before = after
      }

      const final = await runCli(args, env, { timeoutMs: 300_000 })
      expect(final.code, final.stderr).toBe(0)

      const check = openCache(db)
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok')
      expect((check.prepare('select count(*) as n from payments').get() as { n: number }).n).toBe(PAYMENTS)
      // Against the server's own records: every seeded id, with the status the server gives it.
      const state = sandbox.state('test')
      const cached = new Map(
        (check.prepare('select id, status_raw from payments').all() as { id: string; status_raw: string }[]).map((r) => [
          r.id,
          r.status_raw
        ])
      )
      const missing: number[] = []
      for (let index = 0; index < PAYMENTS; index++) {
        const expected = state.seededPayment(index)
        if (cached.get(expected['id'] as string) !== expected['status']) missing.push(index)
      }
      expect(missing).toEqual([])
      const fts = check.prepare('select count(*) as n from payments_fts where payments_fts match \'"TST"*\'').get() as { n: number }
      expect(fts.n).toBe(PAYMENTS)
      check.close()
    }
  )
})

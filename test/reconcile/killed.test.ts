// A reconcile killed at any point (kill -9) leaves the cache with the session run, or with no session at all, never one half-made; and the report it was writing leaves no partial file once anything writes that report again.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { writeFileSafely } from '../../src/main/files/safe-file'

const CHILD = join(import.meta.dirname, '..', 'support', 'killed-reconcile-child.ts')

function killedAt(where: 'run' | 'report', dir: string): { cache: string; report: string } {
  const cache = join(dir, 'cache.sqlite')
  const report = join(dir, 'report.csv')
  const child = spawnSync(process.execPath, ['--import', 'tsx', CHILD, where, cache, report], { encoding: 'utf8' })
  expect(child.signal, child.stderr).toBe('SIGKILL')
  return { cache, report }
}

describe('a reconcile killed midway', () => {
  it('leaves no session when killed inside the run: the creation and the run are one transaction', () => {
    const { cache } = killedAt('run', mkdtempSync(join(tmpdir(), 'ledgerline-killed-')))
    const db = openCache(cache)
    expect(db.prepare('select count(*) from recon_sessions').pluck().get()).toBe(0)
    expect(db.prepare('select count(*) from recon_items').pluck().get()).toBe(0)
    expect(db.prepare('select count(*) from recon_events').pluck().get()).toBe(0)
    // The statement imported before it is kept.
    expect(db.prepare('select count(*) from recon_files').pluck().get()).toBe(1)
    db.close()
  })

  it('leaves its session run when killed while writing the report, and no partial report once the report is written again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-killed-'))
    const { cache, report } = killedAt('report', dir)
    const db = openCache(cache)
    expect(db.prepare('select count(*) from recon_sessions where last_run_at is not null').pluck().get()).toBe(1)
    expect(db.prepare('select count(*) from recon_sessions where last_run_at is null').pluck().get()).toBe(0)
    db.close()
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toHaveLength(1)
    // A partial file of a writer still running is left alone; the dead one's is removed.
    const live = join(dir, `.report.csv.${process.pid}-0123456789abcdef01234567.partial`)
    writeFileSync(live, 'mine')
    await writeFileSafely(report, (fd) => {
      writeFileSync(fd, 'outcome\n')
    })
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([`.report.csv.${process.pid}-0123456789abcdef01234567.partial`])
  })
})

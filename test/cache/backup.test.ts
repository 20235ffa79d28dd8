// Backups of the cache: taken online and checked, restored after a simulated loss with the cache as it was kept aside, refused when the file is not a sound Ledgerline cache (the cache untouched), taken before a migration, rotated as promised (a property), and a backup killed midway leaves nothing that looks like a backup.
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  backupCache,
  backupFolder,
  backupName,
  checkBackup,
  keptByRotation,
  listBackups,
  restoreCache,
  ROTATION,
  rotateBackups
} from '../../src/main/cache/backup'
import { openCache } from '../../src/main/cache/open'
import { isAppError } from '../../src/main/errors'
import { countSessions } from '../../src/main/reconcile/sessions'
import { propertyRuns } from '../support/property'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'cache')

function cacheWithProfile(): { dir: string; file: string; db: Database.Database } {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-backup-'))
  const file = join(dir, 'cache.sqlite')
  const db = openCache(file)
  db.prepare("insert into profiles (id, name, base_url, mode, created_at) values ('p1', 'Acme', null, 'test', '2026-01-01')").run()
  return { dir, file, db }
}

const refusal = (work: () => unknown): string => {
  try {
    work()
  } catch (error) {
    if (isAppError(error, 'backup_invalid')) return error.message
    throw error
  }
  throw new Error('not refused')
}

describe('a backup of the cache', () => {
  it('is a checked, self-contained copy taken while the cache is open, and restores the cache after a loss, keeping the cache as it was aside', async () => {
    const { file, db } = cacheWithProfile()
    const backup = await backupCache(db, { reason: 'manual', now: new Date('2026-11-20T09:00:00Z') })
    expect(backup).toMatchObject({ reason: 'manual', profiles: 1, schema: db.pragma('user_version', { simple: true }) })
    expect(backup.name).toBe('cache-2026-11-20T09-00-00-000Z-manual.sqlite')
    // One file: no write-ahead log beside it.
    expect(readdirSync(backupFolder(file))).toEqual([backup.name])
    // A loss: the profile deleted by mistake.
    db.prepare("delete from profiles where id = 'p1'").run()
    const { restored, keptAside } = await restoreCache(db, backup.path, { now: new Date('2026-11-21T09:00:00Z') })
    expect(restored.profiles).toBe(1)
    expect(db.prepare('select name from profiles').pluck().all()).toEqual(['Acme'])
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(keptAside).toMatchObject({ reason: 'before-restore', profiles: 0 })
    expect(listBackups(file).map((b) => [b.reason, b.profiles])).toEqual([
      ['before-restore', 0],
      ['manual', 1]
    ])
    db.close()
    // Opened again: sound, and the restored content.
    const again = openCache(file)
    expect(again.prepare('select name from profiles').pluck().all()).toEqual(['Acme'])
    again.close()
  })

  it('refuses a file that is not a sound Ledgerline cache of a schema this version reads, and leaves the cache as it was', async () => {
    const { dir, db } = cacheWithProfile()
    const text = join(dir, 'notes.txt')
    writeFileSync(text, 'not a database at all, just words\n'.repeat(200))
    expect(refusal(() => checkBackup(text))).toMatch(/notes\.txt is not a Ledgerline backup: file is not a database/)
    expect(refusal(() => checkBackup(join(dir, 'missing.sqlite')))).toMatch(/there is no such file/)
    const other = join(dir, 'other.sqlite')
    new Database(other).exec('create table t (x); insert into t values (1)').close()
    expect(refusal(() => checkBackup(other))).toMatch(/an SQLite file, but not a Ledgerline cache/)
    const backup = await backupCache(db, { reason: 'manual', to: join(dir, 'copy.sqlite') })
    const newer = join(dir, 'newer.sqlite')
    copyFileSync(backup.path, newer)
    new Database(newer).pragma('user_version = 999')
    expect(refusal(() => checkBackup(newer))).toMatch(/written by a newer Ledgerline \(schema version 999/)
    const cut = join(dir, 'cut.sqlite')
    copyFileSync(backup.path, cut)
    truncateSync(cut, Math.floor(readFileSync(cut).length / 3))
    expect(refusal(() => checkBackup(cut))).toMatch(/cut\.sqlite (is damaged|is not a Ledgerline backup)/)
    for (const bad of [text, other, newer, cut]) {
      await expect(restoreCache(db, bad)).rejects.toMatchObject({ code: 'backup_invalid' })
      expect(db.prepare('select name from profiles').pluck().all()).toEqual(['Acme'])
    }
    // Refused before anything was kept aside: no backup was taken.
    expect(existsSync(backupFolder(db.name))).toBe(false)
    db.close()
  })

  it('is listed without reading every page, and one damaged in its folder since it was written is refused at its restore', async () => {
    const { file, db } = cacheWithProfile()
    db.exec('create table filler (x blob)')
    const fill = db.prepare('insert into filler (x) values (randomblob(4000))')
    db.transaction(() => {
      for (let i = 0; i < 200; i++) fill.run()
    })()
    const backup = await backupCache(db, { reason: 'manual', now: new Date('2026-11-20T09:00:00Z') })
    // A disk error inside the file's pages after it was checked and named: the folder's list still reads its facts...
    const bytes = readFileSync(backup.path)
    bytes.fill(0xa5, Math.floor(bytes.length / 2), Math.floor(bytes.length / 2) + 8192)
    writeFileSync(backup.path, bytes)
    expect(listBackups(file).map((b) => b.name)).toEqual([backup.name])
    // ...and the restore, which reads every page first, refuses it with the cache untouched.
    expect(refusal(() => checkBackup(backup.path))).toMatch(/is damaged|is not a Ledgerline backup/)
    await expect(restoreCache(db, backup.path)).rejects.toMatchObject({ code: 'backup_invalid' })
    expect(db.prepare('select name from profiles').pluck().all()).toEqual(['Acme'])
    db.close()
  })

  it('is taken before a migration changes the cache, holding the cache as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-backup-'))
    const file = join(dir, 'cache.sqlite')
    copyFileSync(join(FIXTURES, 'v18.sqlite'), file)
    const db = openCache(file)
    const [snapshot] = listBackups(file, { sessions: countSessions })
    expect(snapshot).toMatchObject({ reason: 'before-migration', schema: 18 })
    expect(snapshot?.sessions).toBe(db.prepare('select count(*) from recon_sessions').pluck().get())
    db.close()
    // Opened again, nothing to migrate: no second backup.
    openCache(file).close()
    expect(listBackups(file)).toHaveLength(1)
  })
})

describe('the rotation', () => {
  it('keeps the newest 3, the newest of each of the last 7 days with a backup and of each of the last 4 weeks, and lets go of the rest', () => {
    const start = Date.parse('2026-01-01T00:00:00Z')
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 120 * 24 * 60 }), { minLength: 1, maxLength: 80 }), (minutes) => {
        const backups = minutes.map((m) => {
          const at = new Date(start + m * 60_000)
          return { name: backupName('cache.sqlite', 'daily', at), takenAt: at.toISOString() }
        })
        const kept = keptByRotation(backups)
        const newestFirst = [...backups].sort((a, b) => (a.takenAt < b.takenAt ? 1 : -1))
        for (const b of newestFirst.slice(0, ROTATION.newest)) expect(kept.has(b.name)).toBe(true)
        const days = [...new Set(newestFirst.map((b) => b.takenAt.slice(0, 10)))].slice(0, ROTATION.daily)
        for (const day of days) expect(kept.has((newestFirst.find((b) => b.takenAt.startsWith(day)) as { name: string }).name)).toBe(true)
        expect(kept.size).toBeLessThanOrEqual(ROTATION.newest + ROTATION.daily + ROTATION.weekly)
        // Whatever is let go is neither among the newest nor the newest of a kept day.
        for (const b of backups) if (!kept.has(b.name)) expect(newestFirst.indexOf(b)).toBeGreaterThanOrEqual(ROTATION.newest)
      }),
      propertyRuns(300)
    )
  })

  it('removes only what it does not keep, and only backups of this cache', async () => {
    const { file, db } = cacheWithProfile()
    for (let day = 1; day <= 12; day++) await backupCache(db, { reason: 'daily', now: new Date(Date.UTC(2026, 10, day, 9)) })
    writeFileSync(join(backupFolder(file), 'other-2026-11-01T09-00-00-000Z-daily.sqlite'), '')
    const removed = rotateBackups(file)
    // 1 November 2026 is a Sunday: the newest of its week, kept as one of the last four weeks'.
    expect(removed.sort()).toEqual([2, 3, 4, 5].map((d) => `cache-2026-11-0${d}T09-00-00-000Z-daily.sqlite`))
    expect(listBackups(file).map((b) => b.takenAt?.slice(0, 10))).toEqual([
      '2026-11-12',
      '2026-11-11',
      '2026-11-10',
      '2026-11-09',
      '2026-11-08',
      '2026-11-07',
      '2026-11-06',
      '2026-11-01'
    ])
    expect(readdirSync(backupFolder(file))).toContain('other-2026-11-01T09-00-00-000Z-daily.sqlite')
    db.close()
  })
})

describe('a backup killed midway', () => {
  it('leaves no file that looks like a backup, the cache sound, and the next backup clears what it left', async () => {
    const { dir, file, db } = cacheWithProfile()
    // Enough pages that the copy takes many steps.
    db.exec('create table filler (x blob)')
    const fill = db.prepare('insert into filler (x) values (randomblob(4000))')
    db.transaction(() => {
      for (let i = 0; i < 20_000; i++) fill.run()
    })()
    db.close()
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '..', 'support', 'killed-backup-child.ts'), file],
      {
        encoding: 'utf8'
      }
    )
    expect(child.signal, child.stderr).toBe('SIGKILL')
    expect(listBackups(file)).toEqual([])
    expect(readdirSync(backupFolder(file)).filter((n) => n.endsWith('.partial'))).toHaveLength(1)
    const reopened = openCache(file)
    expect(reopened.prepare('select count(*) from filler').pluck().get()).toBe(20_000)
    const next = await backupCache(reopened, { reason: 'manual' })
    expect(readdirSync(backupFolder(file))).toEqual([next.name])
    reopened.close()
    expect(dir).toBeTruthy()
  }, 120_000)
})

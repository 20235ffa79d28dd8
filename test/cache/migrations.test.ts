// The cache schema: each migration applies, only upward, atomically, and a newer database is refused.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkMigrationList, latestVersion, migrate, MIGRATIONS, type Migration } from '../../src/main/cache/migrations'
import { openCache } from '../../src/main/cache/open'
import { openDatabase } from '../../src/main/cache/sqlite'

const tempFile = (): string => join(mkdtempSync(join(tmpdir(), 'ledgerline-cache-')), 'cache.sqlite')
const tables = (db: ReturnType<typeof openDatabase>): string[] =>
  (db.prepare("select name from sqlite_master where type = 'table' order by name").all() as { name: string }[]).map((r) => r.name)

describe('migration list', () => {
  it('is numbered 1..N with no gaps', () => {
    expect(() => checkMigrationList(MIGRATIONS)).not.toThrow()
    expect(latestVersion()).toBe(MIGRATIONS.length)
    expect(() => checkMigrationList([{ version: 2, name: 'gap', up: () => {} }])).toThrow(/expected 1/)
  })
})

describe('migration 1: profiles, cached records, sync state', () => {
  it('creates every table with profile scoping, and sets user_version', () => {
    const db = openDatabase(':memory:')
    expect(migrate(db, MIGRATIONS.slice(0, 1))).toEqual({ from: 0, to: 1 })
    expect(db.pragma('user_version', { simple: true })).toBe(1)
    expect(tables(db)).toEqual(
      [
        'banks',
        'bulk_files',
        'payments',
        'plans',
        'profiles',
        'settings',
        'subscriptions',
        'sync_failures',
        'sync_state',
        'tracked',
        'transfers',
        'virtual_accounts'
      ].sort()
    )
    for (const table of tables(db).filter((t) => t !== 'profiles' && t !== 'settings')) {
      const columns = (db.prepare(`pragma table_info(${table})`).all() as { name: string }[]).map((c) => c.name)
      expect(columns, table).toContain('profile_id')
      if (!['sync_state', 'sync_failures', 'tracked', 'bulk_files'].includes(table)) expect(columns, table).toContain('raw')
    }
    db.close()
  })

  it('keeps records of different profiles apart and removes them with their profile', () => {
    const db = openDatabase(':memory:')
    db.pragma('foreign_keys = ON')
    migrate(db)
    const addProfile = db.prepare("insert into profiles (id, name, base_url, mode, created_at) values (?, ?, ?, ?, '2026-01-01')")
    addProfile.run('p-test', 'Acme test', 'https://api.example/v1', 'test')
    addProfile.run('p-live', 'Acme live', 'https://api.example/v1', 'live')
    const addPayment = db.prepare(
      `insert into payments (profile_id, id, amount_raw, amount_minor, currency, status, status_raw, is_final, created_at, raw, fetched_at_ms)
       values (?, ?, '5', 500, 'NGN', 'successful', 'SUCCESS', 1, '2026-01-01T00:00:00Z', '{}', 0)`
    )
    addPayment.run('p-test', 'pay-1')
    addPayment.run('p-live', 'pay-1')
    expect(() => addPayment.run('p-test', 'pay-1')).toThrow(/UNIQUE/)
    expect(() => addPayment.run('no-such-profile', 'pay-2')).toThrow(/FOREIGN KEY/)
    expect(() => addProfile.run('p-x', 'Bad mode', null, 'staging')).toThrow(/CHECK/)
    expect(() =>
      db
        .prepare(
          "insert into payments (profile_id, id, amount_raw, amount_minor, currency, status, status_raw, is_final, created_at, raw, fetched_at_ms) values ('p-test', 'p3', '0.015', 1.5, 'NGN', 's', 's', 1, 'x', '{}', 0)"
        )
        .run()
    ).toThrow(/cannot store REAL|datatype/i)
    db.prepare("delete from profiles where id = 'p-test'").run()
    expect(db.prepare('select profile_id from payments').all()).toEqual([{ profile_id: 'p-live' }])
    db.close()
  })
})

describe('migration 2: full-text search indexes', () => {
  it('indexes existing rows and keeps the index in step with inserts, updates and deletes', () => {
    const db = openDatabase(':memory:')
    migrate(db, MIGRATIONS.slice(0, 1))
    db.prepare("insert into profiles (id, name, mode, created_at) values ('p', 'P', 'test', 'x')").run()
    const add = db.prepare(
      `insert into payments (profile_id, id, reference, customer_name, amount_raw, amount_minor, currency, status, status_raw, is_final, created_at, raw, fetched_at_ms)
       values ('p', ?, ?, ?, '1', 100, 'NGN', 'successful', 'successful', 1, 'x', '{}', 0)`
    )
    add.run('before', 'INV-0001', 'Adaeze Okafor')
    migrate(db, MIGRATIONS.slice(0, 2))
    expect(db.pragma('user_version', { simple: true })).toBe(2)
    const find = (q: string): string[] =>
      (
        db
          .prepare('select p.id from payments_fts f join payments p on p.rowid = f.rowid where payments_fts match ? order by p.id')
          .all(q) as { id: string }[]
      ).map((r) => r.id)
    expect(find('okafor')).toEqual(['before'])
    add.run('after', 'INV-0002', 'Kwame Mensah')
    expect(find('"INV-0002"')).toEqual(['after'])
    expect(find('adaeze')).toEqual(['before'])
    db.prepare("update payments set customer_name = 'Ama Owusu' where id = 'before'").run()
    expect(find('okafor')).toEqual([])
    expect(find('owusu')).toEqual(['before'])
    db.prepare("delete from payments where id = 'after'").run()
    expect(find('mensah')).toEqual([])
    expect(find('INV*')).toEqual(['before'])
    for (const table of ['payments', 'transfers', 'subscriptions', 'plans']) expect(tables(db)).toContain(`${table}_fts`)
    db.close()
  })
})

describe('migrate', () => {
  it('does nothing on an up-to-date database and is safe to run on every open', () => {
    const file = tempFile()
    openCache(file).close()
    const db = openCache(file)
    expect(migrate(db)).toEqual({ from: latestVersion(), to: latestVersion() })
    db.close()
  })

  it('refuses a database written by a newer Ledgerline, leaving it untouched', () => {
    const file = tempFile()
    const db = openDatabase(file)
    db.pragma('user_version = 99')
    db.exec('create table future (x)')
    db.close()
    expect(() => openCache(file)).toThrow(expect.objectContaining({ code: 'cache_too_new' }))
    const again = openDatabase(file)
    expect(again.pragma('user_version', { simple: true })).toBe(99)
    expect(tables(again)).toEqual(['future'])
    again.close()
  })

  it('rolls a failing migration back completely and keeps the last version that applied', () => {
    const db = openDatabase(':memory:')
    const failing: Migration[] = [
      ...MIGRATIONS,
      {
        version: MIGRATIONS.length + 1,
        name: 'half done',
        up: (d) => {
          d.exec('create table half_done (x)')
          throw new Error('disk full')
        }
      }
    ]
    expect(() => migrate(db, failing)).toThrow(/disk full/)
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length)
    expect(tables(db)).not.toContain('half_done')
    db.close()
  })
})

describe('openCache', () => {
  it('uses WAL and foreign keys on a file database', () => {
    const db = openCache(tempFile())
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion())
    db.close()
  })

  it('reports a file that is not a database clearly', () => {
    const file = tempFile()
    writeFileSync(file, 'this is a spreadsheet, not a database'.repeat(200))
    expect(() => openCache(file)).toThrow(expect.objectContaining({ code: expect.stringMatching(/^cache_(unavailable|damaged)$/) }))
  })
})

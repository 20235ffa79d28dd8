// A cache left open by a process that died (kill -9, a power cut) is checked in full at its next open: damage quick_check cannot see (an index that no longer matches its table) is found then, and said; a cache closed cleanly opens with the quick check only, and that once in 24 hours.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { openDatabase } from '../../src/main/cache/sqlite'

/** A cache whose one value was changed in its table page but not in its index: a bit flip SQLite's quick_check does not see. */
function cacheWithStaleIndex(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-unclean-')), 'cache.sqlite')
  const db = openCache(file)
  db.exec('create table ledger_probe (key text); create index ledger_probe_key on ledger_probe (key)')
  const insert = db.prepare('insert into ledger_probe (key) values (?)')
  for (let k = 1; k <= 200; k++) insert.run(`probe-${String(k).padStart(4, '0')}`)
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  const bytes = readFileSync(file)
  // "probe-0200" is the largest key: made "probe-0201" in the table only, the index keeps its order and loses its match.
  const at = bytes.indexOf('probe-0200')
  bytes.write('probe-0201', at, 'latin1')
  writeFileSync(file, bytes)
  return file
}

/** Lists a process that is not running as having the cache open, as one killed while it had it open leaves it. */
function leftOpenByTheDead(file: string): void {
  const db = openDatabase(file)
  db.prepare("update settings set value = ? where key = 'cache.open_by'").run(JSON.stringify([2 ** 22 + 12_345]))
  db.close()
}

describe('opening a cache after an unclean shutdown', () => {
  it('opens a cache closed cleanly with the quick check only, which does not see the stale index', () => {
    const file = cacheWithStaleIndex()
    const db = openCache(file)
    expect(db.pragma('quick_check', { simple: true })).toBe('ok')
    expect(String(db.pragma('integrity_check', { simple: true }))).toMatch(/ledger_probe_key/)
    db.close()
  })

  it('checks the whole file when a process that had it open died without closing it, says what is damaged, and refuses it at every open', () => {
    // Checked whole today (its first open): the full check runs all the same, and a refusal leaves the dead process listed.
    const file = cacheWithStaleIndex()
    leftOpenByTheDead(file)
    for (let open = 1; open <= 2; open++)
      expect(() => openCache(file)).toThrow(
        /is damaged \(.*ledger_probe_key.*\); it was last left open by a program that stopped without closing it/
      )
  })

  it('takes its process off the list when it closes the cache, and a cache left open but sound opens after the full check', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-unclean-')), 'cache.sqlite')
    const db = openCache(file)
    const listed = (): number[] => {
      const read = openDatabase(file)
      const pids = JSON.parse(read.prepare("select value from settings where key = 'cache.open_by'").pluck().get() as string) as number[]
      read.close()
      return pids
    }
    expect(listed()).toEqual([process.pid])
    db.close()
    expect(listed()).toEqual([])
    leftOpenByTheDead(file)
    const again = openCache(file)
    expect(listed()).toEqual([process.pid])
    again.close()
  })

  it('checks the file (quick_check) once in 24 hours, and finds a damaged page then', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-unclean-')), 'cache.sqlite')
    const opened = Date.now()
    const db = openCache(file)
    db.exec('create table ledger_probe (key text)')
    const insert = db.prepare('insert into ledger_probe (key) values (?)')
    for (let k = 1; k <= 2000; k++) insert.run(`probe-${String(k).padStart(4, '0')}`)
    const page = db.pragma('page_size', { simple: true }) as number
    const root = db.prepare("select rootpage from sqlite_schema where name = 'ledger_probe'").pluck().get() as number
    db.pragma('wal_checkpoint(TRUNCATE)')
    db.close()
    const checkedAt = (): string => {
      const read = openDatabase(file)
      const at = read.prepare("select value from settings where key = 'cache.checked_at'").pluck().get() as string
      read.close()
      return at
    }
    const first = checkedAt()
    // Kept as the first open checked it.
    expect(Date.parse(first)).toBeGreaterThanOrEqual(opened)
    expect(Date.parse(first)).toBeLessThanOrEqual(Date.now())
    // The table's root page made no b-tree page at all: SQLite's quick_check sees it, opening the cache does not.
    const bytes = readFileSync(file)
    bytes[(root - 1) * page] = 0
    writeFileSync(file, bytes)
    // Checked within the day: opened without reading every page (the check's time is not renewed).
    openCache(file).close()
    expect(checkedAt()).toBe(first)
    // A day later, the first open checks the file and refuses it.
    const stale = openDatabase(file)
    stale.prepare("update settings set value = ? where key = 'cache.checked_at'").run(new Date(Date.now() - 25 * 3600_000).toISOString())
    stale.close()
    expect(() => openCache(file)).toThrow(/cache\.sqlite is damaged \([\s\S]*btreeInitPage/)
  })
})

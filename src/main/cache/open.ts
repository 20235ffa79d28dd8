// Opens (or creates) the cache database: WAL, foreign keys, a busy timeout, and the schema brought up to date.
import type Database from 'better-sqlite3'
import { AppError } from '../errors'
import { snapshotBeforeMigration } from './backup'
import { latestVersion, migrate } from './migrations'
import { openDatabase, type SqliteOptions } from './sqlite'
import { processRunning } from '../processes'

/** Blocks this thread for `ms` (start-up only: the cache is being opened, nothing else can run yet). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/**
 * Switches the file to WAL. When several processes (the app's host, the CLI) open a new cache at the
 * same moment, SQLite answers SQLITE_BUSY at once instead of waiting (waiting could deadlock), so
 * this retries briefly; once another process has switched the file, the pragma is a no-op.
 */
function enableWal(db: Database.Database, timeoutMs = 5_000): void {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      // In-memory databases answer "memory": there is no file to switch.
      db.pragma('journal_mode = WAL')
      return
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error
    }
    if (Date.now() > deadline)
      throw new AppError(
        'cache_busy',
        'The cache database is busy in another program (could not switch it to WAL mode); close it and try again.'
      )
    sleepSync(5 + Math.floor(Math.random() * 45))
  }
}

/**
 * PRAGMA quick_check, read from one snapshot of the file. quick_check connects every FTS5 table, and FTS5 reads its
 * shadow tables (`…_config`) while it connects, at the moment it connects. The schema the connection holds was read
 * earlier: when another process (the app's host, the CLI) commits a migration in between, the shadow-table read finds
 * the schema changed and fails (SQLITE_SCHEMA). SQLite prepares the statement again once, after reading the schema
 * anew, and a second migration committed meanwhile failed it for good ("vtable constructor failed: subscriptions_fts").
 * Inside one read transaction the schema and the shadow tables come from the same snapshot, which no other process's
 * commit changes (WAL: the readers block no writer while they read).
 */
function quickCheck(db: Database.Database): string {
  db.exec('BEGIN')
  try {
    // The first read starts the snapshot; a schema read before it is read again inside it (SQLite sees the cookie changed).
    db.prepare('select count(*) from sqlite_schema').pluck().get()
    return String(db.pragma('quick_check', { simple: true }))
  } finally {
    db.exec('COMMIT')
  }
}

/** The settings key of when the cache was last checked whole (quick_check) and found sound. */
const CHECKED_AT = 'cache.checked_at'

/** How long a whole check holds: a quick_check reads the whole file (4.8 s for a cache of 1.6 GB), too long for every command. */
const CHECK_HOLDS_MS = 24 * 60 * 60 * 1000

/**
 * Whether the cache was checked whole and found sound within the last 24 hours: then it opens without
 * the check (unless its schema is to change; a process that died with it open has it checked in full
 * anyway). A cache that cannot say (new, or its settings unreadable) is checked.
 */
function checkedToday(db: Database.Database): boolean {
  try {
    const at = Date.parse((db.prepare('select value from settings where key = ?').pluck().get(CHECKED_AT) as string | undefined) ?? '')
    const age = Date.now() - at
    return age >= 0 && age < CHECK_HOLDS_MS
  } catch {
    return false
  }
}

const setSetting = (db: Database.Database, key: string, value: string): void => {
  db.prepare('insert into settings (key, value) values (?, ?) on conflict (key) do update set value = excluded.value').run(key, value)
}

/** The settings key that lists the processes that have the cache open. */
const OPEN_BY = 'cache.open_by'

const listedPids = (db: Database.Database): number[] =>
  JSON.parse((db.prepare('select value from settings where key = ?').pluck().get(OPEN_BY) as string | undefined) ?? '[]') as number[]

const listPids = (db: Database.Database, pids: number[]): void => setSetting(db, OPEN_BY, JSON.stringify(pids))

/** The other running processes (the app's host, another CLI) that have this cache open now. */
export function otherOpeners(db: Database.Database): number[] {
  return listedPids(db).filter((pid) => pid !== process.pid && processRunning(pid))
}

/** The caches this process has open: at its exit, each still open says it is done with (one hook, however many are opened). */
const openHere = new Set<Database.Database>()
let exitHooked = false

/** Takes this process off a cache's list; a cache that cannot be written then is checked in full at its next open, which is safe. */
function markClosed(db: Database.Database): void {
  openHere.delete(db)
  try {
    db.transaction(() =>
      listPids(
        db,
        listedPids(db).filter((pid) => pid !== process.pid)
      )
    ).immediate()
  } catch {
    // See above.
  }
}

/** Whether a process that had the cache open is gone without closing it: its process id is still listed, but no process of that id runs. */
function leftOpenByTheDead(db: Database.Database): boolean {
  return listedPids(db).some((pid) => pid !== process.pid && !processRunning(pid))
}

/** Notes this process as having the cache open (and the gone ones as not), until the cache is closed or the process exits. */
function markOpen(db: Database.Database): void {
  const mine = process.pid
  db.transaction(() => {
    const running = listedPids(db).filter((pid) => pid === mine || processRunning(pid))
    listPids(db, [...new Set([...running, mine])])
  }).immediate()
  const close = db.close.bind(db)
  db.close = () => {
    if (db.open) markClosed(db)
    return close()
  }
  openHere.add(db)
  if (!exitHooked) {
    exitHooked = true
    process.once('exit', () => {
      for (const open of [...openHere]) if (open.open) markClosed(open)
    })
  }
}

/** The page cache each connection to the cache may hold, in KiB (used as it fills, not reserved). */
const PAGE_CACHE_KB = 65_536

export function openCache(file: string, options: SqliteOptions = {}): Database.Database {
  let db: Database.Database
  try {
    db = openDatabase(file, options)
  } catch (error) {
    throw new AppError(
      'cache_unavailable',
      `The cache database ${file} could not be opened (${error instanceof Error ? error.message : String(error)}).`
    )
  }
  try {
    // First, so every step below waits for another process (the app, the CLI) instead of failing at once.
    db.pragma('busy_timeout = 5000')
    // WAL: readers never block the writer, and a killed process loses nothing that was committed.
    enableWal(db)
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    // A page cache of 64 MB, not SQLite's 2 MB: storing a run of a million items updates several
    // indexes of a file of gigabytes, and with 2 MB nearly every index page was read and spilled again for each item.
    db.pragma(`cache_size = -${PAGE_CACHE_KB}`)
    const from = db.pragma('user_version', { simple: true }) as number
    const migrating = from > 0 && from < latestVersion()
    // Checked whole once in 24 hours, and always before its schema changes.
    const checking = migrating || !checkedToday(db)
    if (checking) {
      const check = quickCheck(db)
      if (check !== 'ok') throw new AppError('cache_damaged', `The cache database ${file} is damaged (${check}).`)
    }
    // The cache as it was, kept before its schema changes.
    if (file !== ':memory:' && migrating) snapshotBeforeMigration(db, from)
    migrate(db)
    // A process that had the cache open and died without closing it (killed, a power cut): the whole file is checked,
    // indexes against their tables too, before the cache is used; until a check passes, it stays listed, so every open checks again.
    // Read and written inside IMMEDIATE transactions, as every write here: another process's migration cannot change the schema between.
    const unclean = file !== ':memory:' && db.transaction(() => leftOpenByTheDead(db)).immediate()
    if (unclean) {
      const full = String(db.pragma('integrity_check', { simple: true }))
      if (full !== 'ok')
        throw new AppError(
          'cache_damaged',
          `The cache database ${file} is damaged (${full}); it was last left open by a program that stopped without closing it. Move it aside: Ledgerline starts a new cache and syncs again.`
        )
    }
    if (checking || unclean) db.transaction(() => setSetting(db, CHECKED_AT, new Date().toISOString())).immediate()
    if (file !== ':memory:') markOpen(db)
    return db
  } catch (error) {
    db.close()
    if (error instanceof AppError) throw error
    throw new AppError(
      'cache_unavailable',
      `The cache database ${file} could not be prepared (${error instanceof Error ? error.message : String(error)}).`
    )
  }
}

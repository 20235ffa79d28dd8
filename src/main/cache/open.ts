// Opens (or creates) the cache database: WAL, foreign keys, a busy timeout, and the schema brought up to date.
import type Database from 'better-sqlite3'
import { AppError } from '../errors'
import { migrate } from './migrations'
import { openDatabase, type SqliteOptions } from './sqlite'

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
    const check = quickCheck(db)
    if (check !== 'ok') throw new AppError('cache_damaged', `The cache database ${file} is damaged (${check}).`)
    migrate(db)
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

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
    if (Date.now() > deadline) throw new AppError('cache_busy', 'The cache database is busy in another program (could not switch it to WAL mode); close it and try again.')
    sleepSync(5 + Math.floor(Math.random() * 45))
  }
}

export function openCache(file: string, options: SqliteOptions = {}): Database.Database {
  let db: Database.Database
  try {
    db = openDatabase(file, options)
  } catch (error) {
    throw new AppError('cache_unavailable', `The cache database ${file} could not be opened (${error instanceof Error ? error.message : String(error)}).`)
  }
  try {
    // First, so every step below waits for another process (the app, the CLI) instead of failing at once.
    db.pragma('busy_timeout = 5000')
    // WAL: readers never block the writer, and a killed process loses nothing that was committed.
    enableWal(db)
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    const check = db.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new AppError('cache_damaged', `The cache database ${file} is damaged (${String(check)}).`)
    migrate(db)
    return db
  } catch (error) {
    db.close()
    if (error instanceof AppError) throw error
    throw new AppError('cache_unavailable', `The cache database ${file} could not be prepared (${error instanceof Error ? error.message : String(error)}).`)
  }
}

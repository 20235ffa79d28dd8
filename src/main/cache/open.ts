// Opens (or creates) the cache database: WAL, foreign keys, a busy timeout, and the schema brought up to date.
import type Database from 'better-sqlite3'
import { AppError } from '../errors'
import { migrate } from './migrations'
import { openDatabase, type SqliteOptions } from './sqlite'

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
    db.pragma('journal_mode = WAL')
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

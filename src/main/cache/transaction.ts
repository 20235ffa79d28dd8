// One transaction held across awaits, for a process that has the cache's connection to itself (the CLI): its long work pauses for Ctrl+C, and a cancel rolls all of it back.
import type Database from 'better-sqlite3'

/**
 * Runs `work` inside one transaction that stays open while it awaits: committed when it returns,
 * rolled back when it throws (a cancel among it). Only for a connection nothing else uses meanwhile:
 * a statement run on it by other code while `work` waits would join the transaction. better-sqlite3's
 * own transactions inside it become savepoints.
 */
export async function transactionAcrossAwaits<T>(db: Database.Database, work: () => Promise<T>): Promise<T> {
  if (db.inTransaction) throw new Error('transactionAcrossAwaits: the connection is already in a transaction')
  db.exec('BEGIN IMMEDIATE')
  try {
    const result = await work()
    db.exec('COMMIT')
    return result
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK')
    throw error
  }
}

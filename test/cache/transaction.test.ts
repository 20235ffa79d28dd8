// One transaction held across awaits (the CLI's reconcile): committed when its work returns, rolled back whole when it throws (a cancel), better-sqlite3's own transactions inside it as savepoints.
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { transactionAcrossAwaits } from '../../src/main/cache/transaction'
import { finishPausing, pauseFor } from '../../src/main/jobs/pause'

function table(): Database.Database {
  const db = new Database(':memory:')
  db.exec('create table t (n integer)')
  return db
}
const rows = (db: Database.Database): number[] => db.prepare('select n from t order by n').pluck().all() as number[]

function* inserting(db: Database.Database, upTo: number): Generator<void, number> {
  for (let n = 1; n <= upTo; n++) {
    db.transaction(() => db.prepare('insert into t values (?)').run(n))()
    yield
  }
  return upTo
}

describe('a transaction across awaits', () => {
  it('commits what its work did, pausing between steps', async () => {
    const db = table()
    const signal = new AbortController().signal
    expect(await transactionAcrossAwaits(db, () => finishPausing(inserting(db, 3), pauseFor(signal)))).toBe(3)
    expect(rows(db)).toEqual([1, 2, 3])
    expect(db.inTransaction).toBe(false)
  })

  it('rolls all of it back when the work is cancelled between two steps, and the cancel is what the caller gets', async () => {
    const db = table()
    const controller = new AbortController()
    let steps = 0
    const pause = pauseFor(controller.signal)
    const work = (): Promise<number> =>
      finishPausing(inserting(db, 5), async () => {
        if (++steps === 2) controller.abort(new DOMException('cancelled', 'AbortError'))
        await pause()
      })
    await expect(transactionAcrossAwaits(db, work)).rejects.toMatchObject({ name: 'AbortError' })
    expect(steps).toBe(2)
    expect(rows(db)).toEqual([])
    expect(db.inTransaction).toBe(false)
  })

  it('is refused inside another transaction, which it would end', async () => {
    const db = table()
    db.exec('BEGIN')
    await expect(transactionAcrossAwaits(db, async () => 1)).rejects.toThrow(/already in a transaction/)
    expect(db.inTransaction).toBe(true)
  })
})

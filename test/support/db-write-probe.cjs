// Loaded with `node --require` into a real Ledgerline process (the CLI) by test/cache/killed-writes.test.ts: counts the statements
// that write, kills the process (SIGKILL, as kill -9) right after the Nth of them (LEDGERLINE_KILL_AT_RUN), and before each
// commit logs the state about to be committed (a hash of every row of every table), then that it was committed
// (LEDGERLINE_PROBE_LOG). What the cache may hold after the kill is exactly one of those logged states.
const { appendFileSync } = require('node:fs')
const Database = require('better-sqlite3')
const { stateHash } = require('./db-state.cjs')

const killAt = Number(process.env.LEDGERLINE_KILL_AT_RUN || 0)
const log = process.env.LEDGERLINE_PROBE_LOG
let runs = 0

const note = (line) => log && appendFileSync(log, `${line}\n`)

const probe = new Database(':memory:')
const statementProto = Object.getPrototypeOf(probe.prepare('select 1'))
probe.close()
const run = statementProto.run
const depth = new WeakMap()

statementProto.run = function (...args) {
  const db = this.database
  // A write outside a transaction commits on its own: run it as a transaction of one, so it is logged like the others.
  if (!db.inTransaction && !/^\s*(pragma|vacuum|begin|commit|rollback|savepoint|release)\b/i.test(this.source))
    return db.transaction(() => this.run(...args))()
  const result = run.apply(this, args)
  runs++
  note(`R ${runs}`)
  if (runs === killAt) process.kill(process.pid, 'SIGKILL')
  return result
}

const transaction = Database.prototype.transaction
const exec = Database.prototype.exec
Database.prototype.transaction = function (fn) {
  // eslint-disable-next-line @typescript-eslint/no-this-alias -- the connection the transaction is of, kept for the wrappers below
  const db = this
  const body = function (...args) {
    depth.set(db, (depth.get(db) || 0) + 1)
    try {
      const result = fn.apply(this, args)
      if (depth.get(db) === 1) {
        // FTS5 keeps the terms of this transaction's rows in memory and writes them to its shadow tables (…_fts_data,
        // …_fts_idx) only as the transaction commits (xSync): a savepoint makes it write them now, as the commit would, so the
        // state hashed is the one the commit makes. exec, not the wrapper below: not a commit, and not counted as a write.
        exec.call(db, 'SAVEPOINT probe_fts_flush; RELEASE probe_fts_flush')
        note(`P ${stateHash(db)}`)
      }
      return result
    } finally {
      depth.set(db, depth.get(db) - 1)
    }
  }
  const inner = transaction.call(db, body)
  const committed = (call) =>
    function (...args) {
      const result = call.apply(this, args)
      if (!db.inTransaction) note('C')
      return result
    }
  const outer = committed(inner)
  for (const kind of ['deferred', 'immediate', 'exclusive']) outer[kind] = committed(inner[kind])
  outer.default = outer
  return outer
}

Database.prototype.exec = function (sql) {
  const result = exec.call(this, sql)
  if (!this.inTransaction && log && this.open && !this.readonly && this.name !== ':memory:') {
    note(`P ${stateHash(this)}`)
    note('C')
  }
  return result
}

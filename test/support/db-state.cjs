// The whole state of a SQLite cache as one hash: every row of every table, in an order that does not depend on how the rows
// were written. Shared by the probe inside a killed process (test/support/db-write-probe.cjs) and the test that reads the cache after.
const { createHash } = require('node:crypto')

/** A hash of every row of every table (better-sqlite3 connection `db`). */
function stateHash(db) {
  const hash = createHash('sha256')
  const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").pluck().all()
  for (const table of tables) {
    const rows = db
      .prepare(`select * from "${table.replaceAll('"', '""')}"`)
      .raw()
      .all()
      .map((row) =>
        JSON.stringify(row.map((v) => (Buffer.isBuffer(v) ? `b:${v.toString('base64')}` : typeof v === 'bigint' ? `n:${v}` : v)))
      )
      .sort()
    hash.update(`${table}\n${rows.join('\n')}\n`)
  }
  return hash.digest('hex')
}

module.exports = { stateHash }

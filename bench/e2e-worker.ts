// One end-to-end reconcile in a fresh cache: N payments and their N-line statement, `ledgerline reconcile` run as a user runs it, each phase timed from its progress on stderr, then each phase's baseline measured on the same data; prints one JSON line.
import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import Papa from 'papaparse'
import { monthInCache } from './month'

/** The repository (the runner passes it: this script runs compiled from another folder). */
const ROOT = process.argv[3] as string
const BIN = join(ROOT, 'bin', 'ledgerline.cjs')
const PEAK_RSS = join(ROOT, 'bench', 'peak-rss.cjs')

const ms = (start: bigint, end = process.hrtime.bigint()): number => Number(end - start) / 1e6

/** The command's phases, from the progress lines it writes on stderr (LEDGERLINE_PROGRESS=always), as ms from its start. */
interface Phases {
  startMs: number
  readMs: number
  matchMs: number
  storeMs: number
  reportMs: number
  totalMs: number
  peakRssMb: number
  exitCode: number
}

function reconcile(cache: string, statement: string, report: string): Promise<Phases> {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint()
    const child = spawn(
      process.execPath,
      [PEAK_RSS, BIN, 'reconcile', '--db', cache, '--profile', 'Bench', '--against', statement, '--out', report],
      { env: { ...process.env, LEDGERLINE_PROGRESS: 'always' }, stdio: ['ignore', 'ignore', 'pipe'] }
    )
    const at: Record<string, number> = {}
    let peakKb = 0
    let rest = ''
    const tail: string[] = []
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => {
      const now = ms(started)
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      for (const l of lines) {
        tail.push(l)
        if (tail.length > 5) tail.shift()
        if (/^reconcile: reading /.test(l)) at['read'] ??= now
        else if (/^reconcile: matching against [^:]*$/.test(l)) at['match'] ??= now
        else if (l === 'reconcile: storing the items and totals') at['store'] ??= now
        else if (l === 'reconcile: writing the reports') at['report'] ??= now
        else if (/^peak-rss-kb \d+$/.test(l)) peakKb = Number(l.split(' ')[1])
      }
    })
    child.on('error', fail)
    child.on('close', (code) => {
      const total = ms(started)
      const { read, match, store, report } = at
      // Exit 1: the report is written with items left to review (the statement states no balances).
      if ((code !== 0 && code !== 1) || read === undefined || match === undefined || store === undefined || report === undefined)
        return fail(new Error(`reconcile exited ${code}: ${tail.join(' | ')}`))
      done({
        startMs: read,
        readMs: match - read,
        matchMs: store - match,
        storeMs: report - store,
        reportMs: total - report,
        totalMs: total,
        peakRssMb: peakKb / 1024,
        exitCode: code
      })
    })
  })
}

/** The same rows inserted into a fresh copy of `table` (its columns and indexes as the cache has them), one prepared statement in one transaction: no logic at all. */
function rawInsert(cache: string, table: string, dir: string): { rows: number; ms: number } {
  const source = new Database(cache, { readonly: true })
  const ddl = source
    .prepare(`select sql from sqlite_master where tbl_name = ? and sql is not null order by type = 'table' desc`)
    .pluck()
    .all(table) as string[]
  const rows = source.prepare(`select * from ${table}`).raw(true).all() as unknown[][]
  source.close()
  const target = new Database(join(dir, `raw-${table}.sqlite`))
  try {
    target.pragma('journal_mode = WAL')
    target.pragma('synchronous = NORMAL')
    target.pragma('cache_size = -65536')
    // The table alone: its references to other tables are not part of inserting its rows.
    for (const sql of ddl) target.exec(sql.replace(/REFERENCES \w+\s*\([^)]*\)(\s*ON DELETE CASCADE)?/gi, ''))
    const width = (rows[0] ?? []).length
    const insert = target.prepare(`insert into ${table} values (${Array.from({ length: width }, () => '?').join(', ')})`)
    const t = process.hrtime.bigint()
    target.transaction(() => {
      for (const row of rows) insert.run(...row)
    })()
    return { rows: rows.length, ms: ms(t) }
  } finally {
    target.close()
  }
}

/** A bare hash join of the records' references and the lines' (as stored): one map, one look-up per line. */
function hashJoin(cache: string): { joined: number; ms: number } {
  const db = new Database(cache, { readonly: true })
  const refs = db.prepare('select reference from payments').pluck().all() as (string | null)[]
  const lines = db.prepare('select reference from recon_file_rows').pluck().all() as (string | null)[]
  db.close()
  const t = process.hrtime.bigint()
  const byRef = new Map<string, number>()
  refs.forEach((r, i) => {
    if (r !== null) byRef.set(r, i)
  })
  let joined = 0
  for (const r of lines) if (r !== null && byRef.has(r)) joined++
  return { joined, ms: ms(t) }
}

/** Papaparse splitting the statement's text (the bytes read and decoded as UTF-8 inside the timing). */
function papaparse(statement: string): number {
  const t = process.hrtime.bigint()
  Papa.parse<string[]>(readFileSync(statement).toString('utf8'), { delimiter: ',' })
  return ms(t)
}

/** The report's very cells written again as CSV with no logic: papaparse's unparse of them, to a file. */
function csvWrite(report: string, dir: string): number {
  const cells = Papa.parse<string[]>(readFileSync(report, 'utf8'), { delimiter: ',' }).data
  const t = process.hrtime.bigint()
  const fd = openSync(join(dir, 'unparsed.csv'), 'w')
  for (let k = 0; k < cells.length; k += 5_000) writeSync(fd, `${Papa.unparse(cells.slice(k, k + 5_000), { newline: '\r\n' })}\r\n`)
  closeSync(fd)
  return ms(t)
}

/** A bare node process started and stopped (node -e 0): the floor under the command's start. */
function bareNode(): Promise<number> {
  return new Promise((done, fail) => {
    const t = process.hrtime.bigint()
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' })
    child.on('error', fail)
    child.on('close', () => done(ms(t)))
  })
}

async function bench(n: number): Promise<object> {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-bench-e2e-'))
  try {
    const { cache, statement } = monthInCache(dir, n)
    const phases = await reconcile(cache, statement, join(dir, 'report.csv'))
    const lines = rawInsert(cache, 'recon_file_rows', dir)
    const items = rawInsert(cache, 'recon_items', dir)
    return {
      n,
      megabytes: readFileSync(statement).byteLength / 1048576,
      phases,
      baselines: {
        nodeMs: await bareNode(),
        papaparseMs: papaparse(statement),
        lines,
        join: hashJoin(cache),
        items,
        csvWriteMs: csvWrite(join(dir, 'report.csv'), dir)
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

bench(Number(process.argv[2]))
  .then((result) => process.stdout.write(`${JSON.stringify(result)}\n`))
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(1)
  })

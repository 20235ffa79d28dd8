// Ctrl+C in the CLI's long work, at each phase a test names (the command sends itself SIGINT as that phase begins): exit 130, what is kept said on stderr, and nothing half-made in the cache or beside the files asked for.
import Database from 'better-sqlite3'
import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { cacheWithPayments, monthStatement } from '../support/month-statements'
import { HANG_LIMIT_MS } from '../support/wait'

/** What the cache holds of reconciliation: files imported, sessions, their items and events, and the sessions closed. */
function held(cache: string): { files: number; sessions: number; items: number; events: number; closed: number } {
  const db = new Database(cache, { readonly: true })
  try {
    const count = (sql: string): number => db.prepare(sql).pluck().get() as number
    return {
      files: count('select count(*) from recon_files'),
      sessions: count('select count(*) from recon_sessions'),
      items: count('select count(*) from recon_items'),
      events: count('select count(*) from recon_events'),
      closed: count('select count(*) from recon_sessions where closed_at is not null')
    }
  } finally {
    db.close()
  }
}

describe('Ctrl+C', { timeout: HANG_LIMIT_MS }, () => {
  it('stops reconcile, import, report and close at each phase with nothing half-made, and says what is kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-ctrl-c-'))
    const cache = join(dir, 'cache.sqlite')
    cacheWithPayments(cache, [
      ['id-a', 'INV-A', 100, 'successful', '2026-10-13T10:00:00Z', 1.5],
      ['id-b', 'INV-B', 250, 'successful', '2026-10-14T10:00:00Z', 0]
    ])
    const statement = monthStatement(dir, 'oct.csv', '0.00', [['2026-10-13', 'INV-A', '98.50']], '98.50')
    const report = join(dir, 'report.csv')
    // Stopped where `at` says (nothing: not stopped).
    const reconcile = (at: string, out = report) =>
      runCli(['reconcile', '--db', cache, '--against', statement, '--from', '2026-10-01', '--to', '2026-10-31', '--out', out], {
        LEDGERLINE_TEST_CTRL_C_AT: at
      })
    // Nothing beside the files asked for: no report, and no temporary file a writer left.
    const besides = (): string[] =>
      readdirSync(dir).filter((f) => !['cache.sqlite', 'oct.csv'].includes(f) && !f.startsWith('cache.sqlite-'))
    const stopping = (command: string) => `ledgerline: ${command}: stopping at the next step (Ctrl+C again stops at once)\n`

    // Reading the statement: the import stops before it stores a line.
    const reading = await reconcile('reconcile: reading oct.csv')
    expect(reading.code, reading.stderr).toBe(130)
    expect(reading.stderr).toBe(`${stopping('reconcile')}ledgerline: reconcile cancelled; nothing was stored\n`)
    expect(reading.stdout).toBe('')
    expect(held(cache)).toEqual({ files: 0, sessions: 0, items: 0, events: 0, closed: 0 })
    expect(besides()).toEqual([])
    const imported = await runCli(['import', '--db', cache, statement], { LEDGERLINE_TEST_CTRL_C_AT: 'import: reading' })
    expect(imported.code, imported.stderr).toBe(130)
    expect(imported.stderr).toBe(`${stopping('import')}ledgerline: import cancelled; nothing was stored\n`)
    expect(held(cache).files).toBe(0)

    // Matching, then storing the items: the session made and run in one transaction is taken back whole; the import stands whole
    // (the second reconcile uses it, storing nothing of its own).
    const kept = [/oct\.csv is imported \(file [0-9a-f-]+\), whole; no session was made/, /nothing was stored/]
    for (const [k, at] of ['reconcile: matching against payments', 'reconcile: storing the items and totals'].entries()) {
      const stopped = await reconcile(at)
      expect(stopped.code, stopped.stderr).toBe(130)
      expect(stopped.stderr).toMatch(new RegExp(`ledgerline: reconcile cancelled; ${kept[k]?.source}\n$`))
      expect(held(cache)).toEqual({ files: 1, sessions: 0, items: 0, events: 0, closed: 0 })
      expect(besides()).toEqual([])
    }

    // Writing the report: the session is kept, whole, and no part of the report is.
    const writing = await reconcile('reconcile: writing the reports')
    expect(writing.code, writing.stderr).toBe(130)
    const id =
      /session ([0-9a-f-]+) is made and run, whole, and kept; no report was written \(ledgerline report --session \1 writes them\)\n$/.exec(
        writing.stderr
      )?.[1] as string
    expect(id, writing.stderr).toBeDefined()
    expect(held(cache)).toMatchObject({ files: 1, sessions: 1, items: 2, closed: 0 })
    expect(besides()).toEqual([])
    const again = await runCli(['report', '--db', cache, '--session', id, '--out', report], {
      LEDGERLINE_TEST_CTRL_C_AT: 'report: writing'
    })
    expect(again.code, again.stderr).toBe(130)
    expect(again.stderr).toBe(`${stopping('report')}ledgerline: report cancelled; no report was written\n`)
    expect(besides()).toEqual([])

    // A reconcile of the same file uses the import kept, and says so as that import stored it.
    const reused = await reconcile('', join(mkdtempSync(join(tmpdir(), 'ledgerline-ctrl-c-again-')), 'again.csv'))
    expect(reused.stdout).toMatch(
      /^oct\.csv was imported before \(.*\): that import is used\.\nReconciled oct\.csv \(1 row, as imported before\) against payments/
    )

    // Closing: stopped while binding the pack's files, the session stays open; stopped while writing the pack, it is closed and no pack is left.
    const pack = join(dir, 'pack.zip')
    const close = (at: string) => runCli(['close', '--db', cache, '--session', id, '--evidence', pack], { LEDGERLINE_TEST_CTRL_C_AT: at })
    const binding = await close("close: binding the evidence pack's files")
    expect(binding.code, binding.stderr).toBe(130)
    expect(binding.stderr).toBe(
      `${stopping('close')}ledgerline: close cancelled; "oct.csv against payments, 2026-10-01 to 2026-10-31" is still open; nothing was written\n`
    )
    expect(held(cache).closed).toBe(0)
    const packing = await close('close: writing the evidence pack')
    expect(packing.code, packing.stderr).toBe(130)
    expect(packing.stderr).toMatch(
      new RegExp(
        `ledgerline: close cancelled; ".*" is closed \\(.* by .*\\); no evidence pack was written \\(ledgerline close --session ${id} --evidence FILE writes it\\)\\n$`
      )
    )
    expect(held(cache).closed).toBe(1)
    expect(existsSync(pack)).toBe(false)
    expect(besides()).toEqual([])

    // And what was cancelled is done when asked again: the pack of that close, and the reports.
    const packed = await runCli(['close', '--db', cache, '--session', id, '--evidence', pack])
    expect(packed.code, packed.stderr).toBe(0)
    expect(existsSync(pack)).toBe(true)
    const reported = await runCli(['report', '--db', cache, '--session', id, '--out', report])
    expect(reported.stderr).toBe('')
    expect(existsSync(report)).toBe(true)
  })
})

// Signs of life on stderr for long work, as sync gives them: reconcile says it is reading the statement, matching and storing (with how far) and writing the reports; import, close --evidence and journal say their phase; stdout carries none of it.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { StderrProgress } from '../../src/cli/progress'
import { runCli } from '../support/cli'
import { cacheWithPayments, monthStatement } from '../support/month-statements'
import { HANG_LIMIT_MS } from '../support/wait'

describe('progress on stderr', { timeout: HANG_LIMIT_MS }, () => {
  it('says each phase of reconcile, import, close --evidence and journal when asked, and nothing on stdout changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-progress-'))
    const cache = join(dir, 'cache.sqlite')
    cacheWithPayments(cache, [['id-a', 'INV-A', 100, 'successful', '2026-10-13T10:00:00Z', 1.5]])
    const statement = monthStatement(dir, 'oct.csv', '0.00', [['2026-10-13', 'INV-A', '98.50']], '98.50')
    const args = (out: string): string[] => [
      'reconcile',
      '--db',
      cache,
      '--against',
      statement,
      '--from',
      '2026-10-01',
      '--to',
      '2026-10-31',
      '--out',
      join(dir, out)
    ]
    const loud = await runCli(args('loud.csv'), { LEDGERLINE_PROGRESS: 'always' })
    expect(loud.code, loud.stderr).toBe(0)
    const said = loud.stderr.trim().split('\n')
    expect(said[0]).toMatch(/^reconcile: reading oct\.csv \(\d+ bytes\)$/)
    expect(said).toContain('reconcile: matching against payments, 2026-10-01 to 2026-10-31')
    expect(said.some((l) => /^reconcile: matching against payments, 2026-10-01 to 2026-10-31: \w+ \d+ \/ \d+$/.test(l))).toBe(true)
    expect(said.slice(-4)).toEqual([
      'reconcile: storing the items and totals',
      'reconcile: storing the items and totals: items 0 / 1',
      'reconcile: storing the items and totals: items 1 / 1',
      'reconcile: writing the reports'
    ])
    // Progress is stderr's alone: stdout says what it always says.
    expect(loud.stdout).not.toMatch(/^reconcile: /m)
    expect(loud.stdout).toMatch(/^Report: .*loud\.csv \(session [0-9a-f-]+\)$/m)
    const id = /\(session ([0-9a-f-]+)\)/.exec(loud.stdout)?.[1] as string
    const close = await runCli(['close', '--db', cache, '--session', id, '--evidence', join(dir, 'pack.zip')], {
      LEDGERLINE_PROGRESS: 'always'
    })
    expect(close.code, close.stderr).toBe(0)
    // Closing binds the pack's files, and the pack is written, each file by file.
    const files = ['report.csv and the summary', 'report.xlsx', 'summary.csv', 'bank-reconciliation.pdf', 'settings.json']
    const phases = ["binding the evidence pack's files to the close", `writing the evidence pack ${join(dir, 'pack.zip')}`]
    expect(close.stderr.split('\n').filter(Boolean)).toEqual(
      phases.flatMap((phase) => [`close: ${phase}`, ...files.map((f, k) => `close: ${phase}: ${f} ${k} / 4`)])
    )
    const journal = await runCli(['journal', '--db', cache, '--session', id, '--format', 'csv', '--out', join(dir, 'j.csv')], {
      LEDGERLINE_PROGRESS: 'always'
    })
    expect(journal.stderr).toBe('journal: reading the items of "oct.csv against payments, 2026-10-01 to 2026-10-31"\n')
    const imported = await runCli(['import', '--db', cache, statement], { LEDGERLINE_PROGRESS: 'always' })
    expect(imported.stderr).toMatch(/^import: reading oct\.csv \(\d+ bytes\)\n/)
  })
})

describe('the pace of progress', () => {
  it('says nothing in the first second, then the phase, then a count at most once a second', () => {
    let now = 0
    const said: string[] = []
    const progress = new StderrProgress('reconcile', { quietFor: 1000, now: () => now, write: (line) => said.push(line) })
    progress.phase('reading oct.csv')
    now = 500
    progress.tick('keys', 1, 10)
    expect(said).toEqual([])
    now = 1200
    progress.tick('keys', 2, 10)
    now = 1500
    progress.tick('keys', 3, 10)
    progress.phase('matching')
    now = 2600
    progress.tick('groups', 9, 10)
    progress.end()
    progress.tick('groups', 10, 10)
    expect(said).toEqual(['reconcile: reading oct.csv: keys 2 / 10\n', 'reconcile: matching\n', 'reconcile: matching: groups 9 / 10\n'])
  })
})

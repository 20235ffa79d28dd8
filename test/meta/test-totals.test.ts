// The totals line CI reads (scripts/test-totals.mjs) cannot say more than ran: skipped tests, test files that ran nothing, a missing report and a failed run with no failed test are each counted as failed and named.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SCRIPT = resolve('scripts/test-totals.mjs')

/** A folder with test files, a report of what ran in them, and the script's answer. */
function totals(
  files: Record<string, { status: string; fullName: string }[] | null>,
  options: { exitCode?: number; missingReport?: boolean; success?: boolean } = {}
): { lines: string[]; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'ledgerline-totals-'))
  mkdirSync(join(dir, 'test', 'a'), { recursive: true })
  for (const name of Object.keys(files)) writeFileSync(join(dir, 'test', name), '')
  const results = Object.entries(files)
    .filter(([, tests]) => tests !== null)
    .map(([name, tests]) => ({ name: join(dir, 'test', name), assertionResults: tests }))
  const all = results.flatMap((r) => r.assertionResults ?? [])
  const report = {
    numPassedTests: all.filter((t) => t.status === 'passed').length,
    numFailedTests: all.filter((t) => t.status === 'failed').length,
    numFailedTestSuites: 0,
    success: options.success ?? true,
    testResults: results
  }
  if (!options.missingReport) writeFileSync(join(dir, 'report.json'), JSON.stringify(report))
  const run = spawnSync(process.execPath, [SCRIPT, '--exit-code', String(options.exitCode ?? 0), 'report.json'], {
    cwd: dir,
    encoding: 'utf8'
  })
  return { lines: run.stdout.trim().split('\n'), status: run.status }
}

const ok = (fullName: string): { status: string; fullName: string } => ({ status: 'passed', fullName })

describe('the totals line', () => {
  it('is green when every test of every test file ran and passed', () => {
    expect(totals({ 'one.test.ts': [ok('x'), ok('y')], 'a/two.test.ts': [ok('z')] })).toEqual({ lines: ['3 passed, 0 failed'], status: 0 })
  })

  it('counts a skipped or todo test as failed, naming it', () => {
    const { lines, status } = totals({
      'one.test.ts': [ok('x'), { status: 'skipped', fullName: 'left out' }, { status: 'todo', fullName: 'later' }]
    })
    expect(status).toBe(1)
    expect(lines).toEqual([
      'not counted as passed: test/one.test.ts: "left out" did not run (skipped)',
      'not counted as passed: test/one.test.ts: "later" did not run (todo)',
      '1 passed, 2 failed'
    ])
  })

  it('counts a test file that ran no test, or is not in the report at all, as failed', () => {
    const { lines, status } = totals({ 'one.test.ts': [ok('x')], 'a/empty.test.ts': [], 'a/never.test.ts': null })
    expect(status).toBe(1)
    expect(lines.at(-1)).toBe('1 passed, 2 failed')
    expect(lines).toContain(
      'not counted as passed: test/a/empty.test.ts: ran no test (a project that did not include it, or a file whose tests were all left out)'
    )
    expect(lines.some((l) => l.startsWith('not counted as passed: test/a/never.test.ts: ran no test'))).toBe(true)
  })

  it('never says 0 failed for a run that failed with no failed test, or that left no report', () => {
    expect(totals({ 'one.test.ts': [ok('x')] }, { exitCode: 1 })).toEqual({
      lines: [
        'not counted as passed: the test run exited 1 with no failed test: an unhandled error or a failed hook (see the log above)',
        '1 passed, 1 failed'
      ],
      status: 1
    })
    const missing = totals({ 'one.test.ts': [ok('x')] }, { missingReport: true })
    expect(missing.status).toBe(1)
    expect(missing.lines.at(-1)).toBe('0 passed, 2 failed')
  })
})

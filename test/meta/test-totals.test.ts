// The totals line CI reads (scripts/test-totals.mjs) cannot say more than ran: skipped tests, test files that ran nothing, a missing report,
// a failed run with no failed test and a project below its floor are each counted as failed and named; and real Vitest runs with a
// planted skip, .only, unhandled error or lost test go red through the same steps .ci/run takes.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const SCRIPT = resolve('scripts/test-totals.mjs')
const VITEST = resolve('node_modules/vitest/vitest.mjs')

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

describe('the floors', () => {
  /** The script over a report of `inProcess` and `processes` tests (one file each), held to `floors`. */
  function held(
    inProcess: number,
    processes: number,
    floors: Record<string, { files: number; tests: number }> | null
  ): { lines: string[]; status: number | null } {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-floors-'))
    const tests = (n: number): { status: string; fullName: string }[] => Array.from({ length: n }, (_, k) => ok(`t${k}`))
    const report = {
      numPassedTests: inProcess + processes,
      numFailedTests: 0,
      success: true,
      testResults: [
        { name: join(dir, 'test', 'unit.test.ts'), assertionResults: tests(inProcess) },
        { name: join(dir, 'test', 'e2e', 'app.test.ts'), assertionResults: tests(processes) }
      ]
    }
    writeFileSync(join(dir, 'report.json'), JSON.stringify(report))
    writeFileSync(join(dir, 'serial.json'), JSON.stringify(['test/e2e/**/*.test.ts']))
    if (floors) writeFileSync(join(dir, 'floors.json'), JSON.stringify(floors))
    const args = ['--tests', 'none', '--floors', 'floors.json', '--serial', 'serial.json', 'report.json']
    const run = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: dir, encoding: 'utf8' })
    return { lines: run.stdout.trim().split('\n'), status: run.status }
  }
  const floors = { 'in-process': { files: 1, tests: 3 }, processes: { files: 1, tests: 2 } }

  it('holds each project to its floor of files and tests, and says when a floor can be raised', () => {
    expect(held(3, 2, floors)).toEqual({ lines: ['5 passed, 0 failed'], status: 0 })
    expect(held(2, 2, floors)).toEqual({
      lines: [
        'not counted as passed: the project "in-process" ran 1 test files and 2 tests, below its floor of 1 and 3 (floors.json)',
        '4 passed, 1 failed'
      ],
      status: 1
    })
    expect(held(3, 0, floors).lines).toContain(
      'not counted as passed: the project "processes" ran 0 test files and 0 tests, below its floor of 1 and 2 (floors.json)'
    )
    expect(held(4, 2, floors)).toEqual({
      lines: ['floor: the project "in-process" ran 1 test files and 4 tests: raise its floor in floors.json', '6 passed, 0 failed'],
      status: 0
    })
  })

  it('is red when the floors it was told to hold are not there', () => {
    expect(held(3, 2, null)).toEqual({
      lines: ['not counted as passed: no floors to hold the run to: floors.json is missing', '5 passed, 1 failed'],
      status: 1
    })
  })
})

describe('a real Vitest run, through the steps .ci/run takes', { timeout: 180_000 }, () => {
  /**
   * Runs Vitest as .ci/run does (--allowOnly=false, a JSON report) over two passing test files and `planted`, then the totals
   * with the floors those two files meet. The folder sits under node_modules/.cache so its tests find vitest.
   */
  function ciRun(planted: Record<string, string>): { lines: string[]; status: number | null } {
    mkdirSync(resolve('node_modules/.cache'), { recursive: true })
    const dir = mkdtempSync(join(resolve('node_modules/.cache'), 'ledgerline-planted-'))
    try {
      const files: Record<string, string> = {
        'test/a.test.ts':
          "import { expect, it } from 'vitest'\nit('adds', () => expect(1 + 1).toBe(2))\nit('joins', () => expect('a' + 'b').toBe('ab'))\n",
        'test/e2e/b.test.ts': "import { expect, it } from 'vitest'\nit('starts', () => expect([1].length).toBe(1))\n",
        'vitest.config.mjs': "export default { test: { include: ['test/**/*.test.ts'] } }\n",
        'serial.json': JSON.stringify(['test/e2e/**/*.test.ts']),
        'floors.json': JSON.stringify({ 'in-process': { files: 1, tests: 2 }, processes: { files: 1, tests: 1 } }),
        ...planted
      }
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(join(dir, name, '..'), { recursive: true })
        writeFileSync(join(dir, name), text)
      }
      const options = { cwd: dir, encoding: 'utf8' as const, env: { ...process.env, CI: 'true' } }
      const vitest = spawnSync(
        process.execPath,
        [VITEST, 'run', '--allowOnly=false', '--reporter=json', '--outputFile.json=report.json'],
        options
      )
      const args = ['--exit-code', String(vitest.status), '--floors', 'floors.json', '--serial', 'serial.json', 'report.json']
      const run = spawnSync(process.execPath, [SCRIPT, ...args], options)
      return { lines: run.stdout.trim().split('\n'), status: run.status }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  it('is green when everything ran and passed', () => {
    expect(ciRun({})).toEqual({ lines: ['3 passed, 0 failed'], status: 0 })
  })

  it('is red on a planted skip', () => {
    const run = ciRun({ 'test/c.test.ts': "import { it } from 'vitest'\nit('runs', () => {})\nit.skip('left out', () => {})\n" })
    expect(run.status).toBe(1)
    expect(run.lines.at(-1)).toBe('4 passed, 1 failed')
  })

  it('is red on a planted .only', () => {
    const run = ciRun({ 'test/c.test.ts': "import { it } from 'vitest'\nit.only('alone', () => {})\n" })
    expect(run.status).toBe(1)
    expect(run.lines.at(-1)).toMatch(/^\d+ passed, [1-9]\d* failed$/)
  })

  it('is red on an unhandled error in a passing test', () => {
    const run = ciRun({
      'test/c.test.ts': "import { it } from 'vitest'\nit('passes', () => { void Promise.reject(new Error('nobody waits')) })\n"
    })
    expect(run.status).toBe(1)
    expect(run.lines.at(-1)).toMatch(/^\d+ passed, [1-9]\d* failed$/)
  })

  it('is red when a project runs fewer tests than its floor', () => {
    const run = ciRun({ 'test/a.test.ts': "import { expect, it } from 'vitest'\nit('adds', () => expect(1 + 1).toBe(2))\n" })
    expect(run).toEqual({
      lines: [
        'not counted as passed: the project "in-process" ran 1 test files and 1 tests, below its floor of 1 and 2 (floors.json)',
        '2 passed, 1 failed'
      ],
      status: 1
    })
  })
})

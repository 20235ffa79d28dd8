// No test sleeps a fixed time or bounds how long work may take (the README's rule: green on a loaded machine): waits go through
// test/support/wait.ts or expect.poll, which ask again until the answer comes; the few timers left are named here with why.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../support/renderer-harness'
import { testTreeFiles } from '../support/test-tree'

/** Timers a test file may hold, and why each is not a wait for something to have happened. */
const TIMERS_ALLOWED: Record<string, string> = {
  'test/support/wait.ts': 'the one wait: asks again every few ms until the answer comes',
  'test/support/tcp-proxy.ts': 'the lag it adds to a connection is what the team tests study, not a wait',
  'test/support/cli.ts': 'kills a CLI that hung, so a hang fails the test with its output instead of the whole run',
  'test/reconcile/engine.test.ts': 'an interval that counts event-loop turns while a run yields, not a wait',
  'test/renderer/toasts.test.ts':
    'a zero-delay task in the page: the next turn of its event loop, which decides whose screen a toast is, not a wait'
}

const TIMER = /\bsetTimeout\s*\(|\bsetInterval\s*\(|waitForTimeout\s*\(|timers\/promises|\bsleep\s*\(/
/** An expectation that what it measures took less than some time. */
const SPEED_BOUND = /expect\(([^;]*?(?:Date\.now|performance\.now|hrtime|elapsed|duration|took|\bms\b|Ms\b)[^;]*?)\)\s*\.toBeLessThan/

const sources = testTreeFiles()
  // This file holds the patterns themselves.
  .filter((file) => /\.(ts|mts|mjs)$/.test(file) && !file.startsWith('test/fixtures/') && file !== 'test/meta/waits.test.ts')

describe('waiting in tests', () => {
  it('never sleeps: a timer only where it is named with why', () => {
    const timers = sources.filter((file) => TIMER.test(readFileSync(join(PROJECT_ROOT, file), 'utf8')))
    expect(timers.filter((file) => !(file in TIMERS_ALLOWED))).toEqual([])
    // Each allowance still names a file with a timer, so the list cannot hide one that moved.
    expect(Object.keys(TIMERS_ALLOWED).filter((file) => !timers.includes(file))).toEqual([])
  })

  it('never bounds how long something took', () => {
    const bounds = sources.flatMap((file) =>
      readFileSync(join(PROJECT_ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, k) => (SPEED_BOUND.test(line) ? [`${file}:${k + 1}: ${line.trim()}`] : []))
    )
    expect(bounds).toEqual([])
  })

  it('catches the sleeps and speed bounds it is for', () => {
    expect(TIMER.test('await new Promise((r) => setTimeout(r, 300))')).toBe(true)
    expect(TIMER.test('await page.waitForTimeout(500)')).toBe(true)
    expect(SPEED_BOUND.test('expect(Date.now() - started).toBeLessThan(2000)')).toBe(true)
    expect(SPEED_BOUND.test('expect(elapsed).toBeLessThanOrEqual(5_000)')).toBe(true)
    expect(SPEED_BOUND.test('expect(saved).toBeLessThan(3000)')).toBe(false)
  })
})

// The floors of test files and tests (test/floors.json) only go up: every commit that lowered one says "Floor lowered:" and why,
// and the working tree never holds a lower floor than the last commit.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../support/renderer-harness'

type Floors = Record<string, { files: number; tests: number } | string>

/** Each project's count that `after` holds lower than `before` (a project left out counts as lowered to nothing). */
function lowered(before: Floors, after: Floors): string[] {
  const out: string[] = []
  for (const [project, floor] of Object.entries(before)) {
    if (typeof floor === 'string') continue
    const now = after[project]
    for (const what of ['files', 'tests'] as const) {
      const value = typeof now === 'object' ? now[what] : 0
      if (value < floor[what]) out.push(`${project} ${what} ${floor[what]} → ${value}`)
    }
  }
  return out
}

const git = (...args: string[]): string | null => {
  const run = spawnSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8' })
  return run.status === 0 ? run.stdout : null
}
const floorsAt = (commit: string): Floors | null => {
  const text = git('show', `${commit}:test/floors.json`)
  return text === null ? null : (JSON.parse(text) as Floors)
}

describe('the test floors', () => {
  it('finds a lowered floor, and a project left out', () => {
    const floors = { why: '', a: { files: 2, tests: 10 }, b: { files: 1, tests: 3 } }
    expect(lowered(floors, { ...floors, a: { files: 2, tests: 11 } })).toEqual([])
    expect(lowered(floors, { ...floors, a: { files: 2, tests: 9 } })).toEqual(['a tests 10 → 9'])
    expect(lowered(floors, { why: '', a: floors.a })).toEqual(['b files 1 → 0', 'b tests 3 → 0'])
  })

  it('were never lowered by a commit that did not say so', () => {
    const commits = (git('log', '--format=%H', '--', 'test/floors.json') ?? '').split('\n').filter(Boolean)
    // A shallow clone may hold none of them; a whole history holds at least the one that added the file.
    if (git('rev-parse', '--is-shallow-repository')?.trim() !== 'true') expect(commits.length).toBeGreaterThan(0)
    const silent: string[] = []
    for (const commit of commits) {
      const before = floorsAt(`${commit}^`)
      const after = floorsAt(commit)
      // The commit that added the file (or one whose parent a shallow clone does not have) has nothing to compare with.
      if (before === null || after === null) continue
      const down = lowered(before, after)
      if (down.length > 0 && !/Floor lowered:/.test(git('log', '-1', '--format=%B', commit) ?? ''))
        silent.push(`${commit.slice(0, 10)}: ${down.join(', ')}`)
    }
    expect(silent).toEqual([])
  })

  it('are not lower in the working tree than in the last commit', () => {
    const committed = floorsAt('HEAD')
    const now = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test', 'floors.json'), 'utf8')) as Floors
    expect(committed === null ? [] : lowered(committed, now)).toEqual([])
  })
})

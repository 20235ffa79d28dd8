// Every property and fuzz test takes the run's seed (LEDGERLINE_SEED, printed by .ci/run and on failure): no fast-check run with a
// seed of its own or fast-check's random one, so any red run can be run again as it was.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../support/renderer-harness'
import { testTreeFiles } from '../support/test-tree'

/** The fast-check runs in a source, and those that take the run's seed. */
function runsOf(text: string): { runs: number; seeded: number; ownSeeds: string[] } {
  return {
    runs: (text.match(/\bfc\s*\.\s*(?:assert|check)\s*\(|\.sample\s*\(/g) ?? []).length,
    seeded: (text.match(/\bpropertyRuns\s*\(|seed:\s*PROPERTY_SEED\b/g) ?? []).length,
    // fast-check's parameters (they carry numRuns) with a number for a seed; the Sandbox's data seeds are fixtures, not runs.
    ownSeeds: text.match(/\{[^{}]*\bnumRuns\b[^{}]*\bseed:\s*\d[\d_]*[^{}]*\}/g) ?? []
  }
}

describe('randomness in tests', () => {
  it('comes from the run’s seed in every property and fuzz test', () => {
    const files = testTreeFiles().filter((f) => f.endsWith('.ts') && f !== 'test/meta/seeds.test.ts')
    const unseeded: string[] = []
    let runs = 0
    for (const file of files) {
      const found = runsOf(readFileSync(join(PROJECT_ROOT, file), 'utf8'))
      runs += found.runs
      if (found.runs > found.seeded || found.ownSeeds.length > 0)
        unseeded.push(
          `${file}: ${found.runs} fast-check runs, ${found.seeded} with the run's seed, own seeds ${found.ownSeeds.join(', ') || 'none'}`
        )
    }
    expect(runs).toBeGreaterThan(20)
    expect(unseeded).toEqual([])
  })

  it('finds a run without the seed, and one with a seed of its own', () => {
    expect(runsOf('fc.assert(fc.property(fc.nat(), () => true))')).toEqual({ runs: 1, seeded: 0, ownSeeds: [] })
    expect(runsOf('fc.assert(p, { numRuns: 40, seed: 20261122 })').ownSeeds).toEqual(['{ numRuns: 40, seed: 20261122 }'])
    expect(runsOf('sandboxSeed({ seed: 3, payments: 1500 })').ownSeeds).toEqual([])
    expect(runsOf('fc.assert(p, propertyRuns(40))')).toEqual({ runs: 1, seeded: 1, ownSeeds: [] })
  })
})

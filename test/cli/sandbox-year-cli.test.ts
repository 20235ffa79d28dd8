// The Sandbox's generated year from the CLI, as a newcomer tries learning: twelve statements and their answers written, each month reconciled, decided as answered and closed; rules evaluate then shows learning raising the suggestions' recall without losing precision, and rules proposed offers the nicknames the accountant kept confirming.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Evaluation, ProposedRule } from '../../src/shared/learning'
import { runCli } from '../support/cli'

describe('ledgerline sandbox year', () => {
  it('writes a year a newcomer can evaluate learning on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-year-'))
    const cache = join(dir, 'cache.sqlite')
    const made = await runCli(['sandbox', 'year', '--db', cache, '--out', dir, '--seed', '7', '--year', '2025', '--decide'])
    expect(made.code, made.stderr).toBe(0)
    expect(made.stdout).toContain('Sandbox year 2025 (seed 7)')
    for (let m = 1; m <= 12; m++) expect(existsSync(join(dir, `statement-2025-${String(m).padStart(2, '0')}.csv`))).toBe(true)
    const answers = JSON.parse(readFileSync(join(dir, 'answers.json'), 'utf8')) as Record<string, unknown[]>
    expect(Object.keys(answers)).toHaveLength(12)

    const profile = ['--profile', 'Sandbox year 2025 (seed 7)']
    const evaluated = await runCli(['rules', 'evaluate', '--db', cache, ...profile, '--json'])
    expect(evaluated.code, evaluated.stderr).toBe(0)
    const e = JSON.parse(evaluated.stdout) as Evaluation
    expect(e.sessions).toHaveLength(12)
    // January has nothing earlier to learn from: the same either way.
    expect(e.sessions[0]?.with).toEqual(e.sessions[0]?.without)
    expect(e.with.confirmed).toBe(e.without.confirmed)
    expect(e.with.recall as number).toBeGreaterThan((e.without.recall as number) + 0.1)
    expect(e.with.precision as number).toBeGreaterThanOrEqual(0.98)
    const words = await runCli(['rules', 'evaluate', '--db', cache, ...profile])
    expect(words.stdout).toMatch(/with learning\s+\d+\.\d% \(\d+ of \d+ suggested\)\s+\d+\.\d% \(\d+ of \d+ confirmed\)/)

    const proposed = JSON.parse((await runCli(['rules', 'proposed', '--db', cache, ...profile, '--json'])).stdout) as ProposedRule[]
    expect(proposed.length).toBeGreaterThan(0)
    for (const p of proposed) {
      expect(p.evidence.confirmed).toBeGreaterThanOrEqual(3)
      expect(p.gate).toMatch(/^confirmed \d+ of the \d+ time\(s\) decided \(\d+%\)/)
    }
    // Twice over the same cache: refused, nothing changed.
    const again = await runCli(['sandbox', 'year', '--db', cache, '--out', dir, '--seed', '7', '--year', '2025', '--decide'])
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('already has sessions')
  })

  it('refuses before it writes anything: no cache made for a wrong option, no statement of another seed written over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-year-'))
    const cache = join(dir, 'cache.sqlite')
    const lone = await runCli(['sandbox', 'year', '--db', cache, '--out', dir, '--leave-last-open'])
    expect(lone.code).toBe(2)
    expect(lone.stderr).toContain('--leave-last-open goes with --decide')
    expect(existsSync(cache)).toBe(false)
    // A seed past what the Sandbox tells apart (2³² would be seed 0's year again) is named with the range.
    const wide = await runCli(['sandbox', 'year', '--db', cache, '--out', dir, '--seed', '4294967296'])
    expect(wide.code).toBe(2)
    expect(wide.stderr).toContain('--seed must be a whole number from 0 to 4,294,967,295 (got "4294967296")')
    expect(existsSync(cache)).toBe(false)

    expect((await runCli(['sandbox', 'year', '--db', cache, '--out', dir, '--seed', '3'])).code).toBe(0)
    const january = join(dir, 'statement-2025-01.csv')
    const written = readFileSync(january, 'utf8')
    // The same seed again writes the same files: nothing lost.
    expect((await runCli(['sandbox', 'year', '--db', cache, '--out', dir, '--seed', '3'])).code).toBe(0)
    // Another seed into the same folder is refused, and the statements stay as they were.
    const other = await runCli(['sandbox', 'year', '--db', cache, '--out', dir, '--seed', '4'])
    expect(other.code).toBe(2)
    expect(other.stderr).toMatch(
      /already holds 13 files this year would write over \(statement-2025-01\.csv, statement-2025-02\.csv, statement-2025-03\.csv, …\)/
    )
    expect(readFileSync(january, 'utf8')).toBe(written)
  })
})

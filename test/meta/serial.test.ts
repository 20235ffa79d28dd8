// Every test file that starts processes of its own runs in the serial project (see vitest.config.mts), and each of the
// serial project's patterns still names a test file.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../support/renderer-harness'
import { testTreeFiles } from '../support/test-tree'
import { SERIAL_TESTS, STARTS_PROCESSES } from '../support/serial'

/** The patterns' glob forms (`**` any folders, `*` any name) as expressions over a path from the project root. */
const patternOf = (glob: string): RegExp =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '\u0000')
      .replace(/\*/g, '[^/]*')
      .replace(/\u0000/g, '(?:.*/)?')}$`
  )

const testFiles = testTreeFiles().filter((file) => file.endsWith('.test.ts'))
const matching = (glob: string): string[] => testFiles.filter((file) => patternOf(glob).test(file))

describe('the serial test project', () => {
  it('holds every test file that starts a process', () => {
    const serial = new Set(SERIAL_TESTS.flatMap(matching))
    const starting = testFiles.filter((file) => STARTS_PROCESSES.test(readFileSync(join(PROJECT_ROOT, file), 'utf8')))
    expect(starting.length).toBeGreaterThan(10)
    expect(starting.filter((file) => !serial.has(file))).toEqual([])
  })

  it('names no file that is not there', () => {
    for (const pattern of SERIAL_TESTS) expect(matching(pattern), pattern).not.toEqual([])
  })
})

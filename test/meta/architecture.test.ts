// The README's architecture section names every source file over 300 lines, so a reader finds the big ones and what each is for.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectSources } from '../../scripts/layers'
import { PROJECT_ROOT } from '../support/renderer-harness'

/** The README's "## Architecture" section. */
function architecture(): string {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')
  const start = readme.indexOf('\n## Architecture')
  return readme.slice(start, readme.indexOf('\n## ', start + 1))
}

describe('the README architecture section', () => {
  it('names every source file over 300 lines by its path', () => {
    const section = architecture()
    const large = [...projectSources(PROJECT_ROOT)].filter(([, text]) => text.split('\n').length > 300).map(([path]) => path)
    expect(large.length).toBeGreaterThan(10)
    expect(large.filter((path) => !section.includes(`\`${path}\``))).toEqual([])
  })

  it('has every main-side source file type-checked by tsconfig.node.json (the CLI was once left out, and a lost import ran)', () => {
    const include = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'tsconfig.node.json'), 'utf8')) as { include: string[] }).include
    const covers = (file: string): boolean =>
      include.some((glob) => (glob.endsWith('/**/*') ? file.startsWith(glob.slice(0, -'**/*'.length)) : file === glob))
    const mainSide = [...projectSources(PROJECT_ROOT).keys()].filter((f) => !f.startsWith('src/renderer/'))
    expect(mainSide.length).toBeGreaterThan(100)
    expect(mainSide.filter((f) => !covers(f))).toEqual([])
    expect(covers('src/cli/commands/sync.ts')).toBe(true)
    expect(covers('src/elsewhere/probe.ts')).toBe(false)
  })
})

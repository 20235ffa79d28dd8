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
})

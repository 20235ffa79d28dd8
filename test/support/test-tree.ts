// Every file under test/, named from the project root with forward slashes: what the meta tests read to hold the suite to its rules.
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { PROJECT_ROOT } from './renderer-harness'

/** Each file under test/ (folders left out), as `test/…/name.ts`. */
export function testTreeFiles(): string[] {
  return readdirSync(join(PROJECT_ROOT, 'test'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(PROJECT_ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'))
}

// CI gate: Electronegativity over the sources fails on any finding that is not in electronegativity.accepted.json with a reason.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../support/renderer-harness'

interface Finding {
  id: string
  file: string
  sample: string | undefined
  location: { line: number; column: number }
  description: string
}
interface Accepted {
  id: string
  file: string
  sample?: string
  reason: string
}

const require = createRequire(__filename)
const electronegativity = require('@doyensec/electronegativity') as { default?: Scan } & Scan
type Scan = (
  options: Record<string, unknown>,
  forCli: boolean
) => Promise<{ issues: Finding[]; errors: { file: string; message: string; tolerable: boolean }[] }>
const electronVersion = (
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
).devDependencies['electron']
const { accepted } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'electronegativity.accepted.json'), 'utf8')) as { accepted: Accepted[] }

/** Every check but the one that downloads Electron's release list (CI is offline; the pinned Electron major is supported). */
async function scan(input: string): Promise<{ issues: Finding[]; errors: string[] }> {
  const run = electronegativity.default ?? electronegativity
  const result = await run(
    { input, isRelative: true, excludeFromScan: ['AvailableSecurityFixesGlobalCheck'], electronVersionOverride: electronVersion },
    false
  )
  return { issues: result.issues, errors: result.errors.filter((e) => !e.tolerable).map((e) => `${e.file}: ${e.message}`) }
}

const matches = (finding: Finding, entry: Accepted): boolean =>
  finding.id === entry.id && finding.file === entry.file && (entry.sample === undefined || finding.sample?.trim() === entry.sample)
const describeFinding = (f: Finding): string => `${f.id} at ${f.file}:${f.location.line} (${f.sample?.trim() ?? f.description})`

describe('Electronegativity', { timeout: 60_000 }, () => {
  it('finds nothing in src/ beyond the reviewed, accepted findings, and every acceptance still applies', async () => {
    const { issues, errors } = await scan(join(PROJECT_ROOT, 'src'))
    expect(errors).toEqual([])
    expect(issues.filter((f) => !accepted.some((entry) => matches(f, entry))).map(describeFinding)).toEqual([])
    expect(accepted.filter((entry) => !issues.some((f) => matches(f, entry))).map((e) => e.id)).toEqual([])
    for (const entry of accepted) expect(entry.reason.length, entry.id).toBeGreaterThan(40)
  })

  it('reports a window that turns off the protections (so the gate above can fail)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerline-electronegativity-'))
    writeFileSync(
      join(dir, 'main.ts'),
      "import { BrowserWindow } from 'electron'\nexport const w = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } })\n"
    )
    const { issues } = await scan(dir)
    const found = new Set(issues.map((f) => f.id))
    // contextIsolation: false, and none of the navigation and permission guards src/main/index.ts installs.
    expect(found).toContain('CONTEXT_ISOLATION_JS_CHECK')
    expect(found).toContain('LIMIT_NAVIGATION_GLOBAL_CHECK')
    expect(found).toContain('PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK')
    expect(issues.filter((f) => !accepted.some((entry) => matches(f, entry))).length).toBeGreaterThan(0)
  })
})

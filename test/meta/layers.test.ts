// The design's layers are lint rules: each forbidden import below is reported, each allowed one is not (and the real tree is clean: npm run lint).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { layerReport, projectSources } from '../../scripts/layers'
import { PROJECT_ROOT } from '../support/renderer-harness'

const eslint = new ESLint({ cwd: PROJECT_ROOT })

/** The import-rule messages ESLint reports for one import line in a file at `path`. */
async function importErrors(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = imported\n`, { filePath: join(PROJECT_ROOT, path) })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

describe('layers enforced by lint', () => {
  it('the renderer imports only src/shared, its own code and browser packages', async () => {
    const file = 'src/renderer/src/views/Probe.vue.ts'
    expect(await importErrors(file, "import imported from '../../../main/cache/store'")).not.toEqual([])
    expect(await importErrors(file, "import imported from '../../../preload/api'")).not.toEqual([])
    expect(await importErrors(file, "import imported from 'node:fs'")).not.toEqual([])
    expect(await importErrors(file, "import imported from 'fs'")).not.toEqual([])
    expect(await importErrors(file, "import imported from 'electron'")).not.toEqual([])
    expect(await importErrors(file, "import imported from '../../../shared/money'")).toEqual([])
    expect(await importErrors(file, "import imported from '../stores/jobs'")).toEqual([])
    expect(await importErrors(file, "import imported from 'naive-ui'")).toEqual([])
  })

  it("toasts go through useToasts: Naive's own message API is imported in toasts.ts alone", async () => {
    const probe = "import { useMessage as imported } from 'naive-ui'"
    expect(await importErrors('src/renderer/src/views/Probe.vue.ts', probe)).not.toEqual([])
    expect(await importErrors('src/renderer/src/stores/probe.ts', probe)).not.toEqual([])
    expect(await importErrors('src/renderer/src/views/Probe.vue.ts', "import { NButton as imported } from 'naive-ui'")).toEqual([])
  })

  it('views and components reach the host only through stores', async () => {
    const syntax = async (path: string): Promise<string[]> => {
      const [result] = await eslint.lintText('export const answer = window.api.app.info()\n', { filePath: join(PROJECT_ROOT, path) })
      return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message)
    }
    expect(await syntax('src/renderer/src/views/Probe.ts')).not.toEqual([])
    expect(await syntax('src/renderer/src/components/Probe.ts')).not.toEqual([])
    expect(await syntax('src/renderer/src/stores/probe.ts')).toEqual([])
  })

  it('the renderer matches an error code through codeIs or its kind, never by its text', async () => {
    const syntax = async (path: string, source: string): Promise<string[]> => {
      const [result] = await eslint.lintText(`${source}\n`, { filePath: join(PROJECT_ROOT, path) })
      return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message)
    }
    for (const path of ['src/renderer/src/stores/probe.ts', 'src/renderer/src/views/Probe.ts']) {
      expect(await syntax(path, "export const wrong = (e: { code: string }) => e.code === 'pdf_password_wrong'")).not.toEqual([])
      expect(await syntax(path, "export const wrong = (e: { code: string }) => 'x' !== e.code")).not.toEqual([])
      expect(await syntax(path, 'export const wrong = (e: { code: string }) => /^team_/.test(e.code)')).not.toEqual([])
      expect(await syntax(path, "export function f(e: { code: string }) { switch (e.code) { case 'x': return 1 } return 0 }")).not.toEqual(
        []
      )
      expect(
        await syntax(
          path,
          "import { codeIs } from '../../../shared/error-codes'\nexport const right = (e: never) => codeIs(e, 'pdf_password_wrong')"
        )
      ).toEqual([])
    }
  })

  it('src/shared imports no Node or Electron module and nothing of a process', async () => {
    const file = 'src/shared/probe.ts'
    expect(await importErrors(file, "import imported from 'node:crypto'")).not.toEqual([])
    expect(await importErrors(file, "import imported from 'path'")).not.toEqual([])
    expect(await importErrors(file, "import imported from 'electron'")).not.toEqual([])
    expect(await importErrors(file, "import imported from '../main/log'")).not.toEqual([])
    expect(await importErrors(file, "import imported from '../renderer/src/format'")).not.toEqual([])
    expect(await importErrors(file, "import imported from 'zod'")).toEqual([])
    expect(await importErrors(file, "import imported from './money'")).toEqual([])
  })

  it('only the shell touches Electron', async () => {
    expect(await importErrors('src/main/sync/probe.ts', "import imported from 'electron'")).not.toEqual([])
    expect(await importErrors('src/main/host/host.ts', "import imported from 'electron'")).not.toEqual([])
    expect(await importErrors('src/cli/probe.ts', "import imported from 'electron'")).not.toEqual([])
    expect(await importErrors('src/preload/api.ts', "import imported from 'electron'")).not.toEqual([])
    expect(await importErrors('src/main/shell/probe.ts', "import imported from 'electron'")).toEqual([])
    expect(await importErrors('src/main/index.ts', "import imported from 'electron'")).toEqual([])
    expect(await importErrors('src/preload/index.ts', "import imported from 'electron'")).toEqual([])
  })

  it('the cache does not import the API client', async () => {
    expect(await importErrors('src/main/cache/probe.ts', "import imported from '../api/client'")).not.toEqual([])
    expect(await importErrors('src/main/cache/probe.ts', "import imported from '../api/http'")).not.toEqual([])
    expect(await importErrors('src/main/cache/probe.ts', "import imported from '../../shared/api/assumptions'")).toEqual([])
    expect(await importErrors('src/main/sync/probe.ts', "import imported from '../api/client'")).toEqual([])
  })

  it('no domain imports the host: the host wires each with the services it names', async () => {
    for (const file of ['src/main/sync/handlers.ts', 'src/main/reconcile/handlers.ts', 'src/main/team/probe.ts', 'src/main/log.ts'])
      expect(await importErrors(file, "import imported from '../host/context'"), file).not.toEqual([])
    expect(await importErrors('src/main/reconcile/import/probe.ts', "import imported from '../../host/protocol'")).not.toEqual([])
    expect(await importErrors('src/main/cache/probe.ts', "import imported from '../host/context'")).not.toEqual([])
    expect(await importErrors('src/main/host/host.ts', "import imported from '../sync/handlers'")).toEqual([])
    expect(await importErrors('src/main/shell/probe.ts', "import imported from '../host/supervisor'")).toEqual([])
    expect(await importErrors('src/main/sync/probe.ts', "import imported from '../ipc/questions'")).toEqual([])
  })

  it('a domain uses the Sandbox only through its seed and statement writers; the host and the CLI start it', async () => {
    expect(await importErrors('src/main/profiles/probe.ts', "import imported from '../../sandbox/server'")).not.toEqual([])
    expect(await importErrors('src/main/bulk/probe.ts', "import imported from '../../sandbox/endpoints/transfers'")).not.toEqual([])
    expect(await importErrors('src/main/reconcile/probe.ts', "import imported from '../../sandbox/seed'")).toEqual([])
    expect(await importErrors('src/main/reconcile/probe.ts', "import imported from '../../sandbox/statement-formats'")).toEqual([])
    expect(await importErrors('src/main/host/probe.ts', "import imported from '../../sandbox/server'")).toEqual([])
    expect(await importErrors('src/cli/probe.ts', "import imported from '../sandbox/server'")).toEqual([])
  })

  it('reconcile imports nothing from team; team builds on reconcile', async () => {
    expect(await importErrors('src/main/reconcile/handlers.ts', "import imported from '../team/replicas'")).not.toEqual([])
    expect(await importErrors('src/main/reconcile/match/probe.ts', "import imported from '../../team/report'")).not.toEqual([])
    expect(await importErrors('src/main/team/probe.ts', "import imported from '../reconcile/shared-sessions'")).toEqual([])
    expect(await importErrors('src/main/reconcile/probe.ts', "import imported from '../../shared/ipc/team'")).toEqual([])
  })
})

/** The domain-prefixed tables (recon_…, team_…) each file's SQL names that another domain owns; the schema folder is everyone's. */
function foreignTables(file: string, source: string, tables: ReadonlyMap<string, string>): string[] {
  const domain = /^src\/main\/([^/]+)\//.exec(file)?.[1]
  if (!domain || file.startsWith('src/main/cache/schema/')) return []
  const named = new Set(source.match(/\b(?:recon|team)_[a-z_]+\b/g) ?? [])
  return [...named].filter((t) => tables.has(t) && tables.get(t) !== domain).map((t) => `${file} names ${t} (${tables.get(t)}'s)`)
}

describe("each domain's tables are read and written by that domain alone", () => {
  const schema = join(PROJECT_ROOT, 'src/main/cache/schema')
  const tables = new Map<string, string>()
  for (const f of readdirSync(schema))
    for (const [, table] of readFileSync(join(schema, f), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?((?:recon|team)_[a-z_]+)/g))
      tables.set(table as string, table?.startsWith('recon_') ? 'reconcile' : 'team')

  it('knows the tables: reconcile owns recon_…, team owns team_…', () => {
    expect(tables.get('recon_sessions')).toBe('reconcile')
    expect(tables.get('recon_shared_links')).toBe('reconcile')
    expect(tables.get('team_replicas')).toBe('team')
  })

  it('finds a table named by another domain, and none in the source', () => {
    expect(foreignTables('src/main/reconcile/probe.ts', "db.prepare('select 1 from team_replicas')", tables)).toHaveLength(1)
    expect(foreignTables('src/main/team/probe.ts', 'select t.*, s.name from recon_sessions s', tables)).toHaveLength(1)
    expect(foreignTables('src/main/records/probe.ts', 'from recon_items i', tables)).toHaveLength(1)
    expect(foreignTables('src/main/reconcile/probe.ts', "new AppError('team_session', 'shared')", tables)).toEqual([])
    const found = mainSources().flatMap((file) => foreignTables(file, readFileSync(join(PROJECT_ROOT, file), 'utf8'), tables))
    expect(found).toEqual([])
  })
})

/** Every TypeScript file under src/main, relative to the project. */
function mainSources(dir = 'src/main'): string[] {
  return readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? mainSources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []
  )
}

describe('rooms and arrows (npm run layers)', () => {
  const sources = projectSources(PROJECT_ROOT)

  it('has every room in a layer, no arrow against the layers and no circle', () => {
    const report = layerReport(sources)
    expect(report.arrows.length).toBeGreaterThan(100)
    expect(report.unplaced).toEqual([])
    expect(report.against.map((a) => a.imports)).toEqual([])
    expect(report.circles.map((a) => a.imports)).toEqual([])
    expect(report.fileCircles).toEqual([])
  })

  it('counts an arrow up a layer, and a circle within one', () => {
    const planted = (file: string, line: string): ReturnType<typeof layerReport> => layerReport(new Map([...sources, [file, `${line}\n`]]))
    const up = planted('src/main/cache/probe.ts', "import { ReconService } from '../reconcile/service'")
    expect(up.against.map((a) => `${a.from} → ${a.to}`)).toEqual(['main/cache → main/reconcile'])
    expect(planted('src/main/reconcile/probe.ts', "import { TeamWorkspace } from '../team/workspace'").against).toHaveLength(1)
    expect(planted('src/main/sync/probe.ts', "import type { HostContext } from '../host/context'").against).toHaveLength(1)
    const circle = planted('src/main/search/probe.ts', "export { exportCsv } from '../export/export'")
    expect(circle.against).toEqual([])
    expect(circle.circles.map((a) => `${a.from} → ${a.to}`).sort()).toEqual(['main/export → main/search', 'main/search → main/export'])
    // Two files of one room whose code imports each other, as the statement reader and the bank statement model once did; a type alone makes none.
    const files = planted('src/main/reconcile/import/grid-reader.ts', "import { parseBankStatements } from './structured'")
    expect(files.fileCircles).toEqual([['src/main/reconcile/import/grid-reader.ts', 'src/main/reconcile/import/structured.ts']])
    expect(planted('src/main/reconcile/import/grid-reader.ts', "import type { BankStatement } from './structured'").fileCircles).toEqual([])
    expect(planted('src/main/newroom/probe.ts', "import { AppError } from '../errors'").unplaced).toEqual(['main/newroom'])
  })
})

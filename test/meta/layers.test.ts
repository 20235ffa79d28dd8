// The design's layers are lint rules: each forbidden import below is reported, each allowed one is not (and the real tree is clean: npm run lint).
import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
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
})

// export:csv: main asks where to save, then an export job writes the Excel-safe CSV with progress and cancel.
import type { SqliteOptions } from '../cache/sqlite'
import type { MainUi } from '../ipc/questions'
import type { JobRunner } from '../jobs/runner'
import type { Logger } from '../log'
import type { ActiveProfile } from '../profiles/active'
import type { HandlerMap } from '../ipc/router'
import { plainFileName } from '../../shared/csv/excel-safe'
import { exportCsv } from './export'

/** What export:csv uses, wired by the host: an export job opens the cache file on its own connection. */
export interface ExportServices {
  config: { paths: { cacheDatabase: string }; sqlite: SqliteOptions }
  active: ActiveProfile
  jobs: JobRunner
  ui: Pick<MainUi, 'chooseSaveFile'>
  log: Logger
}

export function exportHandlers(ctx: ExportServices): HandlerMap {
  return {
    'export:csv': async ({ plain, ...query }) => {
      const profile = ctx.active.current()
      const day = new Date().toISOString().slice(0, 10)
      const name = `ledgerline-${query.resource}-${profile.mode}-${day}.csv`
      const file = await ctx.ui.chooseSaveFile({
        suggestedName: plain ? plainFileName(name) : name,
        filterName: plain ? 'CSV (plain, for accounting software; not for Excel)' : 'CSV (Excel)',
        extensions: ['csv']
      })
      if (!file) return { job: null }
      const job = ctx.jobs.start({
        kind: 'export',
        profile,
        title: `Export of ${query.resource}`,
        run: async (control) => {
          const result = await exportCsv({ file: ctx.config.paths.cacheDatabase, sqlite: ctx.config.sqlite }, profile, query, file, {
            style: plain ? 'plain' : 'excel',
            signal: control.signal,
            onProgress: ({ done, total }) => control.progress({ phase: 'writing', done, total })
          })
          ctx.log.info(`exported ${result.rows} ${query.resource} of "${profile.name}"`)
          return { kind: 'export' as const, file: result.file, rows: result.rows }
        }
      })
      return { job }
    }
  }
}

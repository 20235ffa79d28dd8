// export:csv: main asks where to save, then an export job writes the Excel-safe CSV with progress and cancel.
import type { HostContext } from '../host/context'
import type { HandlerMap } from '../ipc/router'
import { exportCsv } from './export'

export function exportHandlers(ctx: HostContext): HandlerMap {
  return {
    'export:csv': async (query) => {
      const profile = ctx.active.current()
      const day = new Date().toISOString().slice(0, 10)
      const file = await ctx.ui.chooseSaveFile({
        suggestedName: `ledgerline-${query.resource}-${profile.mode}-${day}.csv`,
        filterName: 'CSV (Excel)',
        extensions: ['csv']
      })
      if (!file) return { job: null }
      const job = ctx.jobs.start({
        kind: 'export',
        profile,
        title: `Export of ${query.resource}`,
        run: async (control) => {
          const result = await exportCsv({ file: ctx.config.paths.cacheDatabase, sqlite: ctx.config.sqlite }, profile, query, file, {
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

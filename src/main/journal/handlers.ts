// The journal:* calls: a closed session's journal previewed and written where the user chooses, and the active profile's account map.
import { writeSync } from 'node:fs'
import type Database from 'better-sqlite3'
import { writeFileSafely } from '../files/safe-file'
import type { JobRunner } from '../jobs/runner'
import type { MainUi } from '../ipc/questions'
import type { HandlerMap } from '../ipc/router'
import type { Logger } from '../log'
import type { ActiveProfile } from '../profiles/active'
import type { ProfileService } from '../profiles/service'
import { ReconService } from '../reconcile/service'
import type { SessionInfo } from '../../shared/reconcile'
import { AccountMaps } from './account-map'
import { closedForJournal, closedSessionJournal } from './entries'
import { journalFile } from './formats'

/** What the journal's calls use, wired by the host. */
export interface JournalServices {
  db: Database.Database
  active: ActiveProfile
  profiles: ProfileService
  ui: Pick<MainUi, 'chooseSaveFile'>
  log: Logger
  jobs: JobRunner
}

export function journalHandlers(ctx: JournalServices): HandlerMap {
  const service = new ReconService(ctx.db)
  const maps = new AccountMaps(ctx.db)
  /** The session's journal, for the active profile's own sessions only (test and live never mix). */
  const journalOf = (sessionId: string): ReturnType<typeof closedSessionJournal> & { session: SessionInfo } => {
    const session = service.sessionOfProfile(sessionId, ctx.active.current().id)
    const profile = ctx.profiles.get(session.profileId)
    return { ...closedSessionJournal(service, maps, session, { name: profile.name, mode: profile.mode }), session }
  }
  return {
    'journal:preview': ({ sessionId }) => {
      const { journal, map, mapSaved } = journalOf(sessionId)
      return { journal, map, mapSaved }
    },
    'journal:saveMap': (map) => maps.set(ctx.active.current().id, map),
    'journal:export': async ({ sessionId, format }) => {
      const session = service.sessionOfProfile(sessionId, ctx.active.current().id)
      closedForJournal(session)
      const file = await ctx.ui.chooseSaveFile({
        suggestedName: `ledgerline-journal-${format}-${session.from}-${session.to}.csv`,
        filterName: `Journal for ${format === 'csv' ? 'Excel and other software' : format} (CSV)`,
        extensions: ['csv']
      })
      if (!file) return null
      return ctx.jobs.start({
        kind: 'journal-export',
        profile: ctx.active.current(),
        title: `Journal of "${session.name}" (${format})`,
        run: async (job) => {
          // Every item is read to book it and again to tie the journal to the summary: at scale, a while.
          job.progress({ phase: 'booking the items and tying them to the summary', done: 0, total: 2 }, true)
          await new Promise((resolve) => setImmediate(resolve))
          const { journal } = journalOf(sessionId)
          job.progress({ phase: `writing ${journal.entries.length.toLocaleString('en-US')} entries`, done: 1, total: 2 }, true)
          await writeFileSafely(file, (fd) => void writeSync(fd, journalFile(journal, format)))
          ctx.log.info(`journal written (${format}, ${journal.entries.length} entries)`)
          return { kind: 'journal-export' as const, file, entries: journal.entries.length }
        }
      })
    }
  }
}

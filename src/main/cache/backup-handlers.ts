// The backup:* calls: the Backups card's list, a backup now, and a restore asked first by main (refused while a job is writing into the cache).
import type { HandlerMap } from '../ipc/router'
import type { MainUi } from '../ipc/questions'
import type { JobRunner } from '../jobs/runner'
import { AppError, notConfirmed } from '../errors'
import type { CacheBackups } from './backups-host'

export interface BackupServices {
  backups: CacheBackups
  jobs: JobRunner
  ui: Pick<MainUi, 'confirm'>
}

export function backupHandlers(ctx: BackupServices): HandlerMap {
  return {
    'backup:list': () => ctx.backups.view(),
    'backup:create': () => ctx.backups.create(),
    'backup:restore': async ({ name }) => {
      const backup = ctx.backups.find(name)
      const running = ctx.jobs.list().find((j) => j.state === 'running')
      if (running)
        throw new AppError('job_running', `${running.title} is running; let it finish or cancel it before a restore.`, {
          jobId: running.id
        })
      const when = backup.takenAt ? `${backup.takenAt.slice(0, 16).replace('T', ' ')} UTC` : backup.name
      const yes = await ctx.ui.confirm({
        title: 'Restore this backup?',
        message: `Restore the backup of ${when}?`,
        detail: `The cache becomes what it was then: ${backup.profiles} profile(s), ${backup.sessions ?? 0} session(s), ${backup.records.toLocaleString('en-US')} record(s). Everything since is set aside, not lost: the cache as it is now is kept as a backup first, which you can restore in turn.`,
        confirmLabel: 'Restore backup'
      })
      if (!yes) throw notConfirmed('Restoring the backup')
      return ctx.backups.restore(name)
    }
  }
}

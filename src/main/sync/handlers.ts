// sync:* calls: start a sync job for the profile in use, report what its cache holds, follow bulk files, transfers and plans.
import type { SyncStatus } from '../../shared/ipc/contract'
import { FOLLOW_KIND_NAMES } from '../../shared/ipc/sync'
import { AppError } from '../errors'
import type Database from 'better-sqlite3'
import type { CacheStore } from '../cache/store'
import type { JobRunner } from '../jobs/runner'
import type { Logger } from '../log'
import type { ActiveProfile } from '../profiles/active'
import type { ClientPool } from '../profiles/clients'
import type { HandlerMap } from '../ipc/router'
import { describeSync } from '../log'
import { runSync } from './engine'

/** What the sync calls use, wired by the host. */
export interface SyncServices {
  db: Database.Database
  store: CacheStore
  active: ActiveProfile
  clients: ClientPool
  jobs: JobRunner
  log: Logger
}

export function syncHandlers(ctx: SyncServices): HandlerMap {
  const status = (): SyncStatus => {
    const profile = ctx.active.current()
    const count = (resource: Parameters<typeof ctx.store.count>[1]): number => ctx.store.count(profile.id, resource)
    return {
      runningJobId: ctx.jobs.runningFor(profile.id, 'sync')?.id ?? null,
      profileId: profile.id,
      lastSyncedAt: profile.lastSyncedAt,
      counts: {
        payments: count('payments'),
        transfers: count('transfers'),
        plans: count('plans'),
        subscriptions: count('subscriptions'),
        virtual_accounts: count('virtual_accounts'),
        banks: count('banks')
      },
      followed: ctx.store.followedItems(profile.id),
      failures: ctx.store.failures(profile.id, 20)
    }
  }

  return {
    'sync:start': ({ resources }) => {
      const profile = ctx.active.current()
      return ctx.jobs.start({
        kind: 'sync',
        profile,
        title: `Sync of "${profile.name}"`,
        run: async (job) => {
          const client = await ctx.clients.for(profile)
          const summary = await runSync({
            client,
            store: ctx.store,
            profileId: profile.id,
            timeZone: profile.timeZone,
            ...(resources ? { resources } : {}),
            signal: job.signal,
            onProgress: (p) =>
              job.progress(
                { phase: p.phase, step: p.resource, done: p.done, total: p.total, rate: p.rate, etaSeconds: p.etaSeconds },
                p.phase === 'done'
              )
          })
          ctx.log.info(describeSync(profile.name, summary))
          return { kind: 'sync' as const, summary }
        },
        wasCancelled: (result) => result.summary.cancelled
      })
    },
    'sync:status': () => status(),
    'sync:track': ({ kind, value }) => {
      ctx.store.track(ctx.active.current().id, kind, value)
      return status()
    },
    /** A pasted or imported list: one id or reference per entry, blanks and repeats left out, all in one transaction. */
    'sync:trackMany': ({ kind, values }) => {
      const profileId = ctx.active.current().id
      const unique = [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))]
      ctx.db.transaction(() => unique.forEach((v) => ctx.store.track(profileId, kind, v)))()
      return status()
    },
    'sync:untrack': ({ kind, value }) => {
      if (!ctx.store.untrack(ctx.active.current().id, kind, value)) {
        throw new AppError('not_followed', `"${value}" is not followed as a ${FOLLOW_KIND_NAMES[kind]}; nothing was changed.`)
      }
      return status()
    }
  }
}

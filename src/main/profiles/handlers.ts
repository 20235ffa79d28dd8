// profile:* calls: list and choose profiles, add one with a checked key, replace a key, remove a profile; the risky ones confirmed by main.
import { AppError, notConfirmed } from '../errors'
import type Database from 'better-sqlite3'
import type { CacheStore } from '../cache/store'
import type { EventEmitter } from '../ipc/events'
import type { MainUi } from '../ipc/questions'
import type { JobRunner } from '../jobs/runner'
import type { Logger } from '../log'
import type { ActiveProfile } from './active'
import type { ClientPool } from './clients'
import type { HandlerMap } from '../ipc/router'
import { completeRemoval } from './removal'
import type { Profile, ProfileService } from './service'

/** Deletes a profile's records as a job (started by profile:remove, or at start-up for a removal the app did not finish). */
/** What the profile calls use, wired by the host. */
export interface ProfileServices {
  db: Database.Database
  store: CacheStore
  profiles: ProfileService
  active: ActiveProfile
  clients: ClientPool
  jobs: JobRunner
  events: EventEmitter
  ui: Pick<MainUi, 'confirm'>
  log: Logger
  /** The tables of the domains above profiles that hold a profile's rows, emptied when it is removed (RemovalOptions). */
  domainTables: readonly string[]
}

export function startRemovalJob(
  ctx: Pick<ProfileServices, 'db' | 'jobs' | 'profiles' | 'domainTables'>,
  profile: { id: string; name: string }
): string {
  return ctx.jobs.start({
    kind: 'profile-remove',
    profile,
    title: `Removing "${profile.name}"`,
    run: async (job) => {
      await completeRemoval(ctx.profiles, ctx.db, profile.id, {
        domainTables: ctx.domainTables,
        signal: job.signal,
        onProgress: ({ done, total }) => job.progress({ phase: 'deleting cached records', done, total })
      })
      return { kind: 'profile-remove' as const, removed: profile.name }
    }
  }).id
}

export function profileHandlers(ctx: ProfileServices): HandlerMap {
  const cachedRecords = (profile: Profile): number =>
    (['payments', 'transfers', 'plans', 'subscriptions', 'virtual_accounts'] as const).reduce(
      (sum, resource) => sum + ctx.store.count(profile.id, resource),
      0
    )

  /** The profile in use had a setting changed: screens read it again. */
  const updated = (profile: Profile): void => {
    if (profile.id === ctx.active.current().id) ctx.events.emit('profile:changed', { profileId: profile.id, reason: 'updated' })
  }

  return {
    'profile:list': () => ctx.profiles.list(),
    'profile:active': () => ctx.active.current(),
    'profile:select': async ({ id }) => {
      const profile = ctx.profiles.get(id)
      if (profile.mode === 'live' && profile.id !== ctx.active.current().id) {
        const yes = await ctx.ui.confirm({
          title: 'Switch to a live profile?',
          message: `Work in "${profile.name}" (LIVE)?`,
          detail:
            'Live profiles hold real payments and payouts, and actions in them move real money. Jobs already running keep working on their own profile.',
          confirmLabel: 'Use live profile'
        })
        if (!yes) throw notConfirmed(`Switching to "${profile.name}"`)
      }
      const before = ctx.active.current().id
      ctx.active.set(profile.id)
      ctx.log.info(`profile "${profile.name}" in use (${profile.mode})`)
      if (before !== profile.id) ctx.events.emit('profile:changed', { profileId: profile.id, reason: 'selected' })
      return profile
    },
    'profile:setTimeZone': ({ id, timeZone }) => {
      const profile = ctx.profiles.setTimeZone(id, timeZone)
      ctx.log.info(
        `profile "${profile.name}" business time zone: ${profile.timeZone}${profile.timeZoneIsSystem ? ' (the computer’s)' : ''}`
      )
      updated(profile)
      return profile
    },
    'profile:setFundsSimulator': ({ id, url }) => {
      const profile = ctx.profiles.setFundsSimulator(id, url)
      ctx.log.info(`profile "${profile.name}": funds simulator ${profile.fundsSimulatorUrl ?? 'none'}`)
      updated(profile)
      return profile
    },
    'profile:add': async (input) => {
      const profile = await ctx.profiles.add(input)
      ctx.log.info(`profile "${profile.name}" added (${profile.mode}, ${profile.baseUrl})`)
      return profile
    },
    'profile:replaceKey': async ({ id, key }) => {
      const { profile, evidence } = await ctx.profiles.checkReplacementKey(id, key)
      const yes = await ctx.ui.confirm({
        title: 'Replace the key?',
        message: `Replace the key of "${profile.name}" (${profile.mode.toUpperCase()})?`,
        detail: `${evidence} The old key is removed from the keychain.`,
        confirmLabel: 'Replace key'
      })
      if (!yes) throw notConfirmed(`Replacing the key of "${profile.name}"`)
      await ctx.profiles.storeKey(profile, key)
      ctx.clients.setKey(profile.id, key)
      ctx.log.info(`profile "${profile.name}": key replaced`)
      return profile
    },
    'profile:remove': async ({ id }) => {
      const profile = ctx.profiles.get(id)
      if (profile.builtIn) throw new AppError('built_in_profile', 'The built-in Sandbox profile cannot be removed.')
      const busy = ctx.jobs.runningFor(profile.id)
      if (busy) throw new AppError('job_running', `${busy.title} is running for "${profile.name}"; cancel it first.`, { jobId: busy.id })
      const yes = await ctx.ui.confirm({
        title: 'Remove this profile?',
        message: `Remove "${profile.name}" (${profile.mode.toUpperCase()})?`,
        detail: `Its ${cachedRecords(profile).toLocaleString('en-US')} cached records are deleted from this computer, then its key is removed from the keychain. The provider keeps all its data.`,
        confirmLabel: 'Remove profile'
      })
      if (!yes) throw notConfirmed(`Removing "${profile.name}"`)
      const wasActive = ctx.active.current().id === profile.id
      await ctx.profiles.beginRemoval(profile.id)
      ctx.clients.drop(profile.id)
      ctx.log.info(`profile "${profile.name}" removed; deleting its cached records, then its key`)
      const jobId = startRemovalJob(ctx, profile)
      if (wasActive) ctx.events.emit('profile:changed', { profileId: ctx.active.current().id, reason: 'removed' })
      return { removed: profile.name, jobId }
    }
  }
}

// The explicit context every domain's handlers are built from: the cache, profiles, clients, jobs, events, log and the questions for main.
import type Database from 'better-sqlite3'
import { openCache } from '../cache/open'
import { CacheBackups } from '../cache/backups-host'
import { CacheStore } from '../cache/store'
import type { EventEmitter } from '../ipc/events'
import { JobRunner } from '../jobs/runner'
import { createFileLogger, LOG_FILE_NAME, type Logger } from '../log'
import { ActiveProfile } from '../profiles/active'
import { ClientPool } from '../profiles/clients'
import { ProfileService } from '../profiles/service'
import { createOsKeychainStore, type SecretStore } from '../secrets/secret-store'
import { TeamWorkspace } from '../team/workspace'
import { countSessions } from '../reconcile/sessions'
import { join } from 'node:path'
import { startSandbox } from '../../sandbox/server'
import type { MainUi } from '../ipc/questions'
import type { HostConfig } from './protocol'

export interface HostContext {
  config: HostConfig
  db: Database.Database
  store: CacheStore
  profiles: ProfileService
  active: ActiveProfile
  clients: ClientPool
  jobs: JobRunner
  events: EventEmitter
  log: Logger
  ui: MainUi
  /** The team workspace this computer is connected to (started by the host once it is ready). */
  team: TeamWorkspace
  /** The cache's backups: the day's taken while the app runs (started by the host once it is ready). */
  backups: CacheBackups
}

export interface HostDeps {
  events: EventEmitter
  ui: MainUi
  /** Electron's net.fetch in the utility process; Node's fetch otherwise. */
  fetch?: typeof fetch
  /** Default: the OS keychain under config.keychainService. */
  secrets?: SecretStore
  logger?: Logger
}

export function createHostContext(config: HostConfig, deps: HostDeps): HostContext {
  const log = deps.logger ?? createFileLogger(join(config.paths.logs, LOG_FILE_NAME))
  const db = openCache(config.paths.cacheDatabase, config.sqlite)
  const secrets = deps.secrets ?? createOsKeychainStore(config.keychainService)
  const fetchOption = deps.fetch ? { fetch: deps.fetch } : {}
  const pacingOption = config.pacing === false ? { pacing: false as const } : {}
  const profiles = new ProfileService({ db, secrets, logger: log, ...fetchOption, ...pacingOption })
  return {
    config,
    db,
    store: new CacheStore(db),
    profiles,
    active: new ActiveProfile(db, profiles),
    clients: new ClientPool({
      secrets,
      ...fetchOption,
      ...pacingOption,
      startBuiltIn: () => startSandbox({ rateLimits: false, strictSpec: config.sandboxStrictSpec === true })
    }),
    jobs: new JobRunner(deps.events, log),
    events: deps.events,
    log,
    ui: deps.ui,
    team: new TeamWorkspace({ db, secrets, events: deps.events, log, ...(config.teamDoorbell ? { doorbell: config.teamDoorbell } : {}) }),
    backups: new CacheBackups(db, log, { sessions: countSessions })
  }
}

/** Stops every job (each keeps what it saved), the built-in Sandbox, and closes the cache. */
export async function closeHostContext(ctx: HostContext): Promise<void> {
  await ctx.jobs.stopAll()
  await ctx.team.close()
  await ctx.backups.stop()
  await ctx.clients.close()
  ctx.db.close()
}

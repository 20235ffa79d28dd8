// The app's services behind the IPC calls for profiles, keys, sync, search and export; plain TypeScript, no electron.
import type Database from 'better-sqlite3'
import type { ExportOutcome, ProfileSummary, SyncStatus, VirtualAccountSummary } from '../../shared/ipc/contract'
import { parseMajor, toMajorString } from '../../shared/money'
import type { SearchQuery } from '../../shared/search'
import type { SyncResource, SyncSummary } from '../../shared/sync'
import type { Pacing } from '../api/http'
import { virtualAccountRow } from '../cache/records'
import { CacheStore } from '../cache/store'
import { AppError } from '../errors'
import { exportCsv } from '../export/export'
import type { EventEmitter } from '../ipc/events'
import type { HandlerMap } from '../ipc/router'
import { SANDBOX_PROFILE } from '../profiles/builtin'
import { describeSync, type Logger } from '../log'
import { ProfileService } from '../profiles/service'
import { search } from '../search/search'
import type { SecretStore } from '../secrets/secret-store'
import { runSync } from '../sync/engine'

export interface AppServicesOptions {
  db: Database.Database
  secrets: SecretStore
  events: EventEmitter
  /** Asks the user where to save an export; null when they cancel. Electron shows a save dialog. */
  chooseSaveFile: (suggestedName: string) => Promise<string | null>
  /** Electron passes net.fetch (system proxy). */
  fetch?: typeof fetch
  /** Default: the provider's documented limits per key mode. Tests against an unlimited Sandbox turn it off. */
  pacing?: Pacing | false
  logger?: Logger
}

export class AppServices {
  readonly profiles: ProfileService
  readonly store: CacheStore
  /** The profile in use; remembered in the cache's settings so the app reopens on it. */
  private activeId: string
  private running: { profileId: string; controller: AbortController } | null = null

  constructor(private readonly options: AppServicesOptions) {
    this.profiles = new ProfileService({
      db: options.db,
      secrets: options.secrets,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.pacing !== undefined ? { pacing: options.pacing } : {})
    })
    this.store = new CacheStore(options.db)
    const saved = options.db.prepare("select value from settings where key = 'active_profile'").get() as { value: string } | undefined
    this.activeId = saved?.value ?? SANDBOX_PROFILE.id
  }

  private setActive(id: string): void {
    this.activeId = id
    this.options.db.prepare("insert into settings (key, value) values ('active_profile', ?) on conflict (key) do update set value = excluded.value").run(id)
  }

  active(): ProfileSummary {
    try {
      return this.profiles.get(this.activeId)
    } catch {
      this.setActive(SANDBOX_PROFILE.id)
      return this.profiles.get(this.activeId)
    }
  }

  status(): SyncStatus {
    const profile = this.active()
    const count = (r: Parameters<CacheStore['count']>[1]): number => this.store.count(profile.id, r)
    return {
      running: this.running !== null,
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
      tracked: { bulkFiles: this.store.tracked(profile.id, 'bulk_file'), transfers: this.store.tracked(profile.id, 'transfer'), plans: this.store.tracked(profile.id, 'plan') },
      failures: this.store.failures(profile.id, 20)
    }
  }

  async sync(resources: SyncResource[] | undefined): Promise<SyncSummary> {
    if (this.running) throw new AppError('sync_running', 'A sync is already running; wait for it or cancel it.')
    const profile = this.active()
    const controller = new AbortController()
    this.running = { profileId: profile.id, controller }
    try {
      const client = await this.profiles.clientFor(profile)
      const summary = await runSync({
        client,
        store: this.store,
        profileId: profile.id,
        ...(resources ? { resources } : {}),
        signal: controller.signal,
        onProgress: (progress) => this.options.events.emit('sync:progress', { profileId: profile.id, ...progress })
      })
      this.options.logger?.info(describeSync(profile.name, summary))
      return summary
    } finally {
      this.running = null
    }
  }

  async export(query: Omit<SearchQuery, 'page' | 'pageSize'>): Promise<ExportOutcome> {
    const profile = this.active()
    const day = new Date().toISOString().slice(0, 10)
    const file = await this.options.chooseSaveFile(`ledgerline-${query.resource}-${profile.mode}-${day}.csv`)
    if (!file) return { file: null, rows: 0 }
    return exportCsv(this.options.db, profile, query, file)
  }

  virtualAccounts(): VirtualAccountSummary[] {
    return this.options.db
      .prepare(
        `select id, account_number as accountNumber, account_name as accountName, bank_name as bankName, lifecycle, expires_at as expiresAt,
                cast(json_extract(raw, '$.amount') as text) as amountRaw, json_extract(raw, '$.currency') as currency
         from virtual_accounts where profile_id = ? order by expires_at desc, id`
      )
      .all(this.active().id) as VirtualAccountSummary[]
  }

  /** Creates a dynamic virtual account with the provider and caches it, so each sync refreshes it by id. */
  async createVirtualAccount(input: { currency: 'NGN' | 'GHS'; accountName: string; amount: string; expiresIn?: number | undefined }): Promise<VirtualAccountSummary> {
    let minor: number
    try {
      minor = parseMajor(input.amount, input.currency)
    } catch (error) {
      throw new AppError('invalid_amount', `Amount: ${error instanceof Error ? error.message : String(error)}`, { field: 'amount' })
    }
    if (minor <= 0) throw new AppError('invalid_amount', 'Amount: it must be more than zero.', { field: 'amount' })
    const profile = this.active()
    const client = await this.profiles.clientFor(profile)
    const account = await client.createVirtualAccount({
      currency: input.currency,
      accountName: input.accountName,
      amount: Number(toMajorString(minor, input.currency)),
      ...(input.expiresIn !== undefined ? { expiresIn: input.expiresIn } : {})
    })
    this.store.writePage(profile.id, 'virtual_accounts', [virtualAccountRow(account)])
    this.options.logger?.info(`virtual account ${account.id} created in "${profile.name}" (${input.currency})`)
    const created = this.virtualAccounts().find((a) => a.id === account.id)
    if (!created) throw new AppError('internal', 'The new virtual account was not saved.')
    return created
  }

  handlers(): HandlerMap {
    return {
      'profile:list': () => this.profiles.list(),
      'profile:active': () => this.active(),
      'profile:select': ({ id }) => {
        if (this.running) throw new AppError('sync_running', 'Wait for the sync to finish (or cancel it) before switching profiles.')
        const profile = this.profiles.get(id)
        this.setActive(profile.id)
        return profile
      },
      'profile:add': async (input) => {
        const profile = await this.profiles.add(input)
        this.options.logger?.info(`profile "${profile.name}" added (${profile.mode}, ${profile.baseUrl})`)
        return profile
      },
      'profile:replaceKey': ({ id, key }) => this.profiles.replaceKey(id, key),
      'profile:remove': async ({ id }) => {
        if (this.running?.profileId === id) throw new AppError('sync_running', 'This profile is syncing; cancel the sync first.')
        const removed = await this.profiles.remove(id)
        this.options.logger?.info(`profile "${removed.name}" removed with its cached records and key`)
        return { removed: removed.name }
      },
      'sync:start': ({ resources }) => this.sync(resources),
      'sync:cancel': () => {
        if (!this.running) return { cancelled: false }
        this.running.controller.abort()
        return { cancelled: true }
      },
      'sync:status': () => this.status(),
      'sync:track': ({ kind, value }) => {
        this.store.track(this.active().id, kind, value)
        return this.status()
      },
      'search:query': (query) => search(this.options.db, this.active().id, query),
      'export:csv': (query) => this.export(query),
      'accounts:list': () => this.virtualAccounts(),
      'accounts:create': (input) => this.createVirtualAccount(input)
    }
  }

  async close(): Promise<void> {
    this.running?.controller.abort()
    await this.profiles.close()
  }
}

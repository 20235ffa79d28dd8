// One API client, and so one rate limiter, per profile: every job and call for a profile shares it and stays under the provider's limits.
import type { ApiClient } from '../api/client'
import { createApiClient } from '../api/client'
import type { Pacing } from '../api/http'
import { AppError } from '../errors'
import { registerSecret } from '../redact'
import type { SecretStore } from '../secrets/secret-store'
import type { Profile } from './service'
import { checkKey } from './service'

export interface ClientPoolOptions {
  secrets: SecretStore
  /** Electron passes net.fetch (system proxy); Node the global fetch. */
  fetch?: typeof fetch
  /** Default: the provider's documented limits per key mode. false: none (a server without limits). */
  pacing?: Pacing | false
  /** Starts the provider behind the built-in profile (the host and the CLI start the Sandbox); without it that profile is refused. */
  startBuiltIn?: () => Promise<BuiltInProvider>
}

/** The provider behind the built-in profile: the Sandbox (src/sandbox), started on first use by whoever wires the pool. */
export interface BuiltInProvider {
  baseUrl: string
  keys: { test: string }
  /** A bulk transfer file submitted as the provider's dashboard takes it: its bulk file id, or why it is refused. */
  submitBulkFile(mode: 'test' | 'live', csv: string): { id: string; transfers: number } | { title: string }
  close(): Promise<void>
}

interface Entry {
  client: Promise<ApiClient>
  /** Read on every request, so a replaced key takes effect without a new client (or a new limiter). */
  key: { value: string }
}

export class ClientPool {
  private readonly entries = new Map<string, Entry>()
  private sandbox: Promise<BuiltInProvider> | null = null

  constructor(private readonly options: ClientPoolOptions) {}

  /** The in-app Sandbox behind the built-in profile, started on first use. */
  builtInSandbox(): Promise<BuiltInProvider> {
    const start = this.options.startBuiltIn
    if (!start) return Promise.reject(new AppError('no_builtin', 'The built-in Sandbox is not available here.'))
    this.sandbox ??= start()
    return this.sandbox
  }

  /**
   * The profile's client: the in-process Sandbox for the built-in profile, the keychain's key
   * otherwise (or `keyOverride`, for a key given on the command line that is never stored).
   */
  for(profile: Profile, keyOverride?: string): Promise<ApiClient> {
    const existing = this.entries.get(profile.id)
    if (existing) return existing.client
    const key = { value: '' }
    const client = this.create(profile, key, keyOverride)
    const entry: Entry = { client, key }
    this.entries.set(profile.id, entry)
    client.catch(() => {
      if (this.entries.get(profile.id) === entry) this.entries.delete(profile.id)
    })
    return client
  }

  private async create(profile: Profile, key: { value: string }, keyOverride: string | undefined): Promise<ApiClient> {
    const fetchOption = this.options.fetch ? { fetch: this.options.fetch } : {}
    if (profile.builtIn) {
      const sandbox = await this.builtInSandbox()
      key.value = sandbox.keys.test
      return createApiClient({ baseUrl: sandbox.baseUrl, getKey: () => key.value, pacing: false })
    }
    if (profile.workspace !== null)
      throw new AppError(
        'team_profile',
        `"${profile.name}" holds the sessions shared in the team workspace ${profile.workspace}: it has no API key and nothing to sync from the provider. Use the profile of the provider account to sync.`
      )
    const stored = keyOverride ?? (await this.options.secrets.get(profile.id))
    if (!stored) throw new AppError('no_key', `No key is stored for "${profile.name}". Remove the profile and add it again with its key.`)
    registerSecret(stored)
    const mode = checkKey(stored)
    if (mode !== profile.mode)
      throw new AppError('mode_mismatch', `"${profile.name}" is a ${profile.mode} profile but the key is a ${mode} key.`)
    key.value = stored
    return createApiClient({
      baseUrl: profile.baseUrl as string,
      getKey: () => key.value,
      ...fetchOption,
      ...(this.options.pacing !== undefined ? { pacing: this.options.pacing } : {})
    })
  }

  /**
   * A client for the profile's test-mode funds simulator: the Sandbox's own for the built-in profile,
   * otherwise one at the address the profile names, with its test key. Never for a live profile.
   */
  async simulatorFor(profile: Profile): Promise<ApiClient> {
    if (profile.mode !== 'test')
      throw new AppError('test_mode_only', `Funds can only be simulated in test mode; "${profile.name}" is live.`)
    if (profile.builtIn) return this.for(profile)
    if (!profile.fundsSimulatorUrl)
      throw new AppError('no_funds_simulator', `"${profile.name}" names no funds simulator; set its address under Profiles.`)
    const key = await this.options.secrets.get(profile.id)
    if (!key) throw new AppError('no_key', `No key is stored for "${profile.name}". Remove the profile and add it again with its key.`)
    registerSecret(key)
    return createApiClient({
      baseUrl: profile.fundsSimulatorUrl,
      getKey: () => key,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(this.options.pacing !== undefined ? { pacing: this.options.pacing } : {})
    })
  }

  /** After a key was replaced: the profile's client (and its limiter) carries on with the new key. */
  setKey(profileId: string, key: string): void {
    registerSecret(key)
    const entry = this.entries.get(profileId)
    if (entry) entry.key.value = key
  }

  /** Forgets a removed profile's client. */
  drop(profileId: string): void {
    this.entries.delete(profileId)
  }

  async close(): Promise<void> {
    this.entries.clear()
    if (this.sandbox) await (await this.sandbox).close()
    this.sandbox = null
  }
}

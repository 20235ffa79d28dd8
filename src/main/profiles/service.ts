// Profiles: a name, base URL and mode per API key, stored in SQLite with the key itself only in the OS keychain.
import { createHash, randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import { KEY_PREFIXES } from '../../shared/api/assumptions'
import type { ProfileSummary } from '../../shared/ipc/contract'
import { createApiClient, type ApiClient } from '../api/client'
import { ApiError } from '../api/errors'
import { keyMode, type KeyMode, type Pacing } from '../api/http'
import { AppError } from '../errors'
import type { SecretStore } from '../secrets/secret-store'
import { startSandbox, type Sandbox } from '../sandbox/server'
import { SANDBOX_PROFILE } from './builtin'

export type Profile = ProfileSummary

interface ProfileRow {
  id: string
  name: string
  base_url: string | null
  mode: KeyMode
  built_in: number
  created_at: string
  last_synced_at: string | null
}

const toProfile = (r: ProfileRow): Profile => ({
  id: r.id,
  name: r.name,
  baseUrl: r.base_url,
  mode: r.mode,
  builtIn: r.built_in === 1,
  createdAt: r.created_at,
  lastSyncedAt: r.last_synced_at
})

export interface ProfileServiceOptions {
  db: Database.Database
  secrets: SecretStore
  /** Electron passes net.fetch (system proxy); Node the global fetch. */
  fetch?: typeof fetch
  /** Override the documented pacing (tests, or a server known to have no limits). */
  pacing?: Pacing | false
  now?: () => string
}

/** Checks and normalises a base URL: http(s), no credentials, ending in the version segment /v1. */
export function normaliseBaseUrl(input: string): string {
  let url: URL
  try {
    url = new URL(input.trim())
  } catch {
    throw new AppError('invalid_base_url', `"${input.slice(0, 100)}" is not a URL; it should look like https://api.example.com/v1.`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AppError('invalid_base_url', 'The base URL must start with https:// (or http:// for a local server).')
  if (url.username || url.password) throw new AppError('invalid_base_url', 'The base URL must not contain a user name or password; the key is stored separately.')
  const path = url.pathname.replace(/\/+$/, '')
  if (!path.endsWith('/v1')) throw new AppError('invalid_base_url', `The base URL should end in /v1 (got ${url.origin}${path || '/'}).`)
  return `${url.origin}${path}`
}

export function checkKey(key: string): KeyMode {
  const trimmed = key.trim()
  const mode = keyMode(trimmed)
  if (mode) return mode
  if (/^pk_(test|live)_/.test(trimmed)) throw new AppError('invalid_key_format', `That is a public key (pk_…). Ledgerline needs the secret key (${KEY_PREFIXES.test}… or ${KEY_PREFIXES.live}…).`)
  throw new AppError('invalid_key_format', `That does not look like a secret key: it should start with ${KEY_PREFIXES.test} or ${KEY_PREFIXES.live}.`)
}

export class ProfileService {
  private sandbox: Promise<Sandbox> | null = null

  constructor(private readonly options: ProfileServiceOptions) {
    this.ensureBuiltIn()
  }

  private get db(): Database.Database {
    return this.options.db
  }

  private now(): string {
    return this.options.now?.() ?? new Date().toISOString()
  }

  private ensureBuiltIn(): void {
    this.db
      .prepare('insert into profiles (id, name, base_url, mode, built_in, created_at) values (?, ?, null, ?, 1, ?) on conflict (id) do nothing')
      .run(SANDBOX_PROFILE.id, SANDBOX_PROFILE.name, SANDBOX_PROFILE.mode, this.now())
  }

  list(): Profile[] {
    return (this.db.prepare('select * from profiles order by built_in desc, name').all() as ProfileRow[]).map(toProfile)
  }

  /** By id or (case-insensitive) name; a clear error naming the profiles there are. */
  get(idOrName: string): Profile {
    const row = this.db.prepare('select * from profiles where id = ? or lower(name) = lower(?)').get(idOrName, idOrName) as ProfileRow | undefined
    if (row) return toProfile(row)
    const names = this.list().map((p) => p.name)
    throw new AppError('unknown_profile', `No profile called "${idOrName.slice(0, 80)}". Profiles: ${names.join(', ')}.`)
  }

  private client(baseUrl: string, key: string, pacing?: Pacing | false): ApiClient {
    const pace = pacing ?? this.options.pacing
    return createApiClient({
      baseUrl,
      getKey: () => key,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(pace !== undefined ? { pacing: pace } : {})
    })
  }

  /** Asks the server with the key: refused keys and a mode that disagrees with the key's prefix are errors. */
  async verify(baseUrl: string, key: string): Promise<KeyMode> {
    const mode = checkKey(key)
    let page
    try {
      page = await this.client(baseUrl, key.trim()).listPayments({}, { size: 1 })
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        throw new AppError('invalid_credentials', `The provider at ${baseUrl} refused this key (${error.code}). Check that you copied the whole secret key.`)
      }
      throw error
    }
    const served = page.content[0]?.mode
    if (typeof served === 'string' && served.toLowerCase() !== mode) {
      throw new AppError('mode_mismatch', `This is a ${mode} key but the server answered with ${served.toLowerCase()} data; test and live data are never mixed.`)
    }
    return mode
  }

  /** Verifies the key with the server, stores it in the keychain, then records the profile. */
  async add(input: { name: string; baseUrl: string; key: string }): Promise<Profile> {
    const name = input.name.trim()
    if (name === '' || name.length > 80) throw new AppError('invalid_name', 'A profile needs a name of 1 to 80 characters.')
    if (this.db.prepare('select 1 from profiles where lower(name) = lower(?)').get(name)) throw new AppError('duplicate_name', `A profile called "${name}" already exists.`)
    const baseUrl = normaliseBaseUrl(input.baseUrl)
    const mode = await this.verify(baseUrl, input.key)
    const id = randomUUID()
    await this.options.secrets.set(id, input.key.trim())
    try {
      this.db.prepare('insert into profiles (id, name, base_url, mode, built_in, created_at) values (?, ?, ?, ?, 0, ?)').run(id, name, baseUrl, mode, this.now())
    } catch (error) {
      await this.options.secrets.delete(id).catch(() => false)
      throw error
    }
    return this.get(id)
  }

  /** Checks a new key for an existing profile (same mode, accepted by the server) and replaces the stored one. */
  async replaceKey(idOrName: string, key: string): Promise<Profile> {
    const profile = this.get(idOrName)
    if (profile.builtIn) throw new AppError('built_in_profile', 'The built-in Sandbox needs no key.')
    const mode = checkKey(key)
    if (mode !== profile.mode) throw new AppError('mode_mismatch', `"${profile.name}" is a ${profile.mode} profile; this is a ${mode} key. Add a separate profile for ${mode} data.`)
    await this.verify(profile.baseUrl as string, key)
    await this.options.secrets.set(profile.id, key.trim())
    return profile
  }

  /** Removes the profile, its cached records and its key. The built-in Sandbox stays. */
  async remove(idOrName: string): Promise<Profile> {
    const profile = this.get(idOrName)
    if (profile.builtIn) throw new AppError('built_in_profile', 'The built-in Sandbox profile cannot be removed.')
    await this.options.secrets.delete(profile.id)
    this.db.prepare('delete from profiles where id = ?').run(profile.id)
    return profile
  }

  /**
   * A profile for a base URL and a key given directly (CLI --base-url): one per URL and mode, so
   * test and live data stay apart; its key is never stored.
   */
  adHoc(baseUrlInput: string, key: string): Profile {
    return this.adHocForMode(baseUrlInput, checkKey(key))
  }

  /** The same ad-hoc profile, found by mode (e.g. to search its cache without the key). */
  adHocForMode(baseUrlInput: string, mode: KeyMode): Profile {
    const baseUrl = normaliseBaseUrl(baseUrlInput)
    const id = `url-${createHash('sha256').update(`${baseUrl}|${mode}`).digest('hex').slice(0, 20)}`
    this.db
      .prepare('insert into profiles (id, name, base_url, mode, built_in, created_at) values (?, ?, ?, ?, 0, ?) on conflict (id) do nothing')
      .run(id, `${baseUrl} [${mode}]`, baseUrl, mode, this.now())
    return this.get(id)
  }

  /**
   * An API client for a profile: the in-process Sandbox for the built-in one, the keychain's key
   * otherwise (or `keyOverride`). `pacing` overrides the service's pacing for this client only.
   */
  async clientFor(profile: Profile, keyOverride?: string, pacing?: Pacing | false): Promise<ApiClient> {
    if (profile.builtIn) {
      this.sandbox ??= startSandbox({ rateLimits: false })
      const sandbox = await this.sandbox
      return this.client(sandbox.baseUrl, sandbox.keys.test, false)
    }
    const key = keyOverride ?? (await this.options.secrets.get(profile.id))
    if (!key) throw new AppError('no_key', `No key is stored for "${profile.name}". Remove the profile and add it again with its key.`)
    if (checkKey(key) !== profile.mode) throw new AppError('mode_mismatch', `"${profile.name}" is a ${profile.mode} profile but the key is a ${checkKey(key)} key.`)
    return this.client(profile.baseUrl as string, key, pacing)
  }

  async close(): Promise<void> {
    if (this.sandbox) await (await this.sandbox).close()
    this.sandbox = null
  }
}

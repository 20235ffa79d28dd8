// Profiles: a name, base URL and mode per API key, stored in SQLite with the key itself only in the OS keychain.
import { createHash, randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import { KEY_PREFIXES } from '../../shared/api/assumptions'
import type { ProfileSummary } from '../../shared/ipc/contract'
import { createApiClient, type ApiClient } from '../api/client'
import { ApiError } from '../api/errors'
import { keyMode, type KeyMode, type Pacing } from '../api/http'
import { AppError } from '../errors'
import { backupCache, rotateBackups } from '../cache/backup'
import type { Logger } from '../log'
import { registerSecret } from '../redact'
import type { SecretStore } from '../secrets/secret-store'
import { SANDBOX_PROFILE } from './builtin'
import { isTimeZone, systemTimeZone } from '../../shared/time'

export type Profile = ProfileSummary

interface ProfileRow {
  id: string
  name: string
  base_url: string | null
  mode: KeyMode
  built_in: number
  created_at: string
  last_synced_at: string | null
  time_zone: string | null
  funds_simulator_url: string | null
  team_workspace: string | null
}

const toProfile = (r: ProfileRow): Profile => ({
  timeZone: r.time_zone ?? systemTimeZone(),
  timeZoneIsSystem: r.time_zone === null,
  id: r.id,
  name: r.name,
  baseUrl: r.base_url,
  mode: r.mode,
  builtIn: r.built_in === 1,
  createdAt: r.created_at,
  lastSyncedAt: r.last_synced_at,
  fundsSimulatorUrl: r.funds_simulator_url,
  workspace: r.team_workspace
})

/** Key checks with the server that profile:add may make: enough for typos, too few to guess keys. */
export const KEY_CHECK_LIMIT = { attempts: 5, windowMs: 60_000 }

export interface ProfileServiceOptions {
  db: Database.Database
  secrets: SecretStore
  /** Electron passes net.fetch (system proxy); Node the global fetch. */
  fetch?: typeof fetch
  /** Override the documented pacing for key checks (tests, or a server known to have no limits). */
  pacing?: Pacing | false
  /** Receives one line per key check (never the key). */
  logger?: Logger
  now?: () => number
}

/** 127.0.0.0/8, localhost and ::1: the only hosts plain http:// may point at (the Sandbox, a local test server). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

/** Checks and normalises a base URL: https (http only on this computer), no credentials, ending in the version segment /v1. */
export function normaliseBaseUrl(input: string): string {
  let url: URL
  try {
    url = new URL(input.trim())
  } catch {
    throw new AppError('invalid_base_url', `"${input.slice(0, 100)}" is not a URL; it should look like https://api.example.com/v1.`)
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new AppError(
      'invalid_base_url',
      'The base URL must start with https:// (plain http:// is allowed only for a server on this computer, such as the Sandbox).'
    )
  }
  if (url.username || url.password)
    throw new AppError('invalid_base_url', 'The base URL must not contain a user name or password; the key is stored separately.')
  const path = url.pathname.replace(/\/+$/, '')
  if (!path.endsWith('/v1')) throw new AppError('invalid_base_url', `The base URL should end in /v1 (got ${url.origin}${path || '/'}).`)
  return `${url.origin}${path}`
}

/** Whitespace, control and invisible format characters: none belongs in a key, and a header must never carry them. */
const NOT_IN_A_KEY = /[\s\p{Cc}\p{Cf}]/u

function describeCharacter(ch: string): string {
  if (ch === ' ') return 'a space'
  if (ch === '\n' || ch === '\r') return 'a line break'
  if (ch === '\t') return 'a tab'
  return `an invisible character (U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})`
}

/** The key's mode from its prefix; refuses anything that is not a secret key exactly as issued. */
export function checkKey(key: string): KeyMode {
  const bad = NOT_IN_A_KEY.exec(key)
  if (bad) {
    throw new AppError(
      'invalid_key_format',
      `The key contains ${describeCharacter(bad[0])} at character ${bad.index + 1}. Copy it again without spaces or line breaks.`
    )
  }
  const mode = keyMode(key)
  if (mode) return mode
  if (/^pk_(test|live)_/.test(key))
    throw new AppError(
      'invalid_key_format',
      `That is a public key (pk_…). Ledgerline needs the secret key (${KEY_PREFIXES.test}… or ${KEY_PREFIXES.live}…).`
    )
  throw new AppError(
    'invalid_key_format',
    `That does not look like a secret key: it should start with ${KEY_PREFIXES.test} or ${KEY_PREFIXES.live}.`
  )
}

/** The id prefix of a profile made for a base URL and a key given directly (CLI --base-url), whose key is never stored. */
const AD_HOC_PREFIX = 'url-'

export class ProfileService {
  private keyChecks: number[] = []

  constructor(private readonly options: ProfileServiceOptions) {
    this.ensureBuiltIn()
  }

  private get db(): Database.Database {
    return this.options.db
  }

  private now(): number {
    return this.options.now?.() ?? Date.now()
  }

  private ensureBuiltIn(): void {
    this.db
      .prepare(
        'insert into profiles (id, name, base_url, mode, built_in, created_at) values (?, ?, null, ?, 1, ?) on conflict (id) do nothing'
      )
      .run(SANDBOX_PROFILE.id, SANDBOX_PROFILE.name, SANDBOX_PROFILE.mode, new Date(this.now()).toISOString())
  }

  /** Profiles in use; one being removed is already gone from here. */
  list(): Profile[] {
    return (this.db.prepare('select * from profiles where removing = 0 order by built_in desc, name').all() as ProfileRow[]).map(toProfile)
  }

  /** By id or (case-insensitive) name; a clear error naming the profiles there are. */
  get(idOrName: string): Profile {
    const row = this.db
      .prepare('select * from profiles where removing = 0 and (id = ? or lower(name) = lower(?))')
      .get(idOrName, idOrName) as ProfileRow | undefined
    if (row) return toProfile(row)
    const names = this.list().map((p) => p.name)
    throw new AppError('unknown_profile', `No profile called "${idOrName.slice(0, 80)}". Profiles: ${names.join(', ')}.`)
  }

  /** Sets the business time zone (IANA name), or null to follow the computer's. */
  setTimeZone(idOrName: string, timeZone: string | null): Profile {
    const profile = this.get(idOrName)
    const zone = timeZone?.trim() ?? null
    if (zone !== null && !isTimeZone(zone)) {
      throw new AppError(
        'invalid_time_zone',
        `Time zone: "${zone.slice(0, 64)}" is not a time zone name; use one such as Africa/Lagos, Europe/London or UTC.`,
        { field: 'timeZone' }
      )
    }
    this.db.prepare('update profiles set time_zone = ? where id = ?').run(zone, profile.id)
    return this.get(profile.id)
  }

  /**
   * The address of the provider's test-mode funds simulator for this profile (its own tool, outside the
   * API's base URL), or null to have none. Checked like a base URL but with no version segment.
   */
  setFundsSimulator(idOrName: string, url: string | null): Profile {
    const profile = this.get(idOrName)
    if (profile.builtIn) throw new AppError('built_in_profile', 'The built-in Sandbox has its own funds simulator.')
    let value: string | null = null
    if (url !== null && url.trim() !== '') {
      let parsed: URL
      try {
        parsed = new URL(url.trim())
      } catch {
        throw new AppError(
          'invalid_url',
          `Funds simulator: "${url.slice(0, 100)}" is not a URL; it should look like https://simulator.example.com.`,
          { field: 'fundsSimulatorUrl' }
        )
      }
      if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)))
        throw new AppError(
          'invalid_url',
          'Funds simulator: the address must start with https:// (http:// only for a server on this computer).',
          { field: 'fundsSimulatorUrl' }
        )
      if (parsed.username || parsed.password)
        throw new AppError('invalid_url', 'Funds simulator: the address must not contain a user name or password.', {
          field: 'fundsSimulatorUrl'
        })
      value = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`
    }
    this.db.prepare('update profiles set funds_simulator_url = ? where id = ?').run(value, profile.id)
    return this.get(profile.id)
  }

  /** A client for a key that is not a profile's yet (checks before adding or replacing); profiles' own clients come from the ClientPool. */
  private checkingClient(baseUrl: string, key: string): ApiClient {
    return createApiClient({
      baseUrl,
      getKey: () => key,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(this.options.pacing !== undefined ? { pacing: this.options.pacing } : {})
    })
  }

  /** Counts a key check against KEY_CHECK_LIMIT; refuses once the window is full. */
  private takeKeyCheck(what: string): void {
    const t = this.now()
    this.keyChecks = this.keyChecks.filter((at) => t - at < KEY_CHECK_LIMIT.windowMs)
    if (this.keyChecks.length >= KEY_CHECK_LIMIT.attempts) {
      const waitSeconds = Math.ceil((KEY_CHECK_LIMIT.windowMs - (t - (this.keyChecks[0] as number))) / 1000)
      this.options.logger?.info(`key check refused for ${what}: ${this.keyChecks.length} checks in the last minute`)
      throw new AppError(
        'too_many_key_checks',
        `Too many key checks: ${KEY_CHECK_LIMIT.attempts} in the last minute. Wait ${waitSeconds} s and try again.`,
        { retryAfterSeconds: waitSeconds }
      )
    }
    this.keyChecks.push(t)
  }

  /** Asks the server with the key: refused keys and a mode that disagrees with the key's prefix are errors. */
  async verify(baseUrl: string, key: string, what = baseUrl): Promise<{ mode: KeyMode; client: ApiClient }> {
    const mode = checkKey(key)
    registerSecret(key)
    this.takeKeyCheck(what)
    const client = this.checkingClient(baseUrl, key)
    let page
    try {
      page = await client.listPayments({}, { size: 1 })
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'network_error'
      this.options.logger?.info(`key check for ${what}: refused (${code})`)
      if (error instanceof ApiError && error.status === 401) {
        throw new AppError(
          'invalid_credentials',
          `The provider at ${baseUrl} refused this key (${error.code}). Check that you copied the whole secret key.`
        )
      }
      throw error
    }
    const served = page.content[0]?.mode
    if (typeof served === 'string' && served.toLowerCase() !== mode) {
      this.options.logger?.info(`key check for ${what}: refused (mode_mismatch)`)
      throw new AppError(
        'mode_mismatch',
        `This is a ${mode} key but the server answered with ${served.toLowerCase()} data; test and live data are never mixed.`
      )
    }
    this.options.logger?.info(`key check for ${what}: accepted (${mode})`)
    return { mode, client }
  }

  /** Verifies the key with the server, stores it in the keychain, then records the profile. */
  async add(input: { name: string; baseUrl: string; key: string }): Promise<Profile> {
    const name = input.name.trim()
    if (name === '' || name.length > 80) throw new AppError('invalid_name', 'A profile needs a name of 1 to 80 characters.')
    if (this.db.prepare('select 1 from profiles where lower(name) = lower(?)').get(name))
      throw new AppError('duplicate_name', `A profile called "${name}" already exists.`)
    const baseUrl = normaliseBaseUrl(input.baseUrl)
    const { mode } = await this.verify(baseUrl, input.key, `new profile "${name}" at ${baseUrl}`)
    const id = randomUUID()
    await this.options.secrets.set(id, input.key)
    try {
      this.db
        .prepare('insert into profiles (id, name, base_url, mode, built_in, created_at) values (?, ?, ?, ?, 0, ?)')
        .run(id, name, baseUrl, mode, new Date(this.now()).toISOString())
    } catch (error) {
      await this.options.secrets.delete(id).catch(() => false)
      throw error
    }
    return this.get(id)
  }

  /**
   * Checks a new key for an existing profile: the same mode, accepted by the server, and seeing
   * this merchant's data (a payment cached with the old key). Returns what the check found, for
   * the confirmation; nothing is stored yet.
   */
  async checkReplacementKey(idOrName: string, key: string): Promise<{ profile: Profile; evidence: string }> {
    const profile = this.get(idOrName)
    if (profile.builtIn) throw new AppError('built_in_profile', 'The built-in Sandbox needs no key.')
    const mode = checkKey(key)
    if (mode !== profile.mode)
      throw new AppError(
        'mode_mismatch',
        `"${profile.name}" is a ${profile.mode} profile; this is a ${mode} key. Add a separate profile for ${mode} data.`
      )
    const { client } = await this.verify(profile.baseUrl as string, key, `new key for "${profile.name}"`)
    const known = this.db
      .prepare('select id, reference, amount_raw, currency, created_at from payments where profile_id = ? order by rowid desc limit 1')
      .get(profile.id) as { id: string; reference: string | null; amount_raw: string; currency: string; created_at: string } | undefined
    if (!known) {
      return {
        profile,
        evidence: 'Nothing is cached for this profile yet, so Ledgerline cannot check that the new key belongs to the same merchant.'
      }
    }
    const seen = await client.listPayments({ paymentId: known.id }, { size: 1, page: 0 })
    if (!seen.content.some((p) => p.id === known.id)) {
      throw new AppError(
        'different_merchant',
        `The new key does not see payment ${known.reference ?? known.id} that "${profile.name}" has cached, so it probably belongs to another merchant. Add it as a separate profile.`
      )
    }
    return {
      profile,
      evidence: `The new key sees payment ${known.reference ?? known.id} (${known.amount_raw} ${known.currency}, ${known.created_at.slice(0, 10)}), cached with the old key: same merchant.`
    }
  }

  /** Stores a key checked by checkReplacementKey. */
  async storeKey(profile: Profile, key: string): Promise<void> {
    await this.options.secrets.set(profile.id, key)
  }

  /**
   * Starts removing a profile: it leaves every list at once (its name is free again); its cached
   * records are deleted next, and its key last (see removal.ts), so a key is never gone while data
   * it fetched is still here. Fails before anything changes when the keychain cannot be reached.
   */
  async beginRemoval(idOrName: string): Promise<Profile> {
    const profile = this.get(idOrName)
    if (profile.builtIn) throw new AppError('built_in_profile', 'The built-in Sandbox profile cannot be removed.')
    if (!profile.id.startsWith(AD_HOC_PREFIX)) await this.options.secrets.get(profile.id)
    // A profile of the user's (not one the CLI made for a key it was given) is kept in a backup first: a mistaken removal is undone by a restore.
    if (!profile.id.startsWith(AD_HOC_PREFIX) && !this.db.memory) {
      const backup = await backupCache(this.db, { reason: 'before-profile-removal' })
      this.options.logger?.info(`profiles: backed up the cache to ${backup.path} before removing "${profile.name}"`)
      rotateBackups(this.db.name)
    }
    this.db.prepare("update profiles set removing = 1, name = name || ' (removing ' || id || ')' where id = ?").run(profile.id)
    return profile
  }

  /** The last step of a removal, once its records are gone: the key leaves the keychain, then the profile row goes. */
  async finishRemoval(profileId: string): Promise<void> {
    // An ad-hoc profile's key was never stored: the keychain is not touched (it may not even be there).
    if (!profileId.startsWith(AD_HOC_PREFIX)) await this.options.secrets.delete(profileId)
    this.db.prepare('delete from profiles where id = ? and removing = 1').run(profileId)
  }

  /** Profiles whose removal was started but not finished (the app stopped): their records are still to be deleted. */
  pendingRemovals(): { id: string; name: string }[] {
    const rows = this.db.prepare('select id, name from profiles where removing = 1').all() as { id: string; name: string }[]
    return rows.map((r) => ({ id: r.id, name: r.name.replace(/ \(removing [^)]*\)$/, '') }))
  }

  /**
   * A profile for a base URL and a key given directly (CLI --base-url): one per URL and mode, so
   * test and live data stay apart; its key is never stored.
   */
  adHoc(baseUrlInput: string, key: string): Profile {
    return this.adHocForMode(baseUrlInput, checkKey(key))
  }

  /**
   * A profile with no key and no server, for records written into the cache by Ledgerline itself (the
   * Sandbox's generated year): found again by its name, made once.
   */
  keyless(name: string, timeZone: string): Profile {
    const id = `keyless-${createHash('sha256').update(name).digest('hex').slice(0, 20)}`
    this.db
      .prepare(
        'insert into profiles (id, name, base_url, mode, built_in, created_at, time_zone) values (?, ?, null, ?, 0, ?, ?) on conflict (id) do nothing'
      )
      .run(id, name, 'test', new Date(this.now()).toISOString(), timeZone)
    return this.get(id)
  }

  /** The same ad-hoc profile, found by mode (e.g. to search its cache without the key). */
  adHocForMode(baseUrlInput: string, mode: KeyMode): Profile {
    const baseUrl = normaliseBaseUrl(baseUrlInput)
    const id = `${AD_HOC_PREFIX}${createHash('sha256').update(`${baseUrl}|${mode}`).digest('hex').slice(0, 20)}`
    this.db
      .prepare(
        'insert into profiles (id, name, base_url, mode, built_in, created_at) values (?, ?, ?, ?, 0, ?) on conflict (id) do nothing'
      )
      .run(id, `${baseUrl} [${mode}]`, baseUrl, mode, new Date(this.now()).toISOString())
    return this.get(id)
  }
}

// What every CLI command shares: usage errors, options, opening the cache beside its log, choosing the profile, and saying things in the user's locale.
import { accessSync, constants, existsSync, mkdirSync, statSync, type Stats } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type Database from 'better-sqlite3'
import { defaultDataDir, CACHE_FILE_NAME } from '../main/app/paths'
import { openCache } from '../main/cache/open'
import { createFileLogger, LOG_FILE_NAME, type Logger } from '../main/log'
import { ProfileService, type Profile } from '../main/profiles/service'
import { registerSecret } from '../main/redact'
import { ClientPool, type ClientPoolOptions } from '../main/profiles/clients'
import { startSandbox } from '../sandbox/server'
import { createOsKeychainStore, KEYCHAIN_SERVICE, type SecretStore } from '../main/secrets/secret-store'
import { environmentLocale, inLocale, knownLocale } from '../shared/locale'
import { systemTimeZone } from '../shared/time'

/**
 * The locale of the CLI's human output and the reports it writes for people: LEDGERLINE_LOCALE (a tag
 * such as en-NG, or iso), else the environment's (LC_ALL, LC_TIME, LANG), else ISO days.
 */
export function cliLocale(): string {
  const asked = process.env['LEDGERLINE_LOCALE']
  return asked ? knownLocale(asked) : environmentLocale(process.env)
}

/** Human output on stdout, its days and times as the user writes them (times in this computer's zone); JSON answers are written as they are. */
export function say(text: string): void {
  process.stdout.write(inLocale(text, cliLocale(), systemTimeZone()))
}

/**
 * The keychain entries the CLI keeps keys under: the app's, unless LEDGERLINE_KEYCHAIN_SERVICE names another set (tests
 * use their own, so they never read or write the keys of the Ledgerline on the same computer).
 */
export function cliSecrets(): SecretStore {
  return createOsKeychainStore(process.env['LEDGERLINE_KEYCHAIN_SERVICE'] || KEYCHAIN_SERVICE)
}

/** The CLI's client pool: keys from the keychain, and the Sandbox behind the built-in profile, started on first use. */
export function cliClients(options: Pick<ClientPoolOptions, 'pacing'> = {}): ClientPool {
  return new ClientPool({ secrets: cliSecrets(), ...options, startBuiltIn: () => startSandbox({ rateLimits: false }) })
}

/** Said after a plain CSV is written: it is not for Excel. */
export const PLAIN_NOTE = ' (plain CSV for accounting software, pandas and SQL; not meant for Excel)'

/** Thrown for anything the user typed wrong: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** An item key as typed, or as copied from the Excel-safe report, where the file holds it wrapped (="…"). */
export function itemKeyGiven(value: string): string {
  return /^="[^"]*"$/.test(value) ? value.slice(2, -1) : value
}

export function positiveInt(name: string, value: string | undefined, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max || !Number.isSafeInteger(Number(value))) {
    const range =
      max < Number.MAX_SAFE_INTEGER
        ? ` from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`
        : min > 0
          ? ` of at least ${min}`
          : ''
    throw new UsageError(`--${name} must be a whole number${range} (got "${value}")`)
  }
  return Number(value)
}

/** The largest seed the Sandbox tells apart: its streams mix 32-bit numbers, so a larger one would be another's seed. */
export const MAX_SEED = 0xffff_ffff

export const FILTER_OPTIONS = {
  status: { type: 'string' },
  channel: { type: 'string' },
  currency: { type: 'string' },
  min: { type: 'string' },
  max: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  sort: { type: 'string' },
  filter: { type: 'string', multiple: true }
} as const

export const COMMON = {
  db: { type: 'string' },
  profile: { type: 'string' },
  'base-url': { type: 'string' },
  mode: { type: 'string' },
  json: { type: 'boolean' }
} as const

export interface Opened {
  file: string
  db: Database.Database
  profiles: ProfileService
  /** logs/ledgerline.log beside the cache file. */
  log: Logger
  close(): Promise<void>
}

/**
 * Opens the cache. Only commands that fill one (`fills`: sync, profile add, import, reconcile)
 * create it, and say so on stderr; every other command refuses a cache that is not there (a
 * mistyped --db), creating nothing.
 */
export function openData(dbOption: string | undefined, use: 'reads' | 'fills'): Opened {
  const file = resolve(dbOption ?? join(defaultDataDir(), CACHE_FILE_NAME))
  if (!existsSync(file)) {
    if (use === 'reads')
      throw new UsageError(
        `there is no cache at ${file}; check --db, or fill one first with sync, profile add, import or reconcile (nothing was created)`
      )
    process.stderr.write(`ledgerline: created a new cache at ${file}\n`)
  }
  mkdirSync(dirname(file), { recursive: true })
  const db = openCache(file)
  const log = createFileLogger(join(dirname(file), 'logs', LOG_FILE_NAME))
  const profiles = new ProfileService({ db, secrets: cliSecrets(), logger: log })
  return {
    file,
    db,
    profiles,
    log,
    close: async () => {
      db.close()
    }
  }
}

/**
 * An output file's path, checked before any work is done: its folder must exist and be writable,
 * and it must not be a folder itself. Returns the absolute path.
 */
export function outputPath(option: string, value: string): string {
  const file = resolve(value)
  const folder = dirname(file)
  let stat: Stats
  try {
    stat = statSync(folder)
  } catch {
    throw new UsageError(`--${option}: the folder ${folder} does not exist; create it first (nothing was done)`)
  }
  if (!stat.isDirectory()) throw new UsageError(`--${option}: ${folder} is not a folder (nothing was done)`)
  try {
    accessSync(folder, constants.W_OK)
  } catch {
    throw new UsageError(`--${option}: the folder ${folder} cannot be written to (nothing was done)`)
  }
  if (existsSync(file) && statSync(file).isDirectory())
    throw new UsageError(`--${option}: ${file} is a folder; give a file name (nothing was done)`)
  return file
}

export function apiKeyFromEnv(): string | undefined {
  const key = process.env['LEDGERLINE_API_KEY']?.trim()
  if (!key) return undefined
  registerSecret(key)
  return key
}

/** --profile, or --base-url (mode from --mode or the key in LEDGERLINE_API_KEY), or the only profile holding data. */
export function chooseProfile(
  data: Opened,
  values: { profile?: string | undefined; 'base-url'?: string | undefined; mode?: string | undefined }
): Profile {
  if (values.profile) return data.profiles.get(values.profile)
  if (values['base-url']) {
    const key = apiKeyFromEnv()
    if (key) return data.profiles.adHoc(values['base-url'], key)
    if (values.mode !== 'test' && values.mode !== 'live')
      throw new UsageError('with --base-url, give --mode test|live (or LEDGERLINE_API_KEY)')
    return data.profiles.adHocForMode(values['base-url'], values.mode)
  }
  const withData = data.db
    .prepare(
      `select distinct profile_id as id from (select profile_id from payments union all select profile_id from transfers union all select profile_id from subscriptions union all select profile_id from plans)`
    )
    .all() as { id: string }[]
  if (withData.length === 1) return data.profiles.get((withData[0] as { id: string }).id)
  const names = data.profiles
    .list()
    .map((p) => `"${p.name}"`)
    .join(', ')
  if (withData.length === 0)
    throw new UsageError(
      `no profile in this cache holds any records yet; run ledgerline sync first, or choose a profile with --profile NAME (profiles: ${names})`
    )
  throw new UsageError(`choose a profile with --profile NAME (profiles: ${names})`)
}

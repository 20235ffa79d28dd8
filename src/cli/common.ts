// What every CLI command shares: usage errors, options, opening the cache beside its log, and choosing the profile.
import { mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type Database from 'better-sqlite3'
import { defaultDataDir, CACHE_FILE_NAME } from '../main/app/paths'
import { openCache } from '../main/cache/open'
import { createFileLogger, LOG_FILE_NAME, type Logger } from '../main/log'
import { ProfileService, type Profile } from '../main/profiles/service'
import { registerSecret } from '../main/redact'
import { createOsKeychainStore } from '../main/secrets/secret-store'

/** Thrown for anything the user typed wrong: printed as one line, exit code 2. */
export class UsageError extends Error {}

export function positiveInt(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`--${name} must be a whole number${min > 0 ? ` of at least ${min}` : ''} (got "${value}")`)
  }
  return Number(value)
}

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

export function openData(dbOption: string | undefined): Opened {
  const file = resolve(dbOption ?? join(defaultDataDir(), CACHE_FILE_NAME))
  mkdirSync(dirname(file), { recursive: true })
  const db = openCache(file)
  const log = createFileLogger(join(dirname(file), 'logs', LOG_FILE_NAME))
  const profiles = new ProfileService({ db, secrets: createOsKeychainStore(), logger: log })
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

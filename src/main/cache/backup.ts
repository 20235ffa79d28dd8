// Backups of the cache, the accountant's months of work: taken online with SQLite's backup API (a snapshot before a migration), each checked and kept beside the cache in a rotation, listed, and restored after a check of the file, with the cache as it was kept aside first. Keys live in the system keychain, never in the cache, so never in a backup.
import Database from 'better-sqlite3'
import { closeSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import { AppError } from '../errors'
import { createTempFile } from '../files/safe-file'
import { latestVersion, migrate } from './migrations'
import { BACKUP_REASONS, type BackupReason, type BackupRow } from '../../shared/ipc/backups'

/** A backup as listed, with where it is. */
export interface BackupInfo extends BackupRow {
  path: string
}

/** What else a backup is said to hold, counted by the domain whose tables hold it (the cache names no other domain's tables). */
export interface BackupCounts {
  sessions?: (db: Database.Database) => number
}

/** How many backups the rotation keeps: the newest of each of the last `daily` days that have one, and of each of the last `weekly` weeks; and always the newest `newest`. */
export const ROTATION = { daily: 7, weekly: 4, newest: 3 } as const

/** The folder a cache's backups are kept in: `backups` beside it. */
export function backupFolder(cacheFile: string): string {
  return join(dirname(cacheFile), 'backups')
}

const stem = (cacheFile: string): string => basename(cacheFile, extname(cacheFile))
const stamp = (at: Date): string => at.toISOString().replace(/[:.]/g, '-')
const NAME = /^(.+)-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)-([a-z-]+)\.sqlite$/

/** A backup's name: the cache's, when, and why (cache-2026-11-29T11-17-13-123Z-daily.sqlite). */
export function backupName(cacheFile: string, reason: BackupReason, at: Date): string {
  return `${stem(cacheFile)}-${stamp(at)}-${reason}.sqlite`
}

function parseName(name: string): { stem: string; takenAt: string; reason: BackupReason } | null {
  const m = NAME.exec(name)
  if (!m || !(BACKUP_REASONS as readonly string[]).includes(m[3] as string)) return null
  const t = m[2] as string
  const takenAt = `${t.slice(0, 10)}T${t.slice(11, 13)}:${t.slice(14, 16)}:${t.slice(17, 19)}.${t.slice(20, 23)}Z`
  return { stem: m[1] as string, takenAt, reason: m[3] as BackupReason }
}

/**
 * Reads a backup (or any file offered as one) and checks it before anything trusts it: an SQLite
 * file whose every page is sound (integrity_check), a Ledgerline cache (its tables), of a schema this
 * Ledgerline reads. Refused otherwise, saying what is wrong. `pages: false` (listing the backups folder)
 * leaves out reading every page, which takes seconds at a million records: each backup there had every
 * page checked as it was written, and a restore checks them all again before it trusts one.
 */
export function checkBackup(path: string, counts: BackupCounts = {}, pages = true): Omit<BackupInfo, 'name' | 'reason' | 'takenAt'> {
  let bytes: number
  try {
    bytes = statSync(path).size
  } catch {
    throw new AppError('backup_invalid', `${path} cannot be read: there is no such file.`)
  }
  let db: Database.Database
  try {
    db = new Database(path, { readonly: true, fileMustExist: true })
  } catch (error) {
    throw new AppError('backup_invalid', `${path} is not a Ledgerline backup: ${(error as Error).message}.`)
  }
  try {
    let check: string
    try {
      // Without the pages, the schema is still read: a file that is not SQLite fails here all the same.
      check = pages ? String(db.pragma('integrity_check', { simple: true })) : (db.pragma('schema_version', { simple: true }), 'ok')
    } catch (error) {
      throw new AppError('backup_invalid', `${path} is not a Ledgerline backup: ${(error as Error).message}.`)
    }
    if (check !== 'ok') throw new AppError('backup_invalid', `${path} is damaged (${check.slice(0, 300)}); it cannot be restored.`)
    const schema = db.pragma('user_version', { simple: true }) as number
    const tables = new Set(db.prepare("select name from sqlite_schema where type = 'table'").pluck().all() as string[])
    if (schema === 0 || !tables.has('profiles') || !tables.has('settings'))
      throw new AppError('backup_invalid', `${path} is an SQLite file, but not a Ledgerline cache (no profiles or settings in it).`)
    if (schema > latestVersion())
      throw new AppError(
        'backup_invalid',
        `${path} was written by a newer Ledgerline (schema version ${schema}; this one reads up to ${latestVersion()}). Update Ledgerline to restore it.`
      )
    const count = (table: string): number => (tables.has(table) ? (db.prepare(`select count(*) from ${table}`).pluck().get() as number) : 0)
    return {
      path,
      bytes,
      schema,
      profiles: count('profiles'),
      sessions: counts.sessions ? counts.sessions(db) : null,
      records: count('payments') + count('transfers') + count('subscriptions') + count('plans')
    }
  } finally {
    db.close()
  }
}

/**
 * Takes a backup of the open cache with SQLite's online backup API (the app keeps working while it
 * copies): into a temporary file beside its place, made a single self-contained file, checked, then
 * renamed under its name. A backup killed midway leaves only its temporary file, which the next one
 * removes (createTempFile clears a dead writer's). `to`: a file of the user's choosing instead of the backups folder (not rotated).
 */
export async function backupCache(
  db: Database.Database,
  options: { reason: BackupReason; to?: string; now?: Date; onProgress?: (done: number, total: number) => void; counts?: BackupCounts }
): Promise<BackupInfo> {
  const cacheFile = db.name
  const at = options.now ?? new Date()
  const target = options.to ?? join(backupFolder(cacheFile), backupName(cacheFile, options.reason, at))
  mkdirSync(dirname(target), { recursive: true })
  const temp = createTempFile(target)
  closeSync(temp.fd)
  try {
    await db.backup(temp.path, {
      progress: ({ totalPages, remainingPages }) => {
        options.onProgress?.(totalPages - remainingPages, totalPages)
        // A few megabytes at a time: the app's other work runs between the steps.
        return 2048
      }
    })
    selfContained(temp.path)
    const info = checkBackup(temp.path, options.counts)
    renameSync(temp.path, target)
    return { ...info, path: target, name: basename(target), reason: options.to ? 'given' : options.reason, takenAt: at.toISOString() }
  } catch (error) {
    rmSync(temp.path, { force: true })
    for (const side of ['-wal', '-shm', '-journal']) rmSync(`${temp.path}${side}`, { force: true })
    if (error instanceof AppError) throw error
    throw new AppError('backup_failed', `The backup of ${cacheFile} could not be written to ${target} (${(error as Error).message}).`)
  }
}

/**
 * The cache as it is, copied before its schema is changed (at opening, before a migration): VACUUM
 * INTO, which writes one consistent snapshot while the connection is the only writer. Kept in the
 * backups folder and rotated like the others.
 */
export function snapshotBeforeMigration(db: Database.Database, from: number, now = new Date()): string {
  const target = join(backupFolder(db.name), backupName(db.name, 'before-migration', now))
  mkdirSync(dirname(target), { recursive: true })
  // VACUUM INTO writes into a file that does not exist or is empty: the one made here, exclusively.
  const temp = createTempFile(target)
  closeSync(temp.fd)
  try {
    db.prepare('vacuum into ?').run(temp.path)
    selfContained(temp.path)
    renameSync(temp.path, target)
    return target
  } catch (error) {
    rmSync(temp.path, { force: true })
    throw new AppError(
      'backup_failed',
      `Before bringing ${db.name} up from schema version ${from}, its backup could not be written (${(error as Error).message}); nothing was changed.`
    )
  }
}

/** A copied database as one file (no write-ahead log beside it), so it can be moved and opened read-only alone. */
function selfContained(path: string): void {
  const copy = new Database(path)
  try {
    copy.pragma('journal_mode = DELETE')
  } finally {
    copy.close()
  }
}

/**
 * The backups of a cache in its backups folder, newest first; a file that is not a Ledgerline backup is left out. Its
 * pages are not all read here (see checkBackup): a restore reads them all before it trusts the file.
 */
export function listBackups(cacheFile: string, counts: BackupCounts = {}): BackupInfo[] {
  const out: BackupInfo[] = []
  for (const { name, takenAt, reason } of ownBackups(cacheFile)) {
    try {
      out.push({ ...checkBackup(join(backupFolder(cacheFile), name), counts, false), name, reason, takenAt })
    } catch {
      // A damaged file is not offered for a restore.
    }
  }
  return out.sort((a, b) => ((a.takenAt ?? '') < (b.takenAt ?? '') ? 1 : (a.takenAt ?? '') > (b.takenAt ?? '') ? -1 : 0))
}

/** The backup of that name in the cache's backups folder, read and checked alone; null when the folder has none of that name. */
export function backupNamed(cacheFile: string, name: string, counts: BackupCounts = {}): BackupInfo | null {
  const own = ownBackups(cacheFile).find((b) => b.name === name)
  return own ? { ...checkBackup(join(backupFolder(cacheFile), name), counts), ...own } : null
}

/** The Monday of an ISO day's week. */
function weekOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7))
  return d.toISOString().slice(0, 10)
}

/**
 * Which backups the rotation keeps, of these (newest first, each with when it was taken): the newest
 * of each of the last 7 days that have one, the newest of each of the last 4 weeks that have one, and
 * the newest 3 whatever they are.
 */
export function keptByRotation(backups: readonly { name: string; takenAt: string }[]): Set<string> {
  const sorted = [...backups].sort((a, b) => (a.takenAt < b.takenAt ? 1 : a.takenAt > b.takenAt ? -1 : a.name < b.name ? -1 : 1))
  const kept = new Set(sorted.slice(0, ROTATION.newest).map((b) => b.name))
  const days = new Map<string, string>()
  const weeks = new Map<string, string>()
  for (const b of sorted) {
    const day = b.takenAt.slice(0, 10)
    if (!days.has(day) && days.size < ROTATION.daily) days.set(day, b.name)
    if (!weeks.has(weekOf(day)) && weeks.size < ROTATION.weekly) weeks.set(weekOf(day), b.name)
  }
  for (const name of [...days.values(), ...weeks.values()]) kept.add(name)
  return kept
}

/** The backups of this cache in its folder, by their names (when and why each was taken), unread. */
function ownBackups(cacheFile: string): { name: string; takenAt: string; reason: BackupReason }[] {
  let names: string[]
  try {
    names = readdirSync(backupFolder(cacheFile))
  } catch {
    return []
  }
  return names.flatMap((name) => {
    const parsed = parseName(name)
    return parsed && parsed.stem === stem(cacheFile) ? [{ name, takenAt: parsed.takenAt, reason: parsed.reason }] : []
  })
}

/** Removes the backups of the folder the rotation does not keep; the names removed. */
export function rotateBackups(cacheFile: string): string[] {
  const ours = ownBackups(cacheFile)
  const kept = keptByRotation(ours)
  const removed = ours.filter((b) => !kept.has(b.name)).map((b) => b.name)
  for (const name of removed) rmSync(join(backupFolder(cacheFile), name), { force: true })
  return removed
}

/** The newest backup's time, or null: what the schedule reads. */
export function newestBackupAt(cacheFile: string): string | null {
  return (
    ownBackups(cacheFile)
      .map((b) => b.takenAt)
      .sort()
      .at(-1) ?? null
  )
}

/**
 * Restores a backup into the open cache: the file checked first (see checkBackup); the cache as it is
 * kept aside as a backup ("before-restore"); then the backup's pages copied over the cache through
 * SQLite's backup API (the connection stays open and reads the restored content), and the schema
 * brought up to date when the backup is older. The backup itself is never changed.
 */
export async function restoreCache(
  db: Database.Database,
  from: string,
  options: { now?: Date; counts?: BackupCounts } = {}
): Promise<{ restored: BackupInfo; keptAside: BackupInfo }> {
  const checked = checkBackup(from, options.counts)
  const keptAside = await backupCache(db, {
    reason: 'before-restore',
    ...(options.now ? { now: options.now } : {}),
    ...(options.counts ? { counts: options.counts } : {})
  })
  const source = new Database(from, { readonly: true, fileMustExist: true })
  try {
    await source.backup(db.name)
  } catch (error) {
    throw new AppError(
      'backup_failed',
      `${from} could not be restored (${(error as Error).message}); the cache as it was is kept in ${keptAside.path}.`
    )
  } finally {
    source.close()
  }
  // The restored pages carry the backup's journal mode; the cache runs in WAL.
  db.pragma('journal_mode = WAL')
  migrate(db)
  return { restored: { ...checked, name: basename(from), reason: 'given', takenAt: null }, keptAside }
}

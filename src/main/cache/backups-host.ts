// The app's backups of its cache: one taken each day the app runs (checked at start and every hour), before a profile is removed and a migration; the Backups card's list, backup now and restore, one at a time.
import type Database from 'better-sqlite3'
import type { BackupRow, BackupsView } from '../../shared/ipc/backups'
import { AppError } from '../errors'
import type { Logger } from '../log'
import {
  backupCache,
  backupFolder,
  backupNamed,
  listBackups,
  newestBackupAt,
  restoreCache,
  rotateBackups,
  type BackupCounts,
  type BackupInfo
} from './backup'

/** How old the newest backup may be before the schedule takes another. */
export const DAILY_MS = 24 * 60 * 60 * 1000
/** How often the running app asks whether a backup is due. */
export const CHECK_EVERY_MS = 60 * 60 * 1000

/** A backup as the window sees it: where it is stays in the host. */
const row = ({ path: _path, ...b }: BackupInfo): BackupRow => b

export class CacheBackups {
  private queue: Promise<unknown> = Promise.resolve()
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly db: Database.Database,
    private readonly log: Logger,
    /** What each backup is said to hold beyond profiles and records (the reconciliation's sessions). */
    private readonly counts: BackupCounts = {},
    private readonly now: () => Date = () => new Date()
  ) {}

  /** Takes the day's backup now if one is due, then every hour while the app runs. */
  start(): void {
    if (this.db.memory || this.timer) return
    void this.dailyIfDue()
    this.timer = setInterval(() => void this.dailyIfDue(), CHECK_EVERY_MS)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.queue.catch(() => undefined)
  }

  /** A daily backup when the newest is a day old (or there is none) and the cache holds something of the user's; never throws (a failure is logged). */
  dailyIfDue(): Promise<BackupInfo | null> {
    return this.serial(async () => {
      const newest = newestBackupAt(this.db.name)
      if (newest !== null && this.now().getTime() - Date.parse(newest) < DAILY_MS) return null
      const held = (this.db.prepare('select count(*) from profiles').pluck().get() as number) + (this.counts.sessions?.(this.db) ?? 0)
      if (held === 0) return null
      const backup = await backupCache(this.db, { reason: 'daily', now: this.now(), counts: this.counts })
      const removed = rotateBackups(this.db.name)
      this.log.info(
        `backups: the day's backup is ${backup.path}${removed.length > 0 ? `; the rotation let go of ${removed.join(', ')}` : ''}`
      )
      return backup
    }).catch((error: unknown) => {
      this.log.error(`backups: the day's backup failed: ${error instanceof Error ? error.message : String(error)}`)
      return null
    })
  }

  view(): BackupsView {
    return { folder: backupFolder(this.db.name), backups: listBackups(this.db.name, this.counts).map(row) }
  }

  create(): Promise<BackupsView> {
    return this.serial(async () => {
      const backup = await backupCache(this.db, { reason: 'manual', now: this.now(), counts: this.counts })
      rotateBackups(this.db.name)
      this.log.info(`backups: backed up the cache to ${backup.path}`)
      return this.view()
    })
  }

  /** The backup of that name, checked, or a refusal naming where it looked (a damaged one is refused by its check). */
  find(name: string): BackupInfo {
    const found = backupNamed(this.db.name, name, this.counts)
    if (!found) throw new AppError('backup_invalid', `There is no sound backup named ${name} in ${backupFolder(this.db.name)}.`)
    return found
  }

  restore(name: string): Promise<{ restored: BackupRow; keptAside: BackupRow }> {
    return this.serial(async () => {
      const backup = this.find(name)
      const { restored, keptAside } = await restoreCache(this.db, backup.path, { now: this.now(), counts: this.counts })
      this.log.info(`backups: restored ${name}; the cache as it was is in ${keptAside.path}`)
      return { restored: { ...row(restored), name, reason: backup.reason }, keptAside: row(keptAside) }
    })
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work)
    this.queue = next.catch(() => undefined)
    return next
  }
}

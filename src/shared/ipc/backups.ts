// The backups domain of the IPC contract: the cache's backups listed with what each holds, one taken now, and one restored (asked first by main; the window reloads after).
import { z } from 'zod'
import { call, noArgs } from './define'

/** Why a backup was taken (its name says it). */
export const BACKUP_REASONS = ['manual', 'daily', 'before-migration', 'before-profile-removal', 'before-restore'] as const
export type BackupReason = (typeof BACKUP_REASONS)[number]

/** One backup as listed: what it holds, read from the file itself. */
export interface BackupRow {
  /** Its file name in the backups folder (a file given elsewhere: its name). */
  name: string
  reason: BackupReason | 'given'
  /** When it was taken (from its name), ISO. */
  takenAt: string | null
  bytes: number
  /** The cache's schema version it holds. */
  schema: number
  profiles: number
  /** Null when not counted. */
  sessions: number | null
  records: number
}

export interface BackupsView {
  folder: string
  backups: BackupRow[]
}

export const backupCalls = {
  /** The backups kept beside the cache, newest first, and the folder they are in. */
  'backup:list': call<BackupsView>()(noArgs),
  /** A backup taken now (online: the app keeps working), then the rotation; the list after. */
  'backup:create': call<BackupsView>()(noArgs),
  /** Restores a listed backup, by its name, after main asks; the cache as it was is kept aside as a backup first. */
  'backup:restore': call<{ restored: BackupRow; keptAside: BackupRow }>()(z.strictObject({ name: z.string().min(1).max(200) }))
} as const

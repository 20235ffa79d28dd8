// The cache's schema migrations (one frozen file each in ./schema): tracked in user_version, applied upward only, each in one transaction.
import type Database from 'better-sqlite3'
import { AppError } from '../errors'
import { v1 } from './schema/v1-profiles-records-sync-state'
import { v2 } from './schema/v2-full-text-search'
import { v3 } from './schema/v3-profiles-being-removed'
import { v4 } from './schema/v4-exact-incremental-sync'
import { v5 } from './schema/v5-reconciliation'
import { v6 } from './schema/v6-reconciliation-item-filters'
import { v7 } from './schema/v7-bulk-files-sent'
import { v8 } from './schema/v8-record-relations'
import { v9 } from './schema/v9-statement-proof-and-money-returned'
import { v10 } from './schema/v10-statement-formats'
import { v11 } from './schema/v11-pdf-pages'
import { v12 } from './schema/v12-team-replicas'
import { v13 } from './schema/v13-statement-bytes-once'
import { v14 } from './schema/v14-shared-session-links'
import { v15 } from './schema/v15-session-accounts'
import { v16 } from './schema/v16-journal-account-maps'
import { v17 } from './schema/v17-rules'
import { v18 } from './schema/v18-outside-records-left-open'
import { v19 } from './schema/v19-open-items-and-statement-bytes'
import { v20 } from './schema/v20-items-found-by-short-key'
import { v21 } from './schema/v21-session-keys-apart'

export interface Migration {
  version: number
  name: string
  up(db: Database.Database): void
}

export const MIGRATIONS: readonly Migration[] = [
  v1,
  v2,
  v3,
  v4,
  v5,
  v6,
  v7,
  v8,
  v9,
  v10,
  v11,
  v12,
  v13,
  v14,
  v15,
  v16,
  v17,
  v18,
  v19,
  v20,
  v21
]

export function latestVersion(migrations: readonly Migration[] = MIGRATIONS): number {
  return migrations.length === 0 ? 0 : (migrations[migrations.length - 1] as Migration).version
}

/** Migrations must be numbered 1, 2, 3… with no gap or repeat. */
export function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migration "${m.name}" has version ${m.version}; expected ${i + 1}`)
  })
}

/**
 * Brings the database up to the newest schema. Refuses a database from a newer Ledgerline
 * (it would be misread), and applies each missing migration in its own IMMEDIATE transaction
 * that reads user_version again first: when two processes (the app and the CLI) open a new cache
 * at the same moment, one applies each migration and the other waits, sees it done and moves on.
 * A failure leaves the database at the last version that fully applied.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): { from: number; to: number } {
  checkMigrationList(migrations)
  const version = (): number => db.pragma('user_version', { simple: true }) as number
  const latest = latestVersion(migrations)
  const refuseNewer = (found: number): void => {
    if (found > latest) {
      throw new AppError(
        'cache_too_new',
        `This cache was written by a newer Ledgerline (schema version ${found}); this version reads up to ${latest}. Update Ledgerline, or choose another cache file.`
      )
    }
  }
  const from = version()
  refuseNewer(from)
  for (const migration of migrations) {
    if (migration.version <= from) continue
    db.transaction(() => {
      const current = version()
      refuseNewer(current)
      if (current >= migration.version) return
      migration.up(db)
      db.pragma(`user_version = ${migration.version}`)
    }).immediate()
  }
  return { from, to: version() }
}

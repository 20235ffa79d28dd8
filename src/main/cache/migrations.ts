// Numbered schema migrations for the cache: tracked in user_version, applied upward only, each in one transaction.
import type Database from 'better-sqlite3'
import { AppError } from '../errors'

export interface Migration {
  version: number
  name: string
  up(db: Database.Database): void
}

/**
 * Version 1: every cached record belongs to a profile (base URL + mode + keychain entry), keeps its
 * raw JSON beside indexed columns (money as integer minor units + currency, with the amount as sent
 * in amount_raw and amount_minor NULL when it cannot be converted exactly, e.g. an unknown currency;
 * statuses normalised and raw; times as ISO text and epoch ms), and sync keeps its checkpoints and
 * failures per resource.
 * Never edit a migration that has shipped: add the next one.
 */
const v1: Migration = {
  version: 1,
  name: 'profiles, cached records, sync state',
  up(db) {
    db.exec(`
      CREATE TABLE profiles (
        id             TEXT PRIMARY KEY,
        name           TEXT NOT NULL UNIQUE,
        base_url       TEXT,
        mode           TEXT NOT NULL CHECK (mode IN ('test', 'live')),
        built_in       INTEGER NOT NULL DEFAULT 0 CHECK (built_in IN (0, 1)),
        created_at     TEXT NOT NULL,
        last_synced_at TEXT
      ) STRICT;

      CREATE TABLE payments (
        profile_id          TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        id                  TEXT NOT NULL,
        reference           TEXT,
        service_reference   TEXT,
        amount_raw          TEXT NOT NULL,
        amount_minor        INTEGER,
        currency            TEXT NOT NULL,
        local_amount_minor  INTEGER,
        local_currency      TEXT,
        fees_minor          INTEGER,
        channel             TEXT,
        status              TEXT NOT NULL,
        status_raw          TEXT NOT NULL,
        is_final            INTEGER NOT NULL CHECK (is_final IN (0, 1)),
        created_at          TEXT NOT NULL,
        created_at_ms       INTEGER,
        plan_id             TEXT,
        customer_name       TEXT,
        customer_email      TEXT,
        account_number      TEXT,
        raw                 TEXT NOT NULL,
        fetched_at_ms       INTEGER NOT NULL,
        UNIQUE (profile_id, id)
      ) STRICT;
      CREATE INDEX payments_by_time ON payments (profile_id, created_at_ms DESC);
      CREATE INDEX payments_by_reference ON payments (profile_id, reference);
      CREATE INDEX payments_by_status ON payments (profile_id, status, created_at_ms DESC);
      CREATE INDEX payments_by_amount ON payments (profile_id, currency, amount_minor);
      CREATE INDEX payments_unfinished ON payments (profile_id, is_final) WHERE is_final = 0;

      -- Small app settings, e.g. the profile the app opens on.
      CREATE TABLE settings (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL
      ) STRICT;

      -- Bulk payout files the user follows: sync lists their transfers.
      CREATE TABLE bulk_files (
        profile_id       TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        id               TEXT NOT NULL,
        added_at         TEXT NOT NULL,
        total_transfers  INTEGER,
        last_synced_at   TEXT,
        UNIQUE (profile_id, id)
      ) STRICT;

      -- Other things the user asked sync to follow: single transfer references, plan ids.
      CREATE TABLE tracked (
        profile_id  TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        kind        TEXT NOT NULL CHECK (kind IN ('transfer', 'plan')),
        value       TEXT NOT NULL,
        added_at    TEXT NOT NULL,
        UNIQUE (profile_id, kind, value)
      ) STRICT;

      CREATE TABLE transfers (
        profile_id         TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        reference          TEXT NOT NULL,
        service_reference  TEXT,
        bulk_file_id       TEXT,
        amount_raw         TEXT NOT NULL,
        amount_minor       INTEGER,
        currency           TEXT NOT NULL,
        status             TEXT NOT NULL,
        status_raw         TEXT NOT NULL,
        transfer_mode      TEXT,
        account_number     TEXT,
        account_name       TEXT,
        bank_code          TEXT,
        bank_name          TEXT,
        narration          TEXT,
        raw                TEXT NOT NULL,
        fetched_at_ms      INTEGER NOT NULL,
        UNIQUE (profile_id, reference)
      ) STRICT;
      CREATE INDEX transfers_by_bulk_file ON transfers (profile_id, bulk_file_id);
      CREATE INDEX transfers_by_status ON transfers (profile_id, status);

      CREATE TABLE plans (
        profile_id          TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        id                  TEXT NOT NULL,
        title               TEXT NOT NULL,
        frequency           TEXT,
        amount_raw          TEXT NOT NULL,
        amount_minor        INTEGER,
        currency            TEXT NOT NULL,
        status              TEXT NOT NULL,
        status_raw          TEXT NOT NULL,
        internal_reference  TEXT,
        created_at          TEXT,
        raw                 TEXT NOT NULL,
        fetched_at_ms       INTEGER NOT NULL,
        user_added          INTEGER NOT NULL DEFAULT 0 CHECK (user_added IN (0, 1)),
        UNIQUE (profile_id, id)
      ) STRICT;

      CREATE TABLE subscriptions (
        profile_id         TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        id                 TEXT NOT NULL,
        plan_id            TEXT,
        customer_id        TEXT,
        customer_name      TEXT,
        customer_email     TEXT,
        status             TEXT NOT NULL,
        status_raw         TEXT NOT NULL,
        amount_raw         TEXT,
        amount_minor       INTEGER,
        currency           TEXT,
        start_date         TEXT,
        next_payment_date  TEXT,
        created_at         TEXT,
        created_at_ms      INTEGER,
        raw                TEXT NOT NULL,
        fetched_at_ms      INTEGER NOT NULL,
        UNIQUE (profile_id, id)
      ) STRICT;
      CREATE INDEX subscriptions_by_plan ON subscriptions (profile_id, plan_id);
      CREATE INDEX subscriptions_by_email ON subscriptions (profile_id, customer_email);

      CREATE TABLE virtual_accounts (
        profile_id      TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        id              TEXT NOT NULL,
        account_number  TEXT NOT NULL,
        account_name    TEXT,
        bank_name       TEXT,
        lifecycle       TEXT,
        expires_at      TEXT,
        raw             TEXT NOT NULL,
        fetched_at_ms   INTEGER NOT NULL,
        UNIQUE (profile_id, id)
      ) STRICT;

      CREATE TABLE banks (
        profile_id     TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        currency       TEXT NOT NULL,
        bank_code      TEXT NOT NULL,
        bank_name      TEXT NOT NULL,
        nip_code       TEXT,
        cbn_code       TEXT,
        raw            TEXT NOT NULL,
        fetched_at_ms  INTEGER NOT NULL,
        UNIQUE (profile_id, currency, bank_code)
      ) STRICT;

      -- Where each resource's sync stopped, written in the same transaction as the page it follows.
      CREATE TABLE sync_state (
        profile_id      TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        resource        TEXT NOT NULL,
        scope           TEXT NOT NULL DEFAULT '',
        next_page       INTEGER NOT NULL DEFAULT 0,
        page_size       INTEGER,
        total_elements  INTEGER,
        completed_at    TEXT,
        updated_at      TEXT NOT NULL,
        UNIQUE (profile_id, resource, scope)
      ) STRICT;

      CREATE TABLE sync_failures (
        profile_id   TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        resource     TEXT NOT NULL,
        scope        TEXT NOT NULL DEFAULT '',
        code         TEXT NOT NULL,
        message      TEXT NOT NULL,
        status       INTEGER,
        occurred_at  TEXT NOT NULL
      ) STRICT;
      CREATE INDEX sync_failures_by_profile ON sync_failures (profile_id, occurred_at DESC);
    `)
  }
}

/** FTS5 columns per table: what a user types to find a record. */
export const SEARCH_COLUMNS = {
  payments: ['reference', 'service_reference', 'customer_name', 'customer_email', 'account_number', 'id'],
  transfers: ['reference', 'service_reference', 'account_number', 'account_name', 'bank_name', 'narration'],
  subscriptions: ['id', 'customer_name', 'customer_email', 'customer_id', 'plan_id'],
  plans: ['title', 'internal_reference', 'id']
} as const

/**
 * Version 2: full-text search. One external-content FTS5 index per searchable table (no second
 * copy of the text), kept in step by triggers, so every insert, upsert and delete updates it in
 * the same transaction. unicode61 folds case and diacritics; prefix indexes make "0123*" fast.
 */
const v2: Migration = {
  version: 2,
  name: 'full-text search indexes',
  up(db) {
    for (const [table, columns] of Object.entries(SEARCH_COLUMNS)) {
      const list = columns.join(', ')
      const values = (prefix: string): string => columns.map((c) => `${prefix}.${c}`).join(', ')
      db.exec(`
        CREATE VIRTUAL TABLE ${table}_fts USING fts5(${list}, content='${table}', content_rowid='rowid',
          tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4');
        CREATE TRIGGER ${table}_fts_insert AFTER INSERT ON ${table} BEGIN
          INSERT INTO ${table}_fts (rowid, ${list}) VALUES (new.rowid, ${values('new')});
        END;
        CREATE TRIGGER ${table}_fts_delete AFTER DELETE ON ${table} BEGIN
          INSERT INTO ${table}_fts (${table}_fts, rowid, ${list}) VALUES ('delete', old.rowid, ${values('old')});
        END;
        CREATE TRIGGER ${table}_fts_update AFTER UPDATE ON ${table} BEGIN
          INSERT INTO ${table}_fts (${table}_fts, rowid, ${list}) VALUES ('delete', old.rowid, ${values('old')});
          INSERT INTO ${table}_fts (rowid, ${list}) VALUES (new.rowid, ${values('new')});
        END;
        INSERT INTO ${table}_fts (${table}_fts) VALUES ('rebuild');
      `)
    }
  }
}

/**
 * Version 3: removing a profile first marks it (it leaves every list at once and frees its name),
 * then deletes its records in small batches, so a million cached rows never stall the app; a
 * removal the app did not finish is carried on at the next start.
 */
const v3: Migration = {
  version: 3,
  name: 'profiles being removed',
  up(db) {
    db.exec(`ALTER TABLE profiles ADD COLUMN removing INTEGER NOT NULL DEFAULT 0 CHECK (removing IN (0, 1))`)
  }
}

export const MIGRATIONS: readonly Migration[] = [v1, v2, v3]

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

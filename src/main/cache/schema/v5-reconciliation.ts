// Schema version 5, frozen once shipped (its checksum is tested): imported statements, reconciliation sessions, their results and the append-only audit trail.
import type { Migration } from '../migrations'

/**
 * Version 5:
 * - recon_files: each imported statement with its SHA-256, how it was read (encoding, separator,
 *   mapping, number and date form) and its problems; recon_file_rows: its exact rows in line order,
 *   keyed by the file's small number (appended to a compact key, so a million-line file stores
 *   quickly), each with a content id that is the same for the same row in any file (so re-imported
 *   rows are seen);
 * - recon_presets: a column mapping per source, reapplied when a file's headers match;
 * - recon_sessions: one profile, a period in its business time zone, the provider side, settings,
 *   closed or open, and the head of its audit chain; recon_session_files: the files in it;
 * - recon_items: the stored result of the last run, one row per item or group;
 * - recon_events: every decision, append-only, each chained by SHA-256 over the previous one.
 */
export const v5: Migration = {
  version: 5,
  name: 'reconciliation: statements, sessions, results, audit trail',
  up(db) {
    db.exec(`
      CREATE TABLE recon_files (
        id            TEXT PRIMARY KEY,
        num           INTEGER NOT NULL UNIQUE,
        profile_id    TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        name          TEXT NOT NULL,
        sha256        TEXT NOT NULL,
        size          INTEGER NOT NULL,
        encoding      TEXT,
        separator     TEXT,
        sheet         TEXT,
        header        TEXT NOT NULL,
        header_line   INTEGER,
        mapping       TEXT NOT NULL,
        number_form   TEXT,
        date_form     TEXT,
        row_count     INTEGER NOT NULL,
        problems      TEXT NOT NULL,
        skipped       TEXT NOT NULL,
        imported_at   TEXT NOT NULL,
        imported_by   TEXT NOT NULL
      ) STRICT;
      CREATE INDEX recon_files_by_hash ON recon_files (profile_id, sha256);

      CREATE TABLE recon_file_rows (
        file_num       INTEGER NOT NULL REFERENCES recon_files(num) ON DELETE CASCADE,
        line           INTEGER NOT NULL,
        row_id         TEXT NOT NULL,
        date           TEXT NOT NULL,
        time           TEXT,
        amount_minor   INTEGER NOT NULL,
        currency       TEXT NOT NULL,
        reference      TEXT,
        description    TEXT,
        counterparty   TEXT,
        PRIMARY KEY (file_num, line)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE recon_presets (
        header_signature  TEXT PRIMARY KEY,
        source_name       TEXT NOT NULL,
        mapping           TEXT NOT NULL,
        saved_at          TEXT NOT NULL
      ) STRICT;

      CREATE TABLE recon_sessions (
        id             TEXT PRIMARY KEY,
        profile_id     TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        name           TEXT NOT NULL,
        source         TEXT NOT NULL CHECK (source IN ('payments', 'payouts', 'subscriptions', 'virtual-accounts')),
        source_filter  TEXT NOT NULL,
        period_from    TEXT NOT NULL,
        period_to      TEXT NOT NULL,
        time_zone      TEXT NOT NULL,
        settings       TEXT NOT NULL,
        created_at     TEXT NOT NULL,
        created_by     TEXT NOT NULL,
        last_run_at    TEXT,
        closed_at      TEXT,
        closed_by      TEXT,
        head_hash      TEXT NOT NULL,
        event_count    INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX recon_sessions_by_profile ON recon_sessions (profile_id, created_at);

      CREATE TABLE recon_session_files (
        session_id  TEXT NOT NULL REFERENCES recon_sessions(id) ON DELETE CASCADE,
        file_id     TEXT NOT NULL REFERENCES recon_files(id),
        PRIMARY KEY (session_id, file_id)
      ) STRICT;

      CREATE TABLE recon_items (
        session_id  TEXT NOT NULL REFERENCES recon_sessions(id) ON DELETE CASCADE,
        position    INTEGER NOT NULL,
        item_key    TEXT NOT NULL,
        outcome     TEXT NOT NULL,
        data        TEXT NOT NULL,
        PRIMARY KEY (session_id, position)
      ) STRICT;
      CREATE INDEX recon_items_by_key ON recon_items (session_id, item_key);
      CREATE INDEX recon_items_by_outcome ON recon_items (session_id, outcome, position);

      CREATE TABLE recon_events (
        session_id  TEXT NOT NULL REFERENCES recon_sessions(id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,
        at          TEXT NOT NULL,
        user        TEXT NOT NULL,
        kind        TEXT NOT NULL,
        payload     TEXT NOT NULL,
        prev_hash   TEXT NOT NULL,
        hash        TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      ) STRICT;
      CREATE TRIGGER recon_events_append_only BEFORE UPDATE ON recon_events BEGIN
        SELECT RAISE(ABORT, 'audit events are append-only');
      END;
    `)
  }
}

// Schema version 4, frozen once shipped (its checksum is tested): exact money columns, an explicit payment key, and what incremental sync remembers.
import type { Migration } from '../migrations'

/** The payments FTS columns as version 2 indexed them; the rebuilt table keeps them in step the same way. */
const PAYMENT_SEARCH_COLUMNS = ['reference', 'service_reference', 'customer_name', 'customer_email', 'account_number', 'id']

/**
 * Version 4:
 * - payments are rebuilt with an explicit `seq INTEGER PRIMARY KEY` holding the time-ordered key the
 *   implicit rowid held (VACUUM may renumber an implicit rowid; it never touches a declared one), and
 *   keep every money field as the text sent beside minor units (fees, local amount, tax, total local);
 * - only `pending` payments (and transfers) are checked again: a status the app does not know is final;
 * - sync_state remembers how many records a walk has written (`next_offset`), so a resumed walk finds
 *   its place even when the server's page size changed;
 * - followed plans and transfers, and bulk files, remember when they last synced and their last error;
 * - virtual accounts keep the amount and currency asked for (the API does not return them), and when
 *   they were created and for how many minutes;
 * - each profile may name its business time zone (NULL: the computer's).
 */
export const v4: Migration = {
  version: 4,
  name: 'exact money, explicit payment key, incremental sync bookkeeping, business time zone',
  up(db) {
    const list = PAYMENT_SEARCH_COLUMNS.join(', ')
    const values = (prefix: string): string => PAYMENT_SEARCH_COLUMNS.map((c) => `${prefix}.${c}`).join(', ')
    db.exec(`
      CREATE TABLE payments_v4 (
        seq                 INTEGER PRIMARY KEY,
        profile_id          TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        id                  TEXT NOT NULL,
        reference           TEXT,
        service_reference   TEXT,
        amount_raw          TEXT NOT NULL,
        amount_minor        INTEGER,
        currency            TEXT NOT NULL,
        local_amount_raw    TEXT,
        local_amount_minor  INTEGER,
        local_currency      TEXT,
        fees_raw            TEXT,
        fees_minor          INTEGER,
        tax_raw             TEXT,
        tax_minor           INTEGER,
        total_local_raw     TEXT,
        total_local_minor   INTEGER,
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
      INSERT INTO payments_v4 (seq, profile_id, id, reference, service_reference, amount_raw, amount_minor, currency,
          local_amount_minor, local_currency, fees_minor, channel, status, status_raw, is_final, created_at, created_at_ms,
          plan_id, customer_name, customer_email, account_number, raw, fetched_at_ms)
        SELECT rowid, profile_id, id, reference, service_reference, amount_raw, amount_minor, currency,
          local_amount_minor, local_currency, fees_minor, channel, status, status_raw,
          CASE WHEN status = 'pending' THEN 0 ELSE 1 END, created_at, created_at_ms,
          plan_id, customer_name, customer_email, account_number, raw, fetched_at_ms
        FROM payments;
      DROP TABLE payments;
      ALTER TABLE payments_v4 RENAME TO payments;
      CREATE INDEX payments_by_profile ON payments (profile_id, seq);
      CREATE INDEX payments_by_time ON payments (profile_id, created_at_ms DESC);
      CREATE INDEX payments_by_reference ON payments (profile_id, reference);
      CREATE INDEX payments_by_status ON payments (profile_id, status, seq DESC);
      CREATE INDEX payments_by_amount ON payments (profile_id, currency, amount_minor, seq);
      CREATE INDEX payments_unfinished ON payments (profile_id, is_final) WHERE is_final = 0;
      CREATE TRIGGER payments_fts_insert AFTER INSERT ON payments BEGIN
        INSERT INTO payments_fts (rowid, ${list}) VALUES (new.seq, ${values('new')});
      END;
      CREATE TRIGGER payments_fts_delete AFTER DELETE ON payments BEGIN
        INSERT INTO payments_fts (payments_fts, rowid, ${list}) VALUES ('delete', old.seq, ${values('old')});
      END;
      CREATE TRIGGER payments_fts_update AFTER UPDATE ON payments BEGIN
        INSERT INTO payments_fts (payments_fts, rowid, ${list}) VALUES ('delete', old.seq, ${values('old')});
        INSERT INTO payments_fts (rowid, ${list}) VALUES (new.seq, ${values('new')});
      END;

      ALTER TABLE transfers ADD COLUMN is_final INTEGER NOT NULL DEFAULT 1 CHECK (is_final IN (0, 1));
      UPDATE transfers SET is_final = CASE WHEN status = 'pending' THEN 0 ELSE 1 END;
      CREATE INDEX transfers_unfinished ON transfers (profile_id, bulk_file_id) WHERE is_final = 0;
      CREATE INDEX subscriptions_by_time ON subscriptions (profile_id, created_at_ms DESC);
      CREATE INDEX transfers_by_amount ON transfers (profile_id, currency, amount_minor);

      ALTER TABLE sync_state ADD COLUMN next_offset INTEGER;
      UPDATE sync_state SET next_offset = next_page * coalesce(page_size, 0);

      ALTER TABLE tracked ADD COLUMN last_synced_at TEXT;
      ALTER TABLE tracked ADD COLUMN last_error TEXT;
      ALTER TABLE bulk_files ADD COLUMN last_error TEXT;

      ALTER TABLE virtual_accounts ADD COLUMN amount_raw TEXT;
      ALTER TABLE virtual_accounts ADD COLUMN amount_minor INTEGER;
      ALTER TABLE virtual_accounts ADD COLUMN currency TEXT;
      ALTER TABLE virtual_accounts ADD COLUMN created_at TEXT;
      ALTER TABLE virtual_accounts ADD COLUMN expires_in_minutes INTEGER;

      ALTER TABLE profiles ADD COLUMN time_zone TEXT;
    `)
  }
}

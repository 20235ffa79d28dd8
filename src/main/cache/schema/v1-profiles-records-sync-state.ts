// Schema version 1, frozen once shipped (its checksum is tested): profiles, cached records and sync state.
import type { Migration } from '../migrations'

/**
 * Version 1: every cached record belongs to a profile (base URL + mode + keychain entry), keeps its
 * raw JSON beside indexed columns (money as integer minor units + currency, with the amount as sent
 * in amount_raw and amount_minor NULL when it cannot be converted exactly, e.g. an unknown currency;
 * statuses normalised and raw; times as ISO text and epoch ms), and sync keeps its checkpoints and
 * failures per resource.
 * Never edit a migration that has shipped: add the next one.
 */
export const v1: Migration = {
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

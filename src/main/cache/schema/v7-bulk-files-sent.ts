// Schema version 7, frozen once shipped (its checksum is tested): every bulk CSV file sent to the provider, with its hash, content and result.
import type { Migration } from '../migrations'

/**
 * Version 7: bulk_sends records each bulk transfer file validated with the API and each bulk plan
 * file uploaded: the profile, what was done (`validate` or `upload`) and how (`json` body or
 * `multipart` form), the file's SHA-256 and exact content (the rows, for mapping the provider's
 * verdict and later statuses back to them), its row count and totals per currency (JSON), when it
 * was sent, whether the provider accepted it, and the provider's answer or error (JSON). A bulk file
 * id the provider gave for it can be attached later, to follow the file's transfers from the builder.
 */
export const v7: Migration = {
  version: 7,
  name: 'bulk files sent',
  up(db) {
    db.exec(`
      CREATE TABLE bulk_sends (
        id            INTEGER PRIMARY KEY,
        profile_id    TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        kind          TEXT NOT NULL CHECK (kind IN ('transfers', 'plans')),
        action        TEXT NOT NULL CHECK (action IN ('validate', 'upload')),
        transport     TEXT NOT NULL CHECK (transport IN ('json', 'multipart')),
        file_name     TEXT NOT NULL,
        sha256        TEXT NOT NULL,
        content       TEXT NOT NULL,
        rows          INTEGER NOT NULL,
        totals        TEXT NOT NULL,
        sent_at       TEXT NOT NULL,
        accepted      INTEGER NOT NULL CHECK (accepted IN (0, 1)),
        result        TEXT NOT NULL,
        bulk_file_id  TEXT
      ) STRICT;
      CREATE INDEX bulk_sends_by_profile ON bulk_sends (profile_id, id);
    `)
  }
}

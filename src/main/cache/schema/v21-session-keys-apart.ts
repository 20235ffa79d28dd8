// Schema version 21, frozen once shipped (its checksum is tested): a session's key filter kept in a table of its own, so a decision that updates the session's row (its totals, its audit head) does not write the filter again.
import type { Migration } from '../migrations'

/**
 * Version 21:
 * - recon_session_keys: recon_sessions.record_keys and keys_twice (version 18) moved to a row of
 *   their own per session. The filter is 2 MB for a million records, and SQLite writes a row whole:
 *   kept in the session's row, every decision (which updates the row's totals and audit head) wrote
 *   the filter again, and every read of the session read it. Its token is new each time a run
 *   stores the filter: a decision reads the token, and the filter only when it is not the one held.
 */
export const v21: Migration = {
  version: 21,
  name: 'session keys apart',
  up(db) {
    db.exec(`
      CREATE TABLE recon_session_keys (
        session_id TEXT PRIMARY KEY REFERENCES recon_sessions(id) ON DELETE CASCADE,
        record_keys BLOB NOT NULL,
        keys_twice TEXT NOT NULL,
        token TEXT NOT NULL
      ) STRICT;
      INSERT INTO recon_session_keys (session_id, record_keys, keys_twice, token)
        SELECT id, record_keys, keys_twice, lower(hex(randomblob(16))) FROM recon_sessions WHERE record_keys IS NOT NULL AND keys_twice IS NOT NULL;
      ALTER TABLE recon_sessions DROP COLUMN record_keys;
      ALTER TABLE recon_sessions DROP COLUMN keys_twice;
    `)
  }
}

// Schema version 18, frozen once shipped (its checksum is tested): what a session's last run left open from just outside its period and the keys its records hold, so a decision can match the open pool again without a full run.
import type { Migration } from '../migrations'

/**
 * Version 18:
 * - recon_sessions.outside_open: the ids (a JSON array) of the provider records from just outside
 *   the period (read because the match window reaches past it) that the last run left to no item.
 *   They are part of the engine's open pool, but no item holds them; null until a run of this
 *   version stores them, and a decision that needs them runs the session again.
 * - recon_sessions.record_keys: the keys the last run's provider records hold (their references and
 *   further keys) as a Bloom filter (key-filter.ts): a decision can tell a line names none of them.
 * - recon_sessions.keys_twice: those keys (as the exact keys compare them) that two or more of the
 *   records hold (a JSON array): a line naming one is matched by no key, or to the first by content.
 */
export const v18: Migration = {
  version: 18,
  name: 'outside records left open',
  up(db) {
    db.exec(`
      ALTER TABLE recon_sessions ADD COLUMN outside_open TEXT;
      ALTER TABLE recon_sessions ADD COLUMN record_keys BLOB;
      ALTER TABLE recon_sessions ADD COLUMN keys_twice TEXT;
    `)
  }
}

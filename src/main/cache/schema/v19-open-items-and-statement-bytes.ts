// Schema version 19, frozen once shipped (its checksum is tested): the open pool's items found by amount, and a statement's bytes kept apart from its row, so deciding one item reads only what it needs at a million items.
import type { Migration } from '../migrations'

/**
 * Version 19:
 * - Two partial indexes over the items of the engine's open pool (POOL_OUTCOMES in
 *   reconcile/items.ts, the same list written out here: a query uses a partial index only when it
 *   names the index's condition as written), by currency and the file side's amount, and by
 *   currency and the provider side's. An accept asks what is open near the accepted item's amounts
 *   (openNear); a session of a million items may hold tens of thousands open, all read before.
 * - recon_file_contents: a statement's bytes exactly as imported, by its file's num, moved out of
 *   recon_files.content (dropped). Columns added to recon_files after that BLOB (format,
 *   statement, account, page_starts) lay past it in the row: reading a statement's facts walked
 *   the whole file's overflow pages, tens of milliseconds for a million-line statement, at every
 *   decision.
 */
export const v19: Migration = {
  version: 19,
  name: 'open items by amount, statement bytes apart',
  up(db) {
    db.exec(`
      CREATE INDEX recon_items_open_by_file_minor ON recon_items (session_id, currency, file_minor)
        WHERE outcome IN ('suggested', 'ambiguous', 'only_in_provider', 'only_in_file', 'pending_at_provider');
      CREATE INDEX recon_items_open_by_provider_minor ON recon_items (session_id, currency, provider_minor)
        WHERE outcome IN ('suggested', 'ambiguous', 'only_in_provider', 'only_in_file', 'pending_at_provider');

      CREATE TABLE recon_file_contents (
        file_num INTEGER PRIMARY KEY REFERENCES recon_files(num) ON DELETE CASCADE,
        content  BLOB NOT NULL
      ) STRICT;
      INSERT INTO recon_file_contents (file_num, content) SELECT num, content FROM recon_files WHERE content IS NOT NULL;
      ALTER TABLE recon_files DROP COLUMN content;
    `)
  }
}

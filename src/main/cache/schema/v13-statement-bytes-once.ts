// Schema version 13, frozen once shipped (its checksum is tested): a file of several statements keeps its bytes once, and each item has a short key.
import { shortItemKey } from '../../../shared/reconcile'
import type { Migration } from '../migrations'

/**
 * Version 13:
 * - recon_files.content_of: the statement (of the same import) that holds this one's bytes, when a
 *   file holds several statements: the file is kept once, not once per statement (an OFX of 2,000
 *   accounts kept 2,000 copies). Statements stored before keep one copy per file the same way: each
 *   later copy of the same bytes in the same profile points at the first.
 * - recon_items.short_key: the item's short key (shortItemKey: 12 characters of a hash of its stable
 *   key), which reports print and the CLI takes, found by an index; items stored before get theirs.
 */
export const v13: Migration = {
  version: 13,
  name: 'statement bytes once, short item keys',
  up(db) {
    db.exec(`
      ALTER TABLE recon_files ADD COLUMN content_of TEXT;

      UPDATE recon_files AS later
         SET content_of = (SELECT first.id FROM recon_files AS first
                            WHERE first.profile_id = later.profile_id AND first.sha256 = later.sha256
                              AND first.content IS NOT NULL AND first.num < later.num
                            ORDER BY first.num LIMIT 1),
             content = NULL
       WHERE later.content IS NOT NULL
         AND EXISTS (SELECT 1 FROM recon_files AS first
                      WHERE first.profile_id = later.profile_id AND first.sha256 = later.sha256
                        AND first.content IS NOT NULL AND first.num < later.num);

      ALTER TABLE recon_items ADD COLUMN short_key TEXT;
      CREATE INDEX recon_items_short_key ON recon_items (session_id, short_key);
    `)
    const set = db.prepare('update recon_items set short_key = ? where rowid = ?')
    for (const row of db.prepare('select rowid as id, item_key from recon_items').all() as { id: number; item_key: string }[])
      set.run(shortItemKey(row.item_key), row.id)
  }
}

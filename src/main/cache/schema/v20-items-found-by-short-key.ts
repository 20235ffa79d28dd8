// Schema version 20, frozen once shipped (its checksum is tested): an item is found by its short key alone, so storing a run's million items maintains one index fewer.
import type { Migration } from '../migrations'

/**
 * Version 20:
 * - recon_items_by_key dropped. It indexed each item's whole key (the ids of every record and line
 *   it holds: hundreds of characters for a group), in an order unrelated to the items', so a run of
 *   a million items spent a large part of its storing on it. An item is found through
 *   recon_items_short_key instead: its short key is a hash of its key (shortItemKey), and the key
 *   itself is compared on the one or two rows the short key finds.
 */
export const v20: Migration = {
  version: 20,
  name: 'items found by short key',
  up(db) {
    db.exec('DROP INDEX recon_items_by_key')
  }
}

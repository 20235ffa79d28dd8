// Schema version 19, frozen once shipped (its checksum is tested): the open pool's items found by amount, so deciding one item looks only at what is open near its amount, not at every open item of a million.
import type { Migration } from '../migrations'

/**
 * Version 19: two partial indexes over the items of the engine's open pool (POOL_OUTCOMES in
 * reconcile/items.ts, the same list written out here: a query uses a partial index only when it
 * names the index's condition as written), by currency and the file side's amount, and by currency
 * and the provider side's. An accept asks what is open near the accepted item's amounts (openNear);
 * a session of a million items may hold tens of thousands open, all read before this version.
 */
export const v19: Migration = {
  version: 19,
  name: 'open items by amount',
  up(db) {
    db.exec(`
      CREATE INDEX recon_items_open_by_file_minor ON recon_items (session_id, currency, file_minor)
        WHERE outcome IN ('suggested', 'ambiguous', 'only_in_provider', 'only_in_file', 'pending_at_provider');
      CREATE INDEX recon_items_open_by_provider_minor ON recon_items (session_id, currency, provider_minor)
        WHERE outcome IN ('suggested', 'ambiguous', 'only_in_provider', 'only_in_file', 'pending_at_provider');
    `)
  }
}

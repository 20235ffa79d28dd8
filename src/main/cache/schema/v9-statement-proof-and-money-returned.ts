// Schema version 9, frozen once shipped (its checksum is tested): a statement's own proof (balances and lines not read) and its bytes kept with it, and payments whose money went back named as such.
import type { Migration } from '../migrations'

/**
 * Version 9: an imported statement keeps what it says of itself (its account, opening and closing
 * balances, running balance breaks and the lines that could not be read, as JSON) and the file
 * exactly as imported (for the evidence pack an auditor gets), and payments the provider sent as
 * `reversed` or `refunded` (stored as unknown before) get those statuses.
 */
export const v9: Migration = {
  version: 9,
  name: 'statement proof and money returned',
  up(db) {
    db.exec(`
      ALTER TABLE recon_files ADD COLUMN proof TEXT;
      ALTER TABLE recon_files ADD COLUMN content BLOB;
      UPDATE payments SET status = lower(trim(status_raw))
        WHERE status = 'unknown' AND lower(trim(status_raw)) IN ('reversed', 'refunded');
    `)
  }
}

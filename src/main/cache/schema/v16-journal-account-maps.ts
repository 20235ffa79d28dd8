// Schema version 16, frozen once shipped (its checksum is tested): each profile's account map, the ledger accounts its journals post to; and a shared session's approval, the lock of its period.
import type { Migration } from '../migrations'

/**
 * Version 16:
 * - journal_account_maps: per profile, the ledger account code each kind of journal line posts to
 *   (the provider's fees, bank charges, VAT, levies, stamp duty, adjustments, the provider's
 *   clearing account and the bank account) and the tax rate name ledgers such as Xero ask for, as
 *   JSON; removed with its profile.
 * - recon_sessions.approved_at: when a team workspace approved the shared session this one replays
 *   (null while it is not approved, or since it was reopened): like a close, it locks the period's
 *   days for its account.
 */
export const v16: Migration = {
  version: 16,
  name: 'journal account maps and approvals that lock',
  up(db) {
    db.exec(`
      CREATE TABLE journal_account_maps (
        profile_id TEXT PRIMARY KEY REFERENCES profiles(id) ON DELETE CASCADE,
        map        TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      ALTER TABLE recon_sessions ADD COLUMN approved_at TEXT;
    `)
  }
}

// Schema version 15, frozen once shipped (its checksum is tested): a session may be of an account the user names, for statements that state none.
import type { Migration } from '../migrations'

/**
 * Version 15:
 * - recon_sessions.account_named: the account the user said a session is of (its statements state
 *   none); null when the session is of the account its statements state, or of none. A session's
 *   account chains its periods: each one's opening balance is checked against the last closed one's
 *   closing balance, and gaps and overlaps between them are named.
 */
export const v15: Migration = {
  version: 15,
  name: 'accounts named for sessions',
  up(db) {
    db.exec(`ALTER TABLE recon_sessions ADD COLUMN account_named TEXT;`)
  }
}

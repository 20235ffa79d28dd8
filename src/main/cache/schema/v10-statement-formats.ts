// Schema version 10, frozen once shipped (its checksum is tested): an imported statement says what format its file is, which statement of the file it is, and its account (a file of several accounts is imported as one statement per account).
import type { Migration } from '../migrations'

/**
 * Version 10: recon_files gains `format` (csv, xlsx, xls, pdf, mt940, camt, ofx, qif; csv or xlsx
 * for files imported before), `statement` (which statement of its file it is, "sheet March" or
 * "account 0123456789 NGN, …"; null when the file holds one) and `account` (as the statement states
 * it). The statements of one file share its name, SHA-256 and bytes.
 */
export const v10: Migration = {
  version: 10,
  name: 'statement formats',
  up(db) {
    db.exec(`
      ALTER TABLE recon_files ADD COLUMN format TEXT NOT NULL DEFAULT 'csv';
      ALTER TABLE recon_files ADD COLUMN statement TEXT;
      ALTER TABLE recon_files ADD COLUMN account TEXT;
      UPDATE recon_files SET format = 'xlsx' WHERE sheet IS NOT NULL;
    `)
  }
}

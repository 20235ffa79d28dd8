// Schema version 11, frozen once shipped (its checksum is tested): a PDF statement keeps where its pages start, so its lines are named by page and line.
import type { Migration } from '../migrations'

/**
 * Version 11: recon_files gains `page_starts`, a PDF statement's pages as the file-wide line each
 * starts on (JSON array; lines are counted through the file, and shown as "page 3, line 12"). Null
 * for every other format and every file imported before.
 */
export const v11: Migration = {
  version: 11,
  name: 'pdf pages',
  up(db) {
    db.exec(`ALTER TABLE recon_files ADD COLUMN page_starts TEXT;`)
  }
}

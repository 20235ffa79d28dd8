// Schema version 3, frozen once shipped (its checksum is tested): profiles marked while their records are deleted.
import type { Migration } from '../migrations'

/**
 * Version 3: removing a profile first marks it (it leaves every list at once and frees its name),
 * then deletes its records in small batches, so a million cached rows never stall the app; a
 * removal the app did not finish is carried on at the next start.
 */
export const v3: Migration = {
  version: 3,
  name: 'profiles being removed',
  up(db) {
    db.exec(`ALTER TABLE profiles ADD COLUMN removing INTEGER NOT NULL DEFAULT 0 CHECK (removing IN (0, 1))`)
  }
}

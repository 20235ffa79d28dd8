// Schema version 17, frozen once shipped (its checksum is tested): each profile's rules, in the order shown, and every version each rule has had.
import type { Migration } from '../migrations'

/**
 * Version 17:
 * - rules: per profile, each rule by its name: its place in the order (first matching rule wins),
 *   its current version, whether it is applied, the rule as JSON (shared/rules.ts), and who changed
 *   it last; removed with its profile.
 * - rule_versions: every version of every rule as it was saved, never changed: an item made by a
 *   rule names the version, and the version says what it was.
 */
export const v17: Migration = {
  version: 17,
  name: 'rules and their versions',
  up(db) {
    db.exec(`
      CREATE TABLE rules (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        name       TEXT NOT NULL,
        position   INTEGER NOT NULL,
        version    INTEGER NOT NULL,
        enabled    INTEGER NOT NULL DEFAULT 0,
        rule       TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        updated_by TEXT NOT NULL,
        PRIMARY KEY (profile_id, name)
      ) STRICT;
      CREATE TABLE rule_versions (
        profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
        name       TEXT NOT NULL,
        version    INTEGER NOT NULL,
        rule       TEXT NOT NULL,
        saved_at   TEXT NOT NULL,
        saved_by   TEXT NOT NULL,
        PRIMARY KEY (profile_id, name, version)
      ) STRICT;
    `)
  }
}

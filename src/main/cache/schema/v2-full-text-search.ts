// Schema version 2, frozen once shipped (its checksum is tested): the FTS5 indexes and their triggers.
import type { Migration } from '../migrations'

/** FTS5 columns per table: what a user types to find a record. */
const SEARCH_COLUMNS = {
  payments: ['reference', 'service_reference', 'customer_name', 'customer_email', 'account_number', 'id'],
  transfers: ['reference', 'service_reference', 'account_number', 'account_name', 'bank_name', 'narration'],
  subscriptions: ['id', 'customer_name', 'customer_email', 'customer_id', 'plan_id'],
  plans: ['title', 'internal_reference', 'id']
} as const

/**
 * Version 2: full-text search. One external-content FTS5 index per searchable table (no second
 * copy of the text), kept in step by triggers, so every insert, upsert and delete updates it in
 * the same transaction. unicode61 folds case and diacritics; prefix indexes make "0123*" fast.
 */
export const v2: Migration = {
  version: 2,
  name: 'full-text search indexes',
  up(db) {
    for (const [table, columns] of Object.entries(SEARCH_COLUMNS)) {
      const list = columns.join(', ')
      const values = (prefix: string): string => columns.map((c) => `${prefix}.${c}`).join(', ')
      db.exec(`
        CREATE VIRTUAL TABLE ${table}_fts USING fts5(${list}, content='${table}', content_rowid='rowid',
          tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4');
        CREATE TRIGGER ${table}_fts_insert AFTER INSERT ON ${table} BEGIN
          INSERT INTO ${table}_fts (rowid, ${list}) VALUES (new.rowid, ${values('new')});
        END;
        CREATE TRIGGER ${table}_fts_delete AFTER DELETE ON ${table} BEGIN
          INSERT INTO ${table}_fts (${table}_fts, rowid, ${list}) VALUES ('delete', old.rowid, ${values('old')});
        END;
        CREATE TRIGGER ${table}_fts_update AFTER UPDATE ON ${table} BEGIN
          INSERT INTO ${table}_fts (${table}_fts, rowid, ${list}) VALUES ('delete', old.rowid, ${values('old')});
          INSERT INTO ${table}_fts (rowid, ${list}) VALUES (new.rowid, ${values('new')});
        END;
        INSERT INTO ${table}_fts (${table}_fts) VALUES ('rebuild');
      `)
    }
  }
}

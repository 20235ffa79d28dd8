// Schema version 6, frozen once shipped (its checksum is tested): what a reconciliation item is filtered by, in columns beside its JSON, and each session's summary kept with it.
import type { Migration } from '../migrations'

/**
 * Version 6: recon_items gains the columns the review filters on, so a filter is a WHERE clause
 * and not a parse of every item's JSON: its currency (the first record's, else the first line's),
 * its day (the first line's, else the first record's), the signed totals of its provider and
 * file sides in minor units (null for an empty side), and its searchable text (references, ids, names, descriptions, note,
 * reason code; lower case). Items stored by version 5 are filled in from their JSON.
 * recon_sessions gains its summary totals (counts, totals per currency and outcome, exceptions) as
 * JSON, written with each run and updated by each decision, so a screen never sums every item;
 * sessions from version 5 have none until first read, when it is worked out once and kept.
 */
export const v6: Migration = {
  version: 6,
  name: 'reconciliation items: filter columns',
  up(db) {
    db.exec(`
      ALTER TABLE recon_items ADD COLUMN currency TEXT;
      ALTER TABLE recon_items ADD COLUMN day TEXT;
      ALTER TABLE recon_items ADD COLUMN provider_minor INTEGER;
      ALTER TABLE recon_items ADD COLUMN file_minor INTEGER;
      ALTER TABLE recon_items ADD COLUMN search TEXT NOT NULL DEFAULT '';
      UPDATE recon_items SET
        currency = coalesce(json_extract(data, '$.provider[0].currency'), json_extract(data, '$.file[0].currency')),
        day = substr(coalesce(json_extract(data, '$.file[0].date'), json_extract(data, '$.provider[0].date')), 1, 10),
        provider_minor = (SELECT sum(json_extract(value, '$.amountMinor')) FROM json_each(data, '$.provider')),
        file_minor = (SELECT sum(json_extract(value, '$.amountMinor')) FROM json_each(data, '$.file')),
        search = lower(
          coalesce((SELECT group_concat(concat_ws(' ', json_extract(value, '$.id'), json_extract(value, '$.reference'), json_extract(value, '$.serviceReference'), json_extract(value, '$.name'), json_extract(value, '$.channel'), json_extract(value, '$.status')), ' ') FROM json_each(data, '$.provider')), '')
          || ' ' ||
          coalesce((SELECT group_concat(concat_ws(' ', json_extract(value, '$.reference'), json_extract(value, '$.description'), json_extract(value, '$.counterparty')), ' ') FROM json_each(data, '$.file')), '')
          || ' ' || coalesce(json_extract(data, '$.note'), '') || ' ' || coalesce(json_extract(data, '$.reasonCode'), '')
        );
      CREATE INDEX recon_items_by_currency ON recon_items (session_id, currency, position);
      ALTER TABLE recon_sessions ADD COLUMN summary TEXT;
    `)
  }
}

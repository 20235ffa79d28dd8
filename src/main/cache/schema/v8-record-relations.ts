// Schema version 8, frozen once shipped (its checksum is tested): indexes that find a record's related payments, and a profile's test-mode funds simulator.
import type { Migration } from '../migrations'

/**
 * Version 8: a plan's payments and a virtual account's payments are looked up by index (a record's
 * drawer opens in milliseconds at a million payments), and a profile may name the provider's
 * test-mode funds simulator (a base URL), used to fund its test virtual accounts.
 */
export const v8: Migration = {
  version: 8,
  name: 'record relations and the funds simulator',
  up(db) {
    db.exec(`
      CREATE INDEX payments_by_plan ON payments (profile_id, plan_id, seq) WHERE plan_id IS NOT NULL;
      CREATE INDEX payments_by_account ON payments (profile_id, account_number) WHERE account_number IS NOT NULL;
      ALTER TABLE profiles ADD COLUMN funds_simulator_url TEXT;
    `)
  }
}

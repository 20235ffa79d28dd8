// Writes test/fixtures/cache/vN.sqlite: a cache as Ledgerline schema version N left it, with sample rows, for the upgrade tests.
// Run once when a schema version ships (npx tsx scripts/make-cache-fixtures.ts N); the files are committed and never regenerated.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { migrate, MIGRATIONS } from '../src/main/cache/migrations'
import { openDatabase } from '../src/main/cache/sqlite'
import { FIXTURE_STATEMENT } from '../test/cache/fixture-statement'

const version = Number(process.argv[2])
if (!Number.isInteger(version) || version < 1 || version > MIGRATIONS.length)
  throw new Error(`usage: make-cache-fixtures.ts VERSION (1..${MIGRATIONS.length})`)
const dir = join(import.meta.dirname, '..', 'test', 'fixtures', 'cache')
mkdirSync(dir, { recursive: true })
const file = join(dir, `v${version}.sqlite`)
if (existsSync(file)) throw new Error(`${file} exists: fixtures of a shipped version are never regenerated`)
rmSync(`${file}-journal`, { force: true })
const db = openDatabase(file)
db.pragma('journal_mode = DELETE')
migrate(db, MIGRATIONS.slice(0, version))
db.exec(`
  INSERT INTO profiles (id, name, base_url, mode, created_at, last_synced_at) VALUES
    ('p-live', 'Acme live', 'https://api.example.com/v1', 'live', '2026-05-01T08:00:00Z', '2026-06-01T08:00:00Z'),
    ('p-test', 'Acme test', 'https://api.example.com/v1', 'test', '2026-05-01T08:00:00Z', NULL);
  INSERT INTO settings (key, value) VALUES ('activeProfile', 'p-live');
  INSERT INTO bulk_files (profile_id, id, added_at, total_transfers, last_synced_at) VALUES ('p-live', 'bulk-1', '2026-05-02T00:00:00Z', 2, '2026-06-01T08:00:00Z');
  INSERT INTO tracked (profile_id, kind, value, added_at) VALUES ('p-live', 'transfer', 'PAY-REF-9', '2026-05-02T00:00:00Z'), ('p-live', 'plan', 'plan-1', '2026-05-02T00:00:00Z');
  INSERT INTO transfers (profile_id, reference, service_reference, bulk_file_id, amount_raw, amount_minor, currency, status, status_raw, transfer_mode,
      account_number, account_name, bank_code, bank_name, narration, raw, fetched_at_ms) VALUES
    ('p-live', 'PAY-REF-1', 'BLK1', 'bulk-1', '5000', 500000, 'NGN', 'successful', 'SUCCESSFUL', 'BULK', '0123456789', 'Ada Okafor', '058', 'GTBank', 'Salary', '{}', 1748764800000),
    ('p-live', 'PAY-REF-2', 'BLK2', 'bulk-1', '12.5', 1250, 'GHS', 'pending', 'processing', 'BULK', '1234567890123', 'Kwame Mensah', '300304', 'GCB', 'Vendor', '{}', 1748764800000);
  INSERT INTO plans (profile_id, id, title, frequency, amount_raw, amount_minor, currency, status, status_raw, internal_reference, created_at, raw, fetched_at_ms) VALUES
    ('p-live', 'plan-1', 'Gold Monthly', 'MONTHLY', '5000', 500000, 'NGN', 'active', 'ACTIVE', 'PLN-1', '2026-01-01T00:00:00Z', '{}', 1748764800000);
  INSERT INTO subscriptions (profile_id, id, plan_id, customer_id, customer_name, customer_email, status, status_raw, amount_raw, amount_minor, currency,
      start_date, next_payment_date, created_at, created_at_ms, raw, fetched_at_ms) VALUES
    ('p-live', 'sub-1', 'plan-1', 'cus-1', 'Ama Owusu', 'ama@example.com', 'active', 'active', '5000', 500000, 'NGN', '2026-01-02T00:00:00Z', '2026-07-02T00:00:00Z', '2026-01-01T23:00:00Z', 1767308400000, '{}', 1748764800000);
  INSERT INTO virtual_accounts (profile_id, id, account_number, account_name, bank_name, lifecycle, expires_at, raw, fetched_at_ms) VALUES
    ('p-live', 'va-1', '0123456780', 'Invoice 7', 'Providus Bank', 'temporary', '2026-06-01T08:30:00Z', '{"id":"va-1","amount":100,"currency":"NGN"}', 1748764800000);
  INSERT INTO banks (profile_id, currency, bank_code, bank_name, nip_code, cbn_code, raw, fetched_at_ms) VALUES ('p-live', 'NGN', '058', 'Guaranty Trust Bank', '000013', '058152036', '{}', 1748764800000);
  INSERT INTO sync_state (profile_id, resource, scope, next_page, page_size, total_elements, completed_at, updated_at) VALUES
    ('p-live', 'payments:full', '', 1, 50, 3, '2026-06-01T08:00:00Z', '2026-06-01T08:00:00Z'),
    ('p-test', 'payments:full', '', 7, 50, 900, NULL, '2026-06-01T08:00:00Z');
  INSERT INTO sync_failures (profile_id, resource, scope, code, message, status, occurred_at) VALUES ('p-live', 'plans', '', 'not_found', 'GET /plans/{plan-id}: not found', 404, '2026-06-01T08:00:00Z');
`)
// Payments with the time-ordered rowids the app gave them (created_at_ms × 2^20), newest last.
const payment = db.prepare(
  `INSERT INTO payments (rowid, profile_id, id, reference, service_reference, amount_raw, amount_minor, currency, local_amount_minor, local_currency, fees_minor,
     channel, status, status_raw, is_final, created_at, created_at_ms, plan_id, customer_name, customer_email, account_number, raw, fetched_at_ms)
   VALUES (@rowid, @profile, @id, @reference, 'SRV1', @amount_raw, @amount_minor, @currency, @amount_minor, @currency, 150, 'card', @status, @status_raw, @is_final,
     @created_at, @ms, NULL, 'Adaeze Okafor', 'adaeze@example.com', '0123456789', '{}', 1748764800000)`
)
const rows = [
  {
    id: 'pay-1',
    reference: 'INV-0001',
    amount_raw: '100.5',
    amount_minor: 10050,
    currency: 'NGN',
    status: 'successful',
    status_raw: 'SUCCESS',
    is_final: 1,
    created_at: '2026-05-30T10:00:00Z'
  },
  {
    id: 'pay-2',
    reference: 'INV-0002',
    amount_raw: '12.345',
    amount_minor: null,
    currency: 'XYZ',
    status: 'unknown',
    status_raw: 'ON_HOLD',
    is_final: 0,
    created_at: '2026-05-31T10:00:00Z'
  },
  {
    id: 'pay-3',
    reference: 'INV-0003',
    amount_raw: '7',
    amount_minor: 700,
    currency: 'GHS',
    status: 'pending',
    status_raw: 'pending',
    is_final: 0,
    created_at: '2026-06-01T07:00:00Z'
  }
]
for (const row of rows) {
  const ms = Date.parse(row.created_at)
  payment.run({ ...row, profile: 'p-live', ms, rowid: BigInt(ms) * 2n ** 20n })
}
payment.run({
  ...rows[0],
  id: 'pay-1',
  profile: 'p-test',
  ms: Date.parse(rows[0]!.created_at),
  rowid: BigInt(Date.parse(rows[0]!.created_at)) * 2n ** 20n + 1n
})
if (version >= 4) {
  // What version 4 itself would have written: offsets, and only pending records unfinished.
  db.exec(`
    UPDATE sync_state SET next_offset = next_page * coalesce(page_size, 0);
    UPDATE transfers SET is_final = CASE WHEN status = 'pending' THEN 0 ELSE 1 END;
    UPDATE payments SET is_final = CASE WHEN status = 'pending' THEN 0 ELSE 1 END;
  `)
}
if (version >= 5) {
  // A reconciliation as version 5 stored it: items only as JSON (version 6 adds their filter columns).
  const items = [
    {
      key: 'pay-1|f1',
      outcome: 'matched',
      provider: [
        {
          id: 'pay-1',
          reference: 'INV-0001',
          serviceReference: 'SRV1',
          date: '2026-05-30',
          amountMinor: 10050,
          feesMinor: 150,
          currency: 'NGN',
          status: 'successful',
          channel: 'card',
          name: 'Adaeze Okafor'
        }
      ],
      file: [
        {
          id: 'f1',
          fileId: 'file-1',
          line: 5,
          date: '2026-05-31',
          reference: 'inv-0001',
          description: 'NIP TRANSFER FROM ADAEZE',
          counterparty: null,
          amountMinor: 10050,
          currency: 'NGN'
        }
      ],
      differenceMinor: 0,
      score: null,
      reasons: ['reference', 'amount: equal'],
      decision: null,
      note: 'Checked with the bank',
      reasonCode: 'timing',
      resolved: false,
      decidedBy: 'ada',
      decidedAt: '2026-06-01T09:00:00Z'
    },
    {
      key: '|f2',
      outcome: 'only_in_file',
      provider: [],
      file: [
        {
          id: 'f2',
          fileId: 'file-1',
          line: 6,
          date: '2026-05-31',
          reference: null,
          description: 'SMS ALERT CHARGES',
          counterparty: 'Bank',
          amountMinor: -5250,
          currency: 'GHS'
        },
        {
          id: 'f3',
          fileId: 'file-1',
          line: 7,
          date: '2026-06-01',
          reference: null,
          description: 'VAT ON CHARGES',
          counterparty: null,
          amountMinor: -394,
          currency: 'GHS'
        }
      ],
      differenceMinor: null,
      score: null,
      reasons: ['no provider record matches'],
      decision: null,
      note: null,
      reasonCode: null,
      resolved: false,
      decidedBy: null,
      decidedAt: null
    }
  ]
  db.prepare(
    `INSERT INTO recon_files (id, num, profile_id, name, sha256, size, encoding, separator, sheet, header, header_line, mapping, number_form, date_form, row_count, problems, skipped, imported_at, imported_by)
     VALUES ('file-1', 1, 'p-live', 'may.csv', 'ab', 10, 'utf-8', ',', NULL, '[]', 1, '{}', NULL, NULL, 3, '[]', '[]', '2026-06-01T08:00:00Z', 'ada')`
  ).run()
  // The statement's bytes as imported (kept from version 9; in a table of their own from 19), with their true SHA-256.
  if (version >= 9) {
    const bytes = Buffer.from(FIXTURE_STATEMENT)
    db.prepare("UPDATE recon_files SET sha256 = ? WHERE id = 'file-1'").run(createHash('sha256').update(bytes).digest('hex'))
    if (version >= 19) db.prepare('INSERT INTO recon_file_contents (file_num, content) VALUES (1, ?)').run(bytes)
    else db.prepare("UPDATE recon_files SET content = ? WHERE id = 'file-1'").run(bytes)
  }
  db.prepare(
    `INSERT INTO recon_sessions (id, profile_id, name, source, source_filter, period_from, period_to, time_zone, settings, created_at, created_by, last_run_at, head_hash, event_count)
     VALUES ('session-1', 'p-live', 'May', 'payments', '{}', '2026-05-01', '2026-05-31', 'Africa/Lagos', '{}', '2026-06-01T08:00:00Z', 'ada', '2026-06-01T08:00:00Z', 'genesis', 0)`
  ).run()
  const item = db.prepare('INSERT INTO recon_items (session_id, position, item_key, outcome, data) VALUES (?, ?, ?, ?, ?)')
  items.forEach((it, position) => item.run('session-1', position, it.key, it.outcome, JSON.stringify(it)))
  // What the run left open from outside the period, and its records' key filter (version 18; the filter in a table of its own from 21).
  if (version >= 18) {
    const filter = Buffer.from('0f0e0d0c', 'hex')
    db.prepare("UPDATE recon_sessions SET outside_open = '[]' WHERE id = 'session-1'").run()
    if (version >= 21)
      db.prepare(
        `INSERT INTO recon_session_keys (session_id, record_keys, keys_twice, token) VALUES ('session-1', ?, '["INV0001"]', 'fixture')`
      ).run(filter)
    else db.prepare(`UPDATE recon_sessions SET record_keys = ?, keys_twice = '["INV0001"]' WHERE id = 'session-1'`).run(filter)
  }
}
if (version >= 12) {
  // session-1 shared in a workspace, and the replica of it this computer replays (version 14 links both in reconcile's own table).
  db.exec(`
    INSERT INTO recon_sessions (id, profile_id, name, source, source_filter, period_from, period_to, time_zone, settings, created_at, created_by, last_run_at, head_hash, event_count)
      VALUES ('replica-1', 'p-live', 'May', 'payments', '{}', '2026-05-01', '2026-05-31', 'Africa/Lagos', '{}', '2026-06-02T08:00:00Z', 'ada', NULL, 'genesis', 0);
    INSERT INTO team_replicas (session_id, server, shared_id, rule_version, read_only, state, preparer, reviewer, last_seq, last_hash)
      VALUES ('replica-1', 'db.example.com:5432/ledger', 'session-1', '1', NULL, 'open', 'ada', NULL, 0, '${'0'.repeat(64)}');
  `)
}
db.close()
console.log(`wrote ${file}`)

// Shipped migrations never change, and a cache from every earlier schema version upgrades with its records intact.
import { createHash } from 'node:crypto'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { latestVersion, MIGRATIONS } from '../../src/main/cache/migrations'
import { openCache } from '../../src/main/cache/open'
import { openDatabase } from '../../src/main/cache/sqlite'
import { CacheStore } from '../../src/main/cache/store'
import { itemColumns } from '../../src/main/reconcile/item-filters'
import { ReconService } from '../../src/main/reconcile/service'
import { shortItemKey, type ReconItem } from '../../src/shared/reconcile'
import { FIXTURE_STATEMENT } from './fixture-statement'

const SCHEMA_DIR = join(import.meta.dirname, '../../src/main/cache/schema')
const FIXTURES = join(import.meta.dirname, '../fixtures/cache')

/**
 * SHA-256 of each migration file (line endings normalised). A migration that has shipped is never
 * edited: a change to the schema is a new file with the next version, and its checksum goes here.
 */
const SHIPPED: Record<string, string> = {
  'v1-profiles-records-sync-state.ts': '7111797c32c1a05cb5d481ee99e36e9040349eb1be249b984a1a497c86ae5ff5',
  'v2-full-text-search.ts': '91464a0e51c4fa901e9b63552ca0ca01fd2254ab0b9dc319b4ad2e611c0ef454',
  'v3-profiles-being-removed.ts': '8fa6ce1ce4676b05602d5168bbe9fc2d0d321f5a83d952ac4d3a0342f2ab0759',
  'v4-exact-incremental-sync.ts': '965fa80caf7c10b1ed8b7c21580ba5c127c7ff45f46d657032ff47258eb7656b',
  'v5-reconciliation.ts': '5c0e013fac46c0470ebb34fc1890583c64b4caeccc4459f6f5cb081a8c40f2c8',
  'v6-reconciliation-item-filters.ts': '6af027b9a59426f531c2f9026b0a12734eb21dd0e8fe44edc1862f429949849b',
  'v7-bulk-files-sent.ts': '42afeb2abc29f418faae400a943e2d2344d588eea7b4616b264ed70422d5a0dc',
  'v8-record-relations.ts': '44fbeff7d43c88fa4644ff460a0013ff3620f5feb4e28c70f1fab7ef160fece4',
  'v9-statement-proof-and-money-returned.ts': 'b7fc21ab5d1db297463a757dccbc18c8e1dfef92db5d58d359424b84e81aacbe',
  'v10-statement-formats.ts': 'ccd68e6a411cab9665f9d8c99e85730cb704b7ab0617f96d61fe6f57dc1ae504',
  'v11-pdf-pages.ts': 'ff51bb729b40bcf3ccffd76806d796a0a393e7d74ce7b39ee2d7ab8bd1e74c20',
  'v12-team-replicas.ts': '1d5d9880d858226a93a9feebea43cec96845a4a159b6b0861b333dd6a8d475c3',
  'v13-statement-bytes-once.ts': '0a8a46f4cd80472c1da04786d24b98223b6ff587d528e65731988ae64c2c5b5a',
  'v14-shared-session-links.ts': '8c90b509a13c17618a66ecdbb99dab2072a1c8d042de6996511930f8f0ee5bd9',
  'v15-session-accounts.ts': '345333c5fc0e76c2c99e3395d22f0004ce84d9de3a1338cd365965612f26adb0',
  'v16-journal-account-maps.ts': '0bd7dfc8606d43dd4f1041dfb74044de45c8e078c14ec03fc36c444183c72a9d',
  'v17-rules.ts': '87eae4a350672a207f0cc54929b74f8401cfef5731ae57fb17cfaf94eddc9e6c',
  'v18-outside-records-left-open.ts': 'b5b869d08a3577eccd7176f7d7bd0c03f2160408283fbf9375584ca24fc58f79',
  'v19-open-items-and-statement-bytes.ts': '0da1503dd04c1267ed65feb368de37545c2fc07d2b7372b3dc9ea97d23e53016',
  'v20-items-found-by-short-key.ts': '691691a3ec91cc4f80baff1153afeb46279c09c08cf021a6160abf454e8af355',
  'v21-session-keys-apart.ts': 'd613d250f9eeda99a168a292520fe29106696be13013dd7502b95de289b6116a'
}

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file, 'utf8').replace(/\r\n/g, '\n')).digest('hex')

describe('frozen migrations', () => {
  it('has one file per migration, each unchanged since it shipped', () => {
    const version = (f: string): number => Number(/^v(\d+)-/.exec(f)?.[1])
    const files = readdirSync(SCHEMA_DIR)
      .filter((f) => f.endsWith('.ts'))
      .sort((a, b) => version(a) - version(b))
    expect([...files].sort()).toEqual(Object.keys(SHIPPED).sort())
    expect(files.map(version)).toEqual(MIGRATIONS.map((m) => m.version))
    for (const file of files)
      expect(sha256(join(SCHEMA_DIR, file)), `${file} changed after it shipped: add a new migration instead`).toBe(SHIPPED[file])
  })

  it('has a fixture cache for every earlier schema version', () => {
    const versions = readdirSync(FIXTURES)
      .map((f) => Number(/^v(\d+)\.sqlite$/.exec(f)?.[1]))
      .sort((a, b) => a - b)
    expect(versions).toEqual(Array.from({ length: latestVersion() - 1 }, (_, i) => i + 1))
  })

  const fixtures = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.sqlite'))
    .sort()
  it.each(fixtures)('upgrades %s to the latest version with every record intact', (fixture) => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-fixture-')), 'cache.sqlite')
    copyFileSync(join(FIXTURES, fixture), file)
    const db = openCache(file)
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion())
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.exec("insert into payments_fts (payments_fts) values ('integrity-check')")

    const payments = db
      .prepare(
        "select seq, id, amount_raw, amount_minor, currency, status, status_raw, is_final, created_at_ms from payments where profile_id = 'p-live' order by seq"
      )
      .all() as {
      seq: bigint | number
      id: string
      is_final: number
      created_at_ms: number
    }[]
    expect(payments.map((p) => p.id)).toEqual(['pay-1', 'pay-2', 'pay-3'])
    // The time-ordered key carried over exactly (beyond 2^53, so compared as BigInt).
    const seqs = db.prepare("select seq from payments where profile_id = 'p-live' order by seq").safeIntegers(true).all() as {
      seq: bigint
    }[]
    for (const [i, p] of payments.entries()) expect(seqs[i]?.seq).toBe(BigInt(p.created_at_ms) * 2n ** 20n)
    expect(payments.find((p) => p.id === 'pay-2')).toMatchObject({
      amount_raw: '12.345',
      amount_minor: null,
      currency: 'XYZ',
      status: 'unknown',
      status_raw: 'ON_HOLD',
      is_final: 1
    })
    expect(payments.find((p) => p.id === 'pay-3')).toMatchObject({ status: 'pending', is_final: 0 })
    expect(db.prepare("select count(*) as n from payments where profile_id = 'p-test'").get()).toEqual({ n: 1 })
    // Search still finds them, through the rebuilt table's triggers too.
    const find = (q: string): string[] =>
      (
        db
          .prepare(
            "select p.id from payments_fts f join payments p on p.seq = f.rowid where payments_fts match ? and p.profile_id = 'p-live' order by p.seq"
          )
          .all(q) as { id: string }[]
      ).map((r) => r.id)
    expect(find('"INV"*')).toEqual(['pay-1', 'pay-2', 'pay-3'])
    db.prepare("update payments set reference = 'RENAMED-1' where id = 'pay-1' and profile_id = 'p-live'").run()
    expect(find('renamed')).toEqual(['pay-1'])

    const store = new CacheStore(db)
    expect(store.checkpoint('p-test', 'payments:full')).toMatchObject({ nextPage: 7, nextOffset: 350, pageSize: 50, completed: false })
    expect(store.trackedItems('p-live', 'transfer')).toEqual([
      { kind: 'transfer', value: 'PAY-REF-9', lastSyncedAt: null, lastError: null, result: null }
    ])
    expect(store.trackedItems('p-live', 'bulk_file')[0]).toMatchObject({
      value: 'bulk-1',
      lastSyncedAt: '2026-06-01T08:00:00Z',
      result: '2 transfers, 1 final, 0 failed'
    })
    expect(db.prepare("select reference, is_final from transfers where profile_id = 'p-live' order by reference").all()).toEqual([
      { reference: 'PAY-REF-1', is_final: 1 },
      { reference: 'PAY-REF-2', is_final: 0 }
    ])
    for (const table of ['subscriptions', 'plans', 'virtual_accounts', 'banks', 'sync_failures']) {
      expect((db.prepare(`select count(*) as n from ${table} where profile_id = 'p-live'`).get() as { n: number }).n, table).toBe(1)
    }
    expect(db.prepare("select time_zone from profiles where id = 'p-live'").get()).toEqual({ time_zone: null })
    if (fixture === 'v5.sqlite') {
      // Items stored as JSON only get the filter columns a run writes today, exactly.
      const items = db
        .prepare(
          "select data, currency, day, provider_minor, file_minor, search from recon_items where session_id = 'session-1' order by position"
        )
        .all() as {
        data: string
        currency: string | null
        day: string | null
        provider_minor: number | null
        file_minor: number | null
        search: string
      }[]
      expect(items).toHaveLength(2)
      for (const row of items) {
        const written = itemColumns(JSON.parse(row.data) as ReconItem)
        expect({
          currency: row.currency,
          day: row.day,
          providerMinor: row.provider_minor,
          fileMinor: row.file_minor,
          search: row.search.replace(/\s+/g, ' ').trim()
        }).toEqual({ ...written, search: written.search.replace(/\s+/g, ' ').trim() })
      }
      expect(items.map((r) => [r.currency, r.day, r.provider_minor, r.file_minor])).toEqual([
        ['NGN', '2026-05-31', 10050, 10050],
        ['GHS', '2026-05-31', null, -5644]
      ])
      // Each item stored before got its short key, and is found by it.
      for (const row of db.prepare("select item_key, short_key from recon_items where session_id = 'session-1'").all() as {
        item_key: string
        short_key: string
      }[])
        expect(row.short_key).toBe(shortItemKey(row.item_key))
      expect(new ReconService(db).item('session-1', shortItemKey('pay-1|f1'))?.key).toBe('pay-1|f1')
      expect(new ReconService(db).items('session-1', { text: 'adaeze' }).items.map((i) => i.key)).toEqual(['pay-1|f1'])
      expect(new ReconService(db).items('session-1', { text: 'sms alert' }).items.map((i) => i.key)).toEqual(['|f2'])
    }
    // A statement's bytes kept in its row (fixtures from v18 on keep some) are in their own table after version 19, the same bytes.
    if (Number(/\d+/.exec(fixture)?.[0]) >= 18) {
      expect((db.prepare('select content from recon_file_contents where file_num = 1').pluck().get() as Buffer).toString()).toBe(
        FIXTURE_STATEMENT
      )
      expect(new ReconService(db).file('file-1').name).toBe('may.csv')
    }
    expect(db.prepare("select count(*) from pragma_table_info('recon_files') where name = 'content'").pluck().get()).toBe(0)
    // A session's key filter (the v20 fixture keeps one in the session's row) is in its own table after version 21, the same bytes.
    if (fixture === 'v20.sqlite')
      expect(db.prepare('select session_id, hex(record_keys) as keys, keys_twice from recon_session_keys').all()).toEqual([
        { session_id: 'session-1', keys: '0F0E0D0C', keys_twice: '["INV0001"]' }
      ])
    expect(
      db.prepare("select count(*) from pragma_table_info('recon_sessions') where name in ('record_keys', 'keys_twice')").pluck().get()
    ).toBe(0)
    db.close()
  })

  it('names payments the provider sent as reversed or refunded (stored as unknown before version 9)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-fixture-')), 'cache.sqlite')
    copyFileSync(join(FIXTURES, 'v8.sqlite'), file)
    const before = openDatabase(file)
    before.exec(`
      UPDATE payments SET status = 'unknown', status_raw = 'REVERSED' WHERE id = 'pay-1' AND profile_id = 'p-live';
      UPDATE payments SET status = 'unknown', status_raw = ' refunded' WHERE id = 'pay-3' AND profile_id = 'p-live';
    `)
    before.close()
    const db = openCache(file)
    expect(db.prepare("select id, status from payments where profile_id = 'p-live' order by seq").all()).toEqual([
      { id: 'pay-1', status: 'reversed' },
      { id: 'pay-2', status: 'unknown' },
      { id: 'pay-3', status: 'refunded' }
    ])
    db.close()
  })

  it('links a replica and the session it replays in reconcile’s own table (team’s replicas before version 14)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-fixture-')), 'cache.sqlite')
    copyFileSync(join(FIXTURES, 'v13.sqlite'), file)
    const db = openCache(file)
    const service = new ReconService(db)
    expect(service.session('replica-1').team).toEqual({
      workspace: 'db.example.com:5432/ledger',
      sharedId: 'session-1',
      replay: true,
      copyId: null
    })
    expect(service.replayed('replica-1')).toBe(true)
    expect(service.session('session-1').team).toEqual({
      workspace: 'db.example.com:5432/ledger',
      sharedId: 'session-1',
      replay: false,
      copyId: 'replica-1'
    })
    expect(service.replayed('session-1')).toBe(false)
    // A link goes with its session: the replica removed, the shared session is no longer linked to it.
    db.prepare("delete from recon_sessions where id = 'replica-1'").run()
    expect(service.session('session-1').team).toBeNull()
    db.close()
  })
})

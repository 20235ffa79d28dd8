// Removing a profile: its records go in batches (the host answers between them), an interrupted removal finishes on the
// next run, and no other profile loses a row.
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { paymentRow } from '../../src/main/cache/api-rows'
import { CacheStore } from '../../src/main/cache/store'
import { RECON_PROFILE_TABLES } from '../../src/main/reconcile/sessions'
import { completeRemoval, deleteProfileData } from '../../src/main/profiles/removal'
import { ProfileService } from '../../src/main/profiles/service'
import { SeededData } from '../../src/sandbox/data'
import type { SecretStore } from '../../src/main/secrets/secret-store'
import type { Payment } from '../../src/shared/api/schemas'

describe('removing a profile', () => {
  it('deletes records in batches, can be stopped and run again, removes the key last, and touches no other profile', async () => {
    const db = openCache(':memory:')
    const keys = new Map([
      ['keep', 'sk_test_keep0000'],
      ['gone', 'sk_test_gone0000']
    ])
    const secrets: SecretStore = {
      get: async (id) => keys.get(id) ?? null,
      set: async (id, s) => void keys.set(id, s),
      delete: async (id) => keys.delete(id)
    }
    const profiles = new ProfileService({ db, secrets })
    for (const id of ['keep', 'gone'])
      db.prepare("insert into profiles (id, name, base_url, mode, created_at) values (?, ?, 'https://x.example/v1', 'test', 'x')").run(
        id,
        id
      )
    const store = new CacheStore(db)
    const data = new SeededData({ seed: 4, payments: 25_000, plans: 2, subscriptions: 0, bulkFiles: [] }, 'test')
    for (let i = 0; i < 25_000; i += 5_000)
      store.writePage(
        'gone',
        'payments',
        Array.from({ length: 5_000 }, (_, j) => paymentRow(data.payment(i + j) as unknown as Payment))
      )
    store.writePage(
      'keep',
      'payments',
      Array.from({ length: 300 }, (_, j) => paymentRow(data.payment(j) as unknown as Payment))
    )
    store.track('gone', 'plan', 'plan-1')
    store.recordFailure('gone', 'payments', '', { code: 'x', message: 'y' })

    await profiles.beginRemoval('gone')
    expect(keys.has('gone')).toBe(true)
    expect(profiles.list().map((p) => p.id)).toEqual(['sandbox', 'keep'])

    const controller = new AbortController()
    const seen: number[] = []
    await expect(
      deleteProfileData(db, 'gone', {
        domainTables: RECON_PROFILE_TABLES,
        signal: controller.signal,
        onProgress: ({ done, total }) => {
          seen.push(done)
          expect(total).toBe(25_002)
          if (done > 0) controller.abort()
        }
      })
    ).rejects.toThrow()
    const left = (db.prepare("select count(*) as n from payments where profile_id = 'gone'").get() as { n: number }).n
    expect(left).toBeGreaterThan(0)
    expect(left).toBeLessThan(25_000)
    expect(db.prepare("select removing from profiles where id = 'gone'").get()).toEqual({ removing: 1 })
    expect(profiles.pendingRemovals()).toEqual([{ id: 'gone', name: 'gone' }])
    expect(keys.has('gone')).toBe(true)

    const finished = await completeRemoval(profiles, db, 'gone', { domainTables: RECON_PROFILE_TABLES })
    expect(keys.has('gone')).toBe(false)
    expect(finished).toEqual({ done: left + 2, total: left + 2 })
    for (const table of ['payments', 'tracked', 'sync_failures', 'profiles']) {
      expect(
        (
          db.prepare(`select count(*) as n from ${table} where ${table === 'profiles' ? 'id' : 'profile_id'} = 'gone'`).get() as {
            n: number
          }
        ).n,
        table
      ).toBe(0)
    }
    expect(store.count('keep', 'payments')).toBe(300)
    expect((db.prepare("select count(*) as n from payments_fts where payments_fts match 'TST*'").get() as { n: number }).n).toBe(300)
    expect(profiles.pendingRemovals()).toEqual([])
  })
})

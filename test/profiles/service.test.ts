// Profiles: URL and key checks, the server's mode against the key's, the keychain as the only home of keys.
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { ClientPool } from '../../src/main/profiles/clients'
import { RECON_PROFILE_TABLES } from '../../src/main/reconcile/sessions'
import { completeRemoval } from '../../src/main/profiles/removal'
import { checkKey, normaliseBaseUrl, ProfileService } from '../../src/main/profiles/service'
import type { SecretStore } from '../../src/main/secrets/secret-store'

/** An in-memory SecretStore, to see exactly what the service asks the keychain to do. */
function memorySecrets(): SecretStore & { data: Map<string, string> } {
  const data = new Map<string, string>()
  return {
    data,
    get: async (id) => data.get(id) ?? null,
    set: async (id, secret) => void data.set(id, secret),
    delete: async (id) => data.delete(id)
  }
}

function serverAnswering(mode: string): typeof fetch {
  return async () =>
    new Response(
      JSON.stringify({
        content: [{ id: 'p', amount: 1, currency: 'NGN', status: 'successful', createdAt: '2026-01-01T00:00:00Z', mode }],
        pageNumber: 0,
        pageSize: 1,
        totalElements: 1,
        totalPages: 1
      }),
      { status: 200, headers: { 'content-type': 'application/json' } }
    )
}

describe('profile checks', () => {
  it('normalises base URLs and refuses ones that cannot be the API', () => {
    expect(normaliseBaseUrl(' https://api.example.com/v1/ ')).toBe('https://api.example.com/v1')
    expect(normaliseBaseUrl('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080/v1')
    expect(normaliseBaseUrl('http://localhost:8080/v1')).toBe('http://localhost:8080/v1')
    for (const bad of ['api.example.com/v1', 'ftp://x/v1', 'https://user:pw@x/v1', 'https://x/v2', 'https://x/']) {
      expect(() => normaliseBaseUrl(bad), bad).toThrow(expect.objectContaining({ code: 'invalid_base_url' }))
    }
  })

  it('reads the mode from the key and refuses anything but a secret key', () => {
    expect(checkKey('sk_test_abc')).toBe('test')
    expect(checkKey('sk_live_abc')).toBe('live')
    expect(() => checkKey('pk_live_abc')).toThrow(/public key/)
    expect(() => checkKey('hunter2')).toThrow(expect.objectContaining({ code: 'invalid_key_format' }))
  })
})

describe('ProfileService', () => {
  it('keeps the built-in Sandbox profile, which cannot be removed', async () => {
    const service = new ProfileService({ db: openCache(':memory:'), secrets: memorySecrets() })
    expect(service.list()).toMatchObject([{ id: 'sandbox', name: 'Sandbox', mode: 'test', builtIn: true, baseUrl: null }])
    await expect(service.beginRemoval('Sandbox')).rejects.toMatchObject({ code: 'built_in_profile' })
  })

  it('refuses a key whose mode disagrees with the data the server returns, storing nothing', async () => {
    const secrets = memorySecrets()
    const service = new ProfileService({ db: openCache(':memory:'), secrets, fetch: serverAnswering('LIVE'), pacing: false })
    await expect(service.add({ name: 'Mixed', baseUrl: 'https://api.example.com/v1', key: 'sk_test_abc' })).rejects.toMatchObject({
      code: 'mode_mismatch'
    })
    expect(secrets.data.size).toBe(0)
    expect(service.list()).toHaveLength(1)
  })

  it('stores the key only in the keychain and the profile only in SQLite', async () => {
    const secrets = memorySecrets()
    const db = openCache(':memory:')
    const service = new ProfileService({ db, secrets, fetch: serverAnswering('TEST'), pacing: false })
    const profile = await service.add({ name: 'Acme', baseUrl: 'https://api.example.com/v1', key: 'sk_test_secret123' })
    expect(secrets.data.get(profile.id)).toBe('sk_test_secret123')
    const everything = JSON.stringify(db.prepare('select * from profiles').all())
    expect(everything).not.toContain('sk_test_secret123')
    await expect(service.add({ name: 'acme', baseUrl: 'https://api.example.com/v1', key: 'sk_test_x' })).rejects.toMatchObject({
      code: 'duplicate_name'
    })
    const removed = await service.beginRemoval('Acme')
    expect(service.list().map((p) => p.name)).toEqual(['Sandbox'])
    // The key goes last, once the records it fetched are gone.
    expect(secrets.data.size).toBe(1)
    await completeRemoval(service, db, removed.id, { domainTables: RECON_PROFILE_TABLES })
    expect(secrets.data.size).toBe(0)
    expect(db.prepare('select count(*) as n from profiles').get()).toEqual({ n: 1 })
  })

  it('keeps test and live apart for the same base URL given directly', () => {
    const service = new ProfileService({ db: openCache(':memory:'), secrets: memorySecrets() })
    const test = service.adHoc('https://api.example.com/v1', 'sk_test_a')
    const live = service.adHoc('https://api.example.com/v1/', 'sk_live_b')
    expect(test.id).not.toBe(live.id)
    expect(service.adHoc('https://api.example.com/v1', 'sk_test_other').id).toBe(test.id)
    expect([test.mode, live.mode]).toEqual(['test', 'live'])
  })

  it('refuses to use a stored key of the other mode, and says when no key is stored', async () => {
    const secrets = memorySecrets()
    const service = new ProfileService({ db: openCache(':memory:'), secrets, fetch: serverAnswering('TEST'), pacing: false })
    const profile = await service.add({ name: 'Acme', baseUrl: 'https://api.example.com/v1', key: 'sk_test_a' })
    secrets.data.set(profile.id, 'sk_live_b')
    await expect(new ClientPool({ secrets }).for(profile)).rejects.toMatchObject({ code: 'mode_mismatch' })
    secrets.data.delete(profile.id)
    await expect(new ClientPool({ secrets }).for(profile)).rejects.toMatchObject({ code: 'no_key' })
  })
})

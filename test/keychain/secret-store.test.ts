// The real OS keychain through keytar (gnome-keyring under dbus-run-session in CI), and the clear error when there is none.
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { createOsKeychainStore, KEYCHAIN_UNAVAILABLE } from '../../src/main/secrets/secret-store'
import { PROJECT_ROOT } from '../support/renderer-harness'

const service = `app.ledgerline.test-${randomUUID()}`
const store = createOsKeychainStore(service)
const profiles: string[] = []
const profile = (): string => {
  const id = randomUUID()
  profiles.push(id)
  return id
}

afterAll(async () => {
  for (const id of profiles) await store.delete(id).catch(() => false)
})

describe('OS keychain secret store', () => {
  it('stores, reads, replaces and deletes a key per profile', async () => {
    const a = profile()
    const b = profile()
    expect(await store.get(a)).toBeNull()
    await store.set(a, 'sk_test_first')
    await store.set(b, 'sk_live_other')
    expect(await store.get(a)).toBe('sk_test_first')
    await store.set(a, 'sk_test_second')
    expect(await store.get(a)).toBe('sk_test_second')
    // Kept exactly as given: a workspace password may begin or end with a space (a key is checked for spaces before it is stored).
    await store.set(b, ' a pass phrase ')
    expect(await store.get(b)).toBe(' a pass phrase ')
    await store.set(b, 'sk_live_other')
    expect(await store.get(b)).toBe('sk_live_other')
    expect(await store.delete(a)).toBe(true)
    expect(await store.get(a)).toBeNull()
    expect(await store.delete(a)).toBe(false)
  })

  it('keeps any characters a key may hold', async () => {
    const id = profile()
    const odd = 'sk_test_ÄÖü-€_✓_' + 'x'.repeat(300)
    await store.set(id, odd)
    expect(await store.get(id)).toBe(odd)
  })

  it('refuses an empty key or profile id instead of storing it', async () => {
    await expect(store.set(profile(), '   ')).rejects.toMatchObject({ code: 'invalid_key' })
    await expect(store.get('')).rejects.toMatchObject({ code: 'invalid_profile' })
  })

  it('without a Secret Service, fails with keychain_unavailable and the remedy — never a plain-text fallback', () => {
    const script = `
      const { register } = require('tsx/cjs/api'); register();
      const { createOsKeychainStore } = require('./src/main/secrets/secret-store.ts');
      createOsKeychainStore('app.ledgerline.nobus').set('p1', 'sk_test_x')
        .then(() => { console.log(JSON.stringify({ stored: true })) })
        .catch((e) => { console.log(JSON.stringify({ code: e.code, message: e.message })) });`
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/ledgerline-bus', DISPLAY: '' }
    const result = spawnSync(process.execPath, ['-e', script], { cwd: PROJECT_ROOT, env, encoding: 'utf8', timeout: 60_000 })
    const outcome = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as { code?: string; message?: string; stored?: boolean }
    expect(outcome.stored).toBeUndefined()
    expect(outcome.code).toBe(KEYCHAIN_UNAVAILABLE)
    expect(outcome.message).toMatch(/Secret Service|keychain/i)
    expect(outcome.message).not.toContain('sk_test_x')
  })
})

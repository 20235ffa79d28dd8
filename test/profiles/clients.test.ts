// One API client, and so one rate limiter, per profile: every job and call for the profile shares it and stays under the limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient } from '../../src/main/api/client'
import { ClientPool } from '../../src/main/profiles/clients'
import type { Profile } from '../../src/main/profiles/service'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import type { SecretStore } from '../../src/main/secrets/secret-store'

const LIMITS = { perMinute: 1000, perSecond: 4 }

describe('ClientPool', () => {
  let sandbox: Sandbox
  let profile: Profile
  const stored = new Map<string, string>()
  const secrets: SecretStore = {
    get: async (id) => stored.get(id) ?? null,
    set: async (id, s) => void stored.set(id, s),
    delete: async (id) => stored.delete(id)
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ payments: 200, rateLimits: { test: LIMITS, live: LIMITS } })
    profile = {
      id: 'acme',
      name: 'Acme',
      baseUrl: sandbox.baseUrl,
      mode: 'test',
      builtIn: false,
      createdAt: '',
      lastSyncedAt: null,
      timeZone: 'UTC',
      timeZoneIsSystem: false,
      fundsSimulatorUrl: null,
      workspace: null
    }
    stored.set('acme', sandbox.keys.test)
  })
  afterAll(async () => {
    await sandbox?.close()
  })

  it('hands every caller the same client for a profile, even when asked at once', async () => {
    const pool = new ClientPool({ secrets, pacing: LIMITS })
    const [a, b] = await Promise.all([pool.for(profile), pool.for(profile)])
    expect(a).toBe(b)
    expect(await pool.for(profile)).toBe(a)
    pool.drop(profile.id)
    expect(await pool.for(profile)).not.toBe(a)
  })

  it('keeps a sync and lookups of one profile under the limits together; separate clients would not', async () => {
    const traffic = async (clients: ReturnType<typeof createApiClient>[]): Promise<number> => {
      sandbox.requests.length = 0
      // Fresh windows at the server: what the traffic before sent no longer counts.
      sandbox.setRateLimits({ test: LIMITS, live: LIMITS })
      // A "sync" walking pages while "actions" look payments up, at the same time.
      await Promise.all(
        clients.map((client, i) =>
          Promise.all(
            Array.from({ length: 6 }, (_, page) =>
              (i % 2 === 0
                ? client.listPayments({}, { page, size: 10 })
                : client.listPayments({ reference: `x${page}` }, { size: 1 })
              ).catch(() => null)
            )
          )
        )
      )
      return sandbox.requests.filter((r) => r.status === 429).length
    }
    const pool = new ClientPool({ secrets, pacing: LIMITS })
    const shared = await pool.for(profile)
    expect(await traffic([shared, shared])).toBe(0)
    // Two clients each pacing themselves at the limit go over it together (maxRetries 0: a 429 stays a 429).
    const separate = [0, 1].map(() =>
      createApiClient({ baseUrl: sandbox.baseUrl, getKey: () => sandbox.keys.test, pacing: LIMITS, maxRetries: 0 })
    )
    expect(await traffic(separate)).toBeGreaterThan(0)
  })

  it('carries on with a replaced key in the same client', async () => {
    const pool = new ClientPool({ secrets, pacing: false })
    const client = await pool.for(profile)
    pool.setKey(profile.id, 'sk_test_not-the-key-anymore')
    await expect(client.listPayments({}, { size: 1 })).rejects.toMatchObject({ status: 401 })
    pool.setKey(profile.id, sandbox.keys.test)
    expect((await client.listPayments({}, { size: 1 })).content).toHaveLength(1)
    expect(await pool.for(profile)).toBe(client)
  })

  it('does not keep a client it could not make (no key yet), so adding the key later works', async () => {
    const pool = new ClientPool({ secrets, pacing: false })
    const later: Profile = { ...profile, id: 'later' }
    await expect(pool.for(later)).rejects.toMatchObject({ code: 'no_key' })
    stored.set('later', sandbox.keys.test)
    expect((await (await pool.for(later)).listPayments({}, { size: 1 })).content).toHaveLength(1)
  })
})

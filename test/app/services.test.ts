// AppServices over a real cache: the profile in use is remembered, and falls back to the Sandbox when removed.
import { describe, expect, it } from 'vitest'
import { AppServices } from '../../src/main/app/services'
import { openCache } from '../../src/main/cache/open'
import { createEventEmitter } from '../../src/main/ipc/events'
import type { SecretStore } from '../../src/main/secrets/secret-store'
import { testEnvironment } from '../support/app-env'

const memorySecrets = (): SecretStore => {
  const data = new Map<string, string>()
  return { get: async (id) => data.get(id) ?? null, set: async (id, s) => void data.set(id, s), delete: async (id) => data.delete(id) }
}

describe('AppServices', () => {
  it('reopens on the profile last in use, and on the Sandbox once that profile is gone', async () => {
    const env = testEnvironment()
    const open = (): AppServices =>
      new AppServices({ db: openCache(env.paths.cacheDatabase), secrets: memorySecrets(), events: createEventEmitter(() => {}), chooseSaveFile: async () => null })
    const first = open()
    expect(first.active().name).toBe('Sandbox')
    const id = first.profiles.adHoc('https://api.example.com/v1', 'sk_live_x').id
    await first.handlers()['profile:select']?.({ id })
    expect(first.active().mode).toBe('live')
    await first.close()

    const second = open()
    expect(second.active().id).toBe(id)
    await second.handlers()['profile:remove']?.({ id })
    expect(second.active().name).toBe('Sandbox')
    await second.close()
    expect(open().active().name).toBe('Sandbox')
  })
})

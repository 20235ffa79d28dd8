// The profile in use is remembered across restarts, and falls back to the Sandbox once that profile is being removed.
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { ActiveProfile } from '../../src/main/profiles/active'
import { ProfileService } from '../../src/main/profiles/service'
import type { SecretStore } from '../../src/main/secrets/secret-store'
import { testHostConfig } from '../support/app-env'

const memorySecrets = (): SecretStore => {
  const data = new Map<string, string>()
  return { get: async (id) => data.get(id) ?? null, set: async (id, s) => void data.set(id, s), delete: async (id) => data.delete(id) }
}

describe('ActiveProfile', () => {
  it('reopens on the profile last in use, and on the Sandbox once that profile is gone', async () => {
    const file = testHostConfig().paths.cacheDatabase
    const open = (): { active: ActiveProfile; profiles: ProfileService; close(): void } => {
      const db = openCache(file)
      const profiles = new ProfileService({ db, secrets: memorySecrets() })
      return { active: new ActiveProfile(db, profiles), profiles, close: () => db.close() }
    }
    const first = open()
    expect(first.active.current().name).toBe('Sandbox')
    const id = first.profiles.adHoc('https://api.example.com/v1', 'sk_live_x').id
    first.active.set(id)
    expect(first.active.current().mode).toBe('live')
    first.close()

    const second = open()
    expect(second.active.current().id).toBe(id)
    await second.profiles.beginRemoval(id)
    expect(second.active.current().name).toBe('Sandbox')
    second.close()
    expect(open().active.current().name).toBe('Sandbox')
  })
})

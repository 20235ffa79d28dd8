// The app's backups through main's gate and the real service host: the day's backup taken when the host starts, a profile removed by mistake and brought back from the backup taken before its removal (the restore asked first by main, "no" changing nothing), no key in any backup, and a restore refused while a job writes into the cache.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox/server'
import { backupFolder } from '../../src/main/cache/backup'
import { openCache } from '../../src/main/cache/open'
import { startTestHost, testHostConfig, valueOf, type TestHost } from '../support/app-env'

describe('backups in the app', () => {
  let sandbox: Sandbox
  let host: TestHost
  const config = testHostConfig()

  beforeAll(async () => {
    sandbox = await startSandbox({ payments: 30, rateLimits: false })
    // A cache that holds the user's work, and no backup yet: the host takes the day's when it starts.
    const db = openCache(config.paths.cacheDatabase)
    db.prepare(
      "insert into profiles (id, name, base_url, mode, created_at) values ('p-old', 'Old books', null, 'test', '2026-01-01')"
    ).run()
    db.close()
    host = await startTestHost({ config })
  })
  afterAll(async () => {
    await host?.close()
    await sandbox?.close()
  })

  it("takes the day's backup when the app starts, and one on asking", async () => {
    await expect
      .poll(async () => valueOf(await host.call('backup:list')).backups.map((b) => b.reason), { timeout: 20_000 })
      .toEqual(['daily'])
    const view = valueOf(await host.call('backup:create'))
    expect(view.folder).toBe(backupFolder(config.paths.cacheDatabase))
    expect(view.backups.map((b) => b.reason)).toEqual(['manual', 'daily'])
    // The built-in Sandbox's row and the user's own.
    expect(view.backups.map((b) => b.profiles)).toEqual([2, 2])
  })

  it('brings back a profile removed by mistake from the backup taken before its removal, and keeps no key in any backup', async () => {
    const acme = valueOf(await host.call('profile:add', { name: 'Acme test', baseUrl: sandbox.baseUrl, key: sandbox.keys.test }))
    const job = valueOf(await host.call('sync:start', { resources: ['payments'] }))
    await expect
      .poll(() => host.events.some((e) => e.name === 'job:finished' && (e.payload as { id: string }).id === job.id), { timeout: 20_000 })
      .toBe(true)
    host.ui.confirmAnswer = true
    valueOf(await host.call('profile:remove', { id: acme.id }))
    await expect
      .poll(async () => valueOf(await host.call('profile:list')).map((p) => p.name), { timeout: 20_000 })
      .not.toContain('Acme test')
    await expect.poll(async () => valueOf(await host.call('job:list')).every((j) => j.state !== 'running'), { timeout: 20_000 }).toBe(true)
    const before = valueOf(await host.call('backup:list')).backups.find((b) => b.reason === 'before-profile-removal')
    expect(before?.profiles).toBe(3)
    expect(before?.records).toBeGreaterThanOrEqual(30)
    // The key is in the keychain, never in the cache: in no backup.
    for (const b of valueOf(await host.call('backup:list')).backups)
      expect(readFileSync(join(backupFolder(config.paths.cacheDatabase), b.name)).includes(sandbox.keys.test)).toBe(false)

    host.ui.confirmAnswer = false
    const declined = await host.call('backup:restore', { name: before?.name as string })
    expect(declined.ok ? null : declined.error.code).toBe('not_confirmed')
    expect(host.ui.confirmations.at(-1)).toMatchObject({
      title: 'Restore this backup?',
      detail: expect.stringMatching(/3 profile\(s\), 0 session\(s\), [\d,]+ record\(s\)\. Everything since is set aside, not lost/)
    })
    expect(valueOf(await host.call('profile:list')).map((p) => p.name)).not.toContain('Acme test')

    host.ui.confirmAnswer = true
    const restored = valueOf(await host.call('backup:restore', { name: before?.name as string }))
    expect(restored.restored).toMatchObject({ name: before?.name, profiles: 3, records: before?.records })
    expect(restored.keptAside).toMatchObject({ reason: 'before-restore', profiles: 2 })
    // The host reads the restored cache at once: the profile and its records are back.
    expect(valueOf(await host.call('profile:list')).map((p) => p.name)).toContain('Acme test')
    const names = valueOf(await host.call('backup:list')).backups.map((b) => b.reason)
    expect(names[0]).toBe('before-restore')
  }, 120_000)

  it('refuses a backup that is not in the list, saying where it looked', async () => {
    const refused = await host.call('backup:restore', { name: '../cache.sqlite' })
    expect(refused.ok ? null : refused.error).toMatchObject({
      code: 'backup_invalid',
      message: expect.stringMatching(/There is no sound backup named/)
    })
  })
})

// A real AppEnvironment and AppServices for tests: temporary folders, a real cache file, the real keychain under a test service name.
import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AppEnvironment } from '../../src/main/app/info'
import { AppServices } from '../../src/main/app/services'
import { openCache } from '../../src/main/cache/open'
import { createEventEmitter, type EventEmitter } from '../../src/main/ipc/events'
import { createOsKeychainStore } from '../../src/main/secrets/secret-store'

export function testEnvironment(): AppEnvironment {
  const userData = mkdtempSync(join(tmpdir(), 'ledgerline-test-'))
  return {
    name: 'Ledgerline',
    version: '0.1.0-test',
    electronVersion: null,
    chromeVersion: null,
    paths: { userData, cacheDatabase: join(userData, 'cache.sqlite'), logs: join(userData, 'logs') },
    sqlite: {}
  }
}

/**
 * Services over a real cache file and the real keychain (a throwaway service name); exports go to
 * `exportDir`. Unpaced: the Sandboxes these tests talk to have no rate limits (pacing has its own tests).
 */
export function testServices(env: AppEnvironment, events: EventEmitter = createEventEmitter(() => {})): AppServices & { exportDir: string } {
  const exportDir = mkdtempSync(join(tmpdir(), 'ledgerline-export-'))
  const services = new AppServices({
    db: openCache(env.paths.cacheDatabase),
    secrets: createOsKeychainStore(`app.ledgerline.test-${randomUUID()}`),
    events,
    chooseSaveFile: async (name) => join(exportDir, name),
    pacing: false
  })
  return Object.assign(services, { exportDir })
}

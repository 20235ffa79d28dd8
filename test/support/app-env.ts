// A real AppEnvironment for tests: temporary data folders and the Node build of SQLite.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AppEnvironment } from '../../src/main/app/info'

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

// The log file: redacted, one line per event, and never a reason for the app to fail.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFileLogger } from '../../src/main/log'

describe('file logger', () => {
  it('writes one redacted line per event, creating its folder', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ledgerline-log-')), 'logs', 'ledgerline.log')
    const log = createFileLogger(file, () => new Date('2026-11-22T10:00:00Z'))
    log.info('sync "Acme" finished')
    log.error('request failed with Authorization: Bearer sk_live_abc123\nat line 2')
    expect(readFileSync(file, 'utf8')).toBe(
      '2026-11-22T10:00:00.000Z INFO sync "Acme" finished\n2026-11-22T10:00:00.000Z ERROR request failed with Authorization: Bearer [redacted] | at line 2\n'
    )
  })

  it('does not throw when the log cannot be written', () => {
    const notAFolder = join(mkdtempSync(join(tmpdir(), 'ledgerline-log-')), 'a-file')
    writeFileSync(notAFolder, 'x')
    const log = createFileLogger(join(notAFolder, 'logs', 'ledgerline.log'))
    expect(() => log.error('still fine')).not.toThrow()
  })
})

// Backups from the CLI as an accountant uses them: a backup now, the list with what each holds, a session lost and restored by name (the cache as it was kept aside, and restorable in turn), a copy where they say, a profile's removal backed up first, a file that is no backup refused with the cache untouched, and no restore while another Ledgerline has the cache open.
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { checkBackup } from '../../src/main/cache/backup'
import { openCache } from '../../src/main/cache/open'
import { runCli } from '../support/cli'
import { until } from '../support/wait'

let dir: string
let cache: string
const cli = (...args: string[]) => runCli([...args, '--db', cache], { HOME: dir })
const names = (): string[] => {
  const db = openCache(cache)
  try {
    return db.prepare('select name from profiles order by name').pluck().all() as string[]
  } finally {
    db.close()
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ledgerline-backup-cli-'))
  cache = join(dir, 'books.sqlite')
  const db = openCache(cache)
  for (const [id, name] of [
    ['p1', 'Acme'],
    ['p2', 'Bolt']
  ])
    db.prepare("insert into profiles (id, name, base_url, mode, created_at) values (?, ?, null, 'test', '2026-01-01')").run(id, name)
  db.close()
})

describe('ledgerline backup and restore', () => {
  it('backs up, lists, and restores a backup by name after a loss, keeping the cache as it was aside', async () => {
    const none = await cli('backup', 'list')
    expect(none.stdout).toMatch(/^No backups of .*books\.sqlite yet/)
    const made = await cli('backup')
    expect(made.stderr).toBe('')
    expect(made.stdout).toMatch(
      /^Backed up .*books\.sqlite to .*backups\/books-\d{4}-\d{2}-\d{2}T[\d-]+Z-manual\.sqlite: \d{4}-\d{2}-\d{2} [\d:]+ UTC, manual, [\d.]+ KB: 3 profile\(s\), 0 session\(s\), 0 record\(s\), schema \d+\n$/
    )
    const [backup] = JSON.parse((await cli('backup', 'list', '--json')).stdout) as { name: string; profiles: number }[]
    // Acme, Bolt and the built-in Sandbox.
    expect(backup?.profiles).toBe(3)
    // A loss: a profile deleted behind Ledgerline's back.
    const db = openCache(cache)
    db.prepare("delete from profiles where id = 'p2'").run()
    db.close()
    expect(names()).toEqual(['Acme', 'Sandbox'])
    const restored = await cli('restore', backup?.name as string)
    expect(restored.stderr).toBe('')
    expect(restored.stdout).toMatch(/^Restored books-.*-manual\.sqlite into .*books\.sqlite: .*3 profile\(s\)/)
    expect(restored.stdout).toMatch(
      /The cache as it was is kept aside in .*before-restore\.sqlite \(ledgerline restore books-.*-before-restore\.sqlite takes it back\)/
    )
    expect(names()).toEqual(['Acme', 'Bolt', 'Sandbox'])
    const listed = await cli('backup', 'list')
    expect(listed.stdout).toMatch(/before restore, .*2 profile\(s\)/)
    expect(listed.stdout).toMatch(/manual, .*3 profile\(s\)/)
  }, 60_000)

  it('writes a copy where it is told, and backs the cache up before removing a profile', async () => {
    const copy = join(dir, 'copy for the auditor.sqlite')
    expect((await cli('backup', '--out', copy)).code).toBe(0)
    expect(checkBackup(copy).profiles).toBe(3)
    const removed = await cli('profile', 'remove', 'Bolt')
    expect(removed.code, removed.stderr).toBe(0)
    const backups = JSON.parse((await cli('backup', 'list', '--json')).stdout) as { reason: string; profiles: number }[]
    expect(backups.find((b) => b.reason === 'before-profile-removal')?.profiles).toBe(3)
    expect(names()).toEqual(['Acme', 'Sandbox'])
  }, 60_000)

  it('refuses a file that is not a backup, and leaves the cache as it was', async () => {
    const text = join(dir, 'statement.csv')
    writeFileSync(text, 'Date,Amount\n2026-10-01,5.00\n'.repeat(100))
    const refused = await cli('restore', text)
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/statement\.csv is not a Ledgerline backup: file is not a database\. \[backup_invalid\]/)
    expect(names()).toEqual(['Acme', 'Sandbox'])
  }, 60_000)

  it('does not restore while another Ledgerline has the cache open', async () => {
    const [backup] = JSON.parse((await cli('backup', 'list', '--json')).stdout) as { name: string }[]
    const holder = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'support', 'hold-cache-child.ts'), cache], {
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let said = ''
    holder.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()))
    try {
      await until('the other process to have the cache open', () => said.includes('open') || undefined)
      const refused = await cli('restore', backup?.name as string)
      expect(refused.code).toBe(2)
      expect(refused.stderr).toMatch(
        /is open in another Ledgerline \(process \d+\); close it first, or restore from its Backups card \(nothing was changed\)/
      )
    } finally {
      holder.kill('SIGKILL')
    }
  }, 60_000)
})

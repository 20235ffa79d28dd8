// The team schema's migrations never change once shipped: a server set up by one Ledgerline is checked by checksum against another's.
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { migrationSha256, TEAM_MIGRATIONS } from '../../src/main/team/migrations'

const SCHEMA_DIR = join(import.meta.dirname, '../../src/main/team/schema')

/** SHA-256 of each migration file (line endings normalised): a shipped one is never edited, a change is a new file. */
const SHIPPED: Record<string, string> = {
  'v4-workspace-rules.ts': 'd398c1ef929c3e4d02036f0ce97e06e01f77c695f64a2d884626622d2226e3d6',
  'v3-replay-and-presence.ts': 'b1da374d7fd760d8a93abd7deb8b15cd9cb972f1800af941c0876ef751fcbe7f',
  'v2-sessions-and-events.ts': 'cb34e729baa4a5311f3fd7de608f7e9be58a226f00e7fd087898a406422212ff',
  'v1-workspace-members.ts': '7b7db20531025600f972c2e8ac5d3dc37b1659a989eabdf28e955183ea58f440'
}

describe('frozen team migrations', () => {
  it('has one file per migration, numbered in order, each unchanged since it shipped', () => {
    const files = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.ts'))
    expect(files.sort()).toEqual(Object.keys(SHIPPED).sort())
    expect(TEAM_MIGRATIONS.map((m) => m.version)).toEqual(TEAM_MIGRATIONS.map((_, i) => i + 1))
    for (const file of files) {
      const sha = createHash('sha256')
        .update(readFileSync(join(SCHEMA_DIR, file), 'utf8').replace(/\r\n/g, '\n'))
        .digest('hex')
      expect(sha, `${file} changed after it shipped: add a new migration instead`).toBe(SHIPPED[file])
    }
  })

  it('records each migration by the checksum of its SQL', () => {
    for (const m of TEAM_MIGRATIONS) expect(migrationSha256(m)).toMatch(/^[0-9a-f]{64}$/)
    expect(new Set(TEAM_MIGRATIONS.map(migrationSha256)).size).toBe(TEAM_MIGRATIONS.length)
  })
})

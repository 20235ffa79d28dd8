// The team workspace's schema: frozen, numbered migrations (one file each in ./schema) applied by `team setup` in one locked transaction, each recorded with its SHA-256 so a server set up by another Ledgerline is checked against this one's.
import { createHash } from 'node:crypto'
import type pg from 'pg'
import { AppError } from '../errors'
import { v1 } from './schema/v1-workspace-members'
import { v2 } from './schema/v2-sessions-and-events'
import { v3 } from './schema/v3-replay-and-presence'
import { v4 } from './schema/v4-workspace-rules'

export interface TeamMigration {
  version: number
  name: string
  sql: string
}

export const TEAM_MIGRATIONS: readonly TeamMigration[] = [v1, v2, v3, v4]

export const teamSchemaVersion = (): number => TEAM_MIGRATIONS.length

/** A migration's checksum: SHA-256 of its SQL (line endings normalised). */
export function migrationSha256(m: TeamMigration): string {
  return createHash('sha256').update(m.sql.replace(/\r\n/g, '\n')).digest('hex')
}

export interface SetupOutcome {
  from: number
  to: number
  applied: string[]
}

/**
 * Creates the workspace schema (owned by the caller, who becomes the workspace owner) or brings it up
 * to date. Refuses a schema written by a newer Ledgerline, and one whose applied migrations differ from
 * this Ledgerline's (a changed migration would leave two clients with different rules).
 */
export async function setupWorkspace(client: pg.Client): Promise<SetupOutcome> {
  await client.query('begin')
  try {
    // One setup at a time on a server: a second waits, then finds the work done.
    await client.query("select pg_advisory_xact_lock(hashtext('ledgerline team setup'))")
    const owner = await client.query<{ owner: string }>(
      "select nspowner::regrole::name as owner from pg_namespace where nspname = 'ledgerline'"
    )
    const me = (await client.query<{ me: string }>('select current_user as me')).rows[0]?.me as string
    if (owner.rows.length === 0) {
      await client.query('create schema ledgerline')
      // Members call the schema's functions; they get nothing else (each table is revoked from public).
      await client.query('grant usage on schema ledgerline to public')
      await client.query(`create table ledgerline.schema_migrations (
        version integer primary key, name text not null, sha256 text not null,
        applied_at timestamptz not null default now(), applied_by name not null default current_user)`)
      await client.query('revoke all on ledgerline.schema_migrations from public')
    } else if (owner.rows[0]?.owner !== me)
      throw new AppError(
        'team_role_refused',
        `The workspace belongs to ${owner.rows[0]?.owner}; only that login may set it up or upgrade it (you are ${me}).`
      )
    const applied = await client.query<{ version: number; name: string; sha256: string }>(
      'select version, name, sha256 from ledgerline.schema_migrations order by version'
    )
    const latest = teamSchemaVersion()
    const from = applied.rows.length
    const newest = applied.rows[applied.rows.length - 1]?.version ?? 0
    if (newest > latest)
      throw new AppError(
        'team_schema_too_new',
        `This workspace was set up by a newer Ledgerline (team schema ${newest}); this one knows up to ${latest}. Update Ledgerline.`
      )
    for (const row of applied.rows) {
      const mine = TEAM_MIGRATIONS[row.version - 1]
      if (!mine || migrationSha256(mine) !== row.sha256)
        throw new AppError(
          'team_schema_changed',
          `The workspace's migration ${row.version} ("${row.name}") is not the one this Ledgerline ships (its checksum differs). Use the Ledgerline version the workspace was set up with.`
        )
    }
    const done: string[] = []
    for (const m of TEAM_MIGRATIONS.slice(from)) {
      await client.query(m.sql)
      await client.query('insert into ledgerline.schema_migrations (version, name, sha256) values ($1, $2, $3)', [
        m.version,
        m.name,
        migrationSha256(m)
      ])
      done.push(`${m.version} ${m.name}`)
    }
    await client.query('commit')
    return { from, to: latest, applied: done }
  } catch (error) {
    await client.query('rollback').catch(() => undefined)
    throw error
  }
}

// A team workspace on a real PostgreSQL (a throwaway server): `team setup` by its owner, frozen and checksummed; members given roles only by the owner or an admin; no member can change a table directly, tried through psql as the member; the CLI's refusals exit 2 and say why.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { startPostgres, type TestPostgres } from '../support/postgres'

let server: TestPostgres
/** A HOME with no ~/.pgpass, so only the PGPASSWORD a run is given counts. */
const home = mkdtempSync(join(tmpdir(), 'ledgerline-team-home-'))
const PASSWORDS: Record<string, string> = {
  firm_owner: 'owner pass',
  alice: 'alice pass',
  bob: 'bob pass',
  carol: 'carol pass',
  dave: 'dave pass',
  mallory: 'mallory pass'
}

const team = (login: string, ...args: string[]): ReturnType<typeof runCli> =>
  runCli(['team', ...args, '--server', server.url(login)], {
    PGPASSWORD: PASSWORDS[login] ?? '',
    HOME: home,
    PGPASSFILE: join(home, 'none')
  })

beforeAll(async () => {
  server = await startPostgres()
  // The workspace owner: may create roles and schemas in the database, not a superuser.
  await server.createLogin('firm_owner', PASSWORDS.firm_owner as string, 'createrole')
  await server.sql('grant create on database postgres to firm_owner')
  for (const login of ['alice', 'bob', 'carol', 'dave', 'mallory']) await server.createLogin(login, PASSWORDS[login] as string)
}, 120_000)

afterAll(async () => {
  await server?.stop()
})

describe('team setup', () => {
  it('is refused to a login that may not create the schema, and creates it for the owner', async () => {
    const refused = await team('mallory', 'setup')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/permission denied for database postgres.*\[team_role_refused\]/)
    const first = await team('firm_owner', 'setup')
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(
      /^Set up the workspace on postgres:\/\/firm_owner@127\.0\.0\.1:\d+\/postgres: team schema 0 → 4 \(1 workspace members; 2 sessions and events; 3 replay, events sent once, presence; 4 workspace rules, presence at once\)\. firm_owner is its owner\.\n$/
    )
    const again = await team('firm_owner', 'setup')
    expect(again.stdout).toMatch(/is up to date \(team schema 4\)/)
    const other = await team('carol', 'setup')
    expect(other.code).toBe(2)
    expect(other.stderr).toMatch(/The workspace belongs to firm_owner; only that login may set it up/)
  })

  it('refuses a workspace whose applied migration is not the one this Ledgerline ships, or a newer one', async () => {
    const { rows } = await server.sql('select sha256 from ledgerline.schema_migrations where version = 1')
    const sha = (rows[0] as { sha256: string }).sha256
    await server.sql("update ledgerline.schema_migrations set sha256 = repeat('0', 64) where version = 1")
    const changed = await team('firm_owner', 'setup')
    expect(changed.code).toBe(2)
    expect(changed.stderr).toMatch(/migration 1 \("workspace members"\) is not the one this Ledgerline ships.*\[team_schema_changed\]/)
    await server.sql('update ledgerline.schema_migrations set sha256 = $1 where version = 1', [sha])
    await server.sql("insert into ledgerline.schema_migrations (version, name, sha256) values (99, 'from the future', 'x')")
    const newer = await team('firm_owner', 'setup')
    expect(newer.code).toBe(2)
    expect(newer.stderr).toMatch(/set up by a newer Ledgerline \(team schema 99\).*\[team_schema_too_new\]/)
    await server.sql('delete from ledgerline.schema_migrations where version = 99')
    expect((await team('firm_owner', 'setup')).code).toBe(0)
  })
})

describe('team members', () => {
  it('are given roles by the owner or an admin, never by a preparer or a stranger', async () => {
    for (const [login, role] of [
      ['alice', 'preparer'],
      ['bob', 'reviewer'],
      ['carol', 'admin']
    ] as const) {
      const added = await team('firm_owner', 'member', 'add', login, '--role', role)
      expect(added.stderr).toBe('')
      expect(added.stdout).toBe(`${login} is a ${role} of the workspace.\n`)
    }
    // An admin may add members; a preparer and a login outside the workspace may not.
    expect((await team('carol', 'member', 'add', 'dave', '--role', 'preparer')).code).toBe(0)
    const byPreparer = await team('alice', 'member', 'add', 'mallory', '--role', 'admin')
    expect(byPreparer.code).toBe(2)
    expect(byPreparer.stderr).toMatch(/alice may not add members: only the workspace owner or an admin may \[team_role_refused\]/)
    const byStranger = await team('mallory', 'member', 'list')
    expect(byStranger.code).toBe(2)
    expect(byStranger.stderr).toMatch(/mallory is not a member of this workspace/)
    const noLogin = await team('firm_owner', 'member', 'add', 'nobody', '--role', 'reviewer')
    expect(noLogin.code).toBe(2)
    expect(noLogin.stderr).toMatch(/nobody is not a login on this server/)
    const badRole = await team('firm_owner', 'member', 'add', 'mallory', '--role', 'boss')
    expect(badRole.code).toBe(2)
    expect(badRole.stderr).toMatch(/"boss" is not a workspace role/)

    const list = await team('bob', 'member', 'list', '--json')
    expect(list.code).toBe(0)
    const members = JSON.parse(list.stdout) as { login: string; role: string; addedBy: string }[]
    expect(members.map((m) => [m.login, m.role, m.addedBy])).toEqual([
      ['alice', 'preparer', 'firm_owner'],
      ['bob', 'reviewer', 'firm_owner'],
      ['carol', 'admin', 'firm_owner'],
      ['dave', 'preparer', 'carol']
    ])
    const removed = await team('carol', 'member', 'remove', 'dave')
    expect(removed.stdout).toBe('dave is no longer a member of the workspace.\n')
    expect((await team('carol', 'member', 'remove', 'dave')).stdout).toBe('dave was not a member of the workspace.\n')
    // Eleven CLI processes, each starting TypeScript: given the time a loaded machine takes, not the time an idle one does.
  }, 120_000)

  it('cannot change or read any table directly: psql as a member is refused, the functions answer', async () => {
    const alice = PASSWORDS.alice as string
    for (const sql of [
      "insert into ledgerline.members (login, role, added_by) values ('mallory', 'admin', 'alice')",
      "update ledgerline.members set role = 'admin' where login = 'alice'",
      "delete from ledgerline.members where login = 'bob'",
      'select * from ledgerline.members',
      "insert into ledgerline.schema_migrations (version, name, sha256) values (2, 'x', 'x')",
      'delete from ledgerline.schema_migrations',
      'drop table ledgerline.members',
      'create table ledgerline.mine (x int)'
    ]) {
      const run = server.psql('alice', alice, sql)
      expect(run.status, sql).not.toBe(0)
      expect(run.stderr, sql).toMatch(/permission denied|must be owner/)
    }
    // Every table the migrations make, whatever its name: nothing read, written or removed directly.
    const tables = (await server.sql("select tablename from pg_tables where schemaname = 'ledgerline' order by tablename")).rows.map(
      (r) => (r as { tablename: string }).tablename
    )
    expect(tables).toEqual(expect.arrayContaining(['events', 'event_refs', 'presence', 'sessions', 'session_inputs', 'item_versions']))
    for (const table of tables)
      for (const sql of [`select * from ledgerline.${table}`, `delete from ledgerline.${table}`, `truncate ledgerline.${table}`]) {
        const run = server.psql('alice', alice, sql)
        expect(run.status, sql).not.toBe(0)
        expect(run.stderr, sql).toMatch(/permission denied|must be owner/)
      }
    const own = server.psql('alice', alice, 'select ledgerline.my_role()')
    expect(own.status).toBe(0)
    expect(own.stdout).toMatch(/preparer/)
    // Nor does a member get an admin's role by calling the function the owner uses.
    const grab = server.psql('alice', alice, "select ledgerline.member_set('alice', 'admin')")
    expect(grab.status).not.toBe(0)
    expect(grab.stderr).toMatch(/alice may not add members/)
  })
})

describe('logins and URLs', () => {
  it('refuses a password in the URL, and says when the login fails', async () => {
    const inUrl = await runCli(['team', 'member', 'list', '--server', server.url('bob').replace('bob@', 'bob:secret-pass@')], {
      HOME: home
    })
    expect(inUrl.code).toBe(2)
    expect(inUrl.stderr).toMatch(/The server URL holds a password\. Leave it out.*\[password_in_url\]/)
    expect(inUrl.stderr).not.toContain('secret-pass')
    const wrong = await runCli(['team', 'member', 'list', '--server', server.url('bob')], {
      PGPASSWORD: 'not it',
      HOME: home,
      PGPASSFILE: join(home, 'none')
    })
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(/The server refused the login bob@127\.0\.0\.1:\d+\/postgres.*\[team_login_failed\]/)
    expect(wrong.stderr).not.toContain('not it')
  })
})

// A shared session on a real PostgreSQL, worked by a preparer, a second preparer, a reviewer and an admin through the CLI and the functions a client calls: the server enforces roles, states and separation of duties, refuses a stale decision as a conflict naming who changed the item, rings a doorbell that carries nothing, and keeps a chain that finds a superuser's edit or deletion.
import { randomUUID } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientConfig, readServerUrl, teamError } from '../../src/main/team/connection'
import { addSessionEventOnce, itemVersion, shareSession } from '../../src/main/team/server-sessions'
import { runCli, type CliRun } from '../support/cli'
import { scenarioService, scenarioSession } from '../support/recon-session'
import { startPostgres, type TestPostgres } from '../support/postgres'

let server: TestPostgres
const home = mkdtempSync(join(tmpdir(), 'ledgerline-team-home-'))
const PASSWORDS: Record<string, string> = { owner: 'o pass', alice: 'a pass', erin: 'e pass', bob: 'b pass', carol: 'c pass' }
const SESSION = 'sess-2026-03'

const as = (login: string, ...args: string[]): Promise<CliRun> =>
  runCli([...args, '--server', server.url(login)], { PGPASSWORD: PASSWORDS[login] ?? '', HOME: home, PGPASSFILE: join(home, 'none') })

async function connect(login: string): Promise<pg.Client> {
  const client = new pg.Client(clientConfig(readServerUrl(server.url(login)), PASSWORDS[login]))
  await client.connect()
  return client
}

/** Sends an event through the workspace's function as a member's client does; a refusal as the CLI reports one (exit 2, its message and code). */
async function asMember(
  login: string,
  send: (client: pg.Client) => Promise<number>
): Promise<{ code: number; stderr: string; seq?: number }> {
  const client = await connect(login)
  try {
    return { code: 0, stderr: '', seq: await send(client) }
  } catch (error) {
    const refused = teamError(error, readServerUrl(server.url(login)))
    return { code: 2, stderr: `${refused.message} [${refused.code}]` }
  } finally {
    await client.end()
  }
}

/** A decision (or "note TEXT") on an item. */
const decide = (login: string, item: string, action: string, basedOn?: number): ReturnType<typeof asMember> =>
  asMember(login, async (client) =>
    action.startsWith('note ')
      ? addSessionEventOnce(client, randomUUID(), SESSION, 'note', { text: action.slice(5) }, { key: item, basedOn: 0 })
      : addSessionEventOnce(
          client,
          randomUUID(),
          SESSION,
          'decision',
          { action },
          { key: item, basedOn: basedOn ?? (await itemVersion(client, SESSION, item)) }
        )
  )

/** A sign-off step (the CLI's team submit|approve also names the items replayed on the member's computer: see replicas.test.ts). */
const step = (login: string, kind: 'submit' | 'approve' | 'return' | 'reopen', reason?: string): ReturnType<typeof asMember> =>
  asMember(login, (client) => addSessionEventOnce(client, randomUUID(), SESSION, kind, reason ? { reason } : {}))

/** The call a member's client makes for an event (addSessionEventOnce), as SQL for psql. */
const eventSql = (kind: string, item: string | null, basedOn: number | null, payload: object): string =>
  `select ledgerline.session_event_once('${randomUUID()}', '${SESSION}', '${kind}', ${item === null ? 'null' : `'${item}'`}, ${basedOn ?? 'null'}, '${JSON.stringify(payload)}')`

beforeAll(async () => {
  server = await startPostgres()
  await server.createLogin('owner', PASSWORDS.owner as string)
  await server.sql('grant create on database postgres to owner')
  for (const login of ['alice', 'erin', 'bob', 'carol']) await server.createLogin(login, PASSWORDS[login] as string)
  expect((await as('owner', 'team', 'setup')).code).toBe(0)
  for (const [login, role] of [
    ['alice', 'preparer'],
    ['erin', 'preparer'],
    ['bob', 'reviewer'],
    ['carol', 'admin']
  ] as const)
    expect((await as('owner', 'team', 'member', 'add', login, '--role', role)).code).toBe(0)
}, 180_000)

afterAll(async () => {
  await server?.stop()
})

describe('a shared session', () => {
  it('is shared by a preparer with its inputs checked by SHA-256; not by a reviewer', async () => {
    const alice = await connect('alice')
    const bob = await connect('bob')
    try {
      const request = {
        id: SESSION,
        name: 'March 2026',
        periodFrom: '2026-03-01',
        periodTo: '2026-03-31',
        ruleVersion: 'rules-1',
        settings: { windowDays: 3 },
        inputs: [{ kind: 'statement' as const, name: 'march.csv', bytes: Buffer.from('Date,Amount\n2026-03-02,5000.00\n') }]
      }
      await expect(shareSession(bob, { ...request, id: 'other' })).rejects.toMatchObject({
        code: 'LLROL',
        message: /bob is a reviewer: only a preparer or an admin shares/
      })
      expect(await shareSession(alice, request)).toBe(1)
      await expect(shareSession(alice, request)).rejects.toMatchObject({ code: 'LLSTA', message: /already shared/ })
      // An input whose bytes do not match the SHA-256 sent with them is refused whole.
      await expect(
        alice.query("select ledgerline.session_share('x', 'x', null, null, 'r', '{}', $1)", [
          JSON.stringify([{ kind: 'statement', name: 'cut.csv', sha256: '0'.repeat(64), content: Buffer.from('abc').toString('base64') }])
        ])
      ).rejects.toMatchObject({ code: 'LLSTA', message: /cut.csv arrived with another SHA-256/ })
    } finally {
      await alice.end()
      await bob.end()
    }
    const listed = await as('bob', 'team', 'sessions', '--json')
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        id: SESSION,
        name: 'March 2026',
        periodFrom: '2026-03-01',
        state: 'open',
        preparer: 'alice',
        reviewer: null,
        events: 1
      })
    ])
  })

  it('takes decisions from preparers only, rings a doorbell with no data, and refuses a stale decision as a conflict', async () => {
    const listener = await connect('bob')
    const rung: string[] = []
    listener.on('notification', (n) => rung.push(n.payload ?? ''))
    await listener.query('listen ledgerline_events')
    try {
      const decided = await decide('alice', 'A', 'accept')
      expect(decided).toEqual({ code: 0, stderr: '', seq: 2 })
      await expect.poll(() => rung).toEqual([''])
      const byReviewer = await decide('bob', 'A', 'reject')
      expect(byReviewer.code).toBe(2)
      expect(byReviewer.stderr).toMatch(
        /bob is a reviewer: only preparers decide \(a reviewer comments with a note\) \[team_role_refused\]/
      )
      // The same refusal through the real psql client, as bob, calling the function a member's client calls.
      const viaPsql = server.psql('bob', PASSWORDS.bob as string, eventSql('decision', 'A', 1, { action: 'reject' }))
      expect(viaPsql.status).not.toBe(0)
      expect(viaPsql.stderr).toMatch(/bob is a reviewer: only preparers decide/)
      expect((await decide('bob', 'A', 'note check the fee')).code).toBe(0)
      expect((await decide('erin', 'D', 'accept')).code).toBe(0)
      // Two preparers decide on one item at the same moment, both from version 0: one wins, the other is told who changed it.
      const [first, second] = await Promise.all([decide('alice', 'B', 'accept', 0), decide('erin', 'B', 'reject', 0)])
      const runs = [first, second]
      expect(runs.map((r) => r.code).sort()).toEqual([0, 2])
      const lost = runs.find((r) => r.code === 2) as { stderr: string }
      const winner = runs[0]?.code === 0 ? 'alice' : 'erin'
      expect(lost.stderr).toMatch(
        new RegExp(
          `item B was changed by ${winner} at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC \\(version 1\\) after the version 0 this decision was based on \\[team_conflict\\]`
        )
      )
    } finally {
      await listener.end()
    }
  })

  it('goes open → submitted → returned → approved → reopened, each step only for whoever may take it', async () => {
    expect((await step('bob', 'submit')).code).toBe(2)
    expect(await step('alice', 'submit')).toEqual({ code: 0, stderr: '', seq: 6 })
    // Submitted: read-only to its preparers.
    const late = await decide('alice', 'C', 'accept')
    expect(late.code).toBe(2)
    expect(late.stderr).toMatch(/is submitted: it is read-only until it is returned \[team_state_refused\]/)
    expect((await decide('alice', 'C', 'note one more thing')).code).toBe(2)
    // The preparer never approves her own session.
    const own = await step('alice', 'approve')
    expect(own.code).toBe(2)
    expect(own.stderr).toMatch(/alice is a preparer: only a reviewer or an admin approves/)
    // Nor does anyone who made a decision in it, even after becoming a reviewer.
    expect((await as('owner', 'team', 'member', 'add', 'erin', '--role', 'reviewer')).code).toBe(0)
    const decider = await step('erin', 'approve')
    expect(decider.code).toBe(2)
    expect(decider.stderr).toMatch(/erin made decisions in session sess-2026-03 and may not approve it \[team_duties_refused\]/)
    // Both refusals again through the real psql client, as each member.
    for (const [login, refusal] of [
      ['alice', /alice is a preparer: only a reviewer or an admin approves/],
      ['erin', /erin made decisions in session sess-2026-03 and may not approve it/]
    ] as const) {
      const run = server.psql(login, PASSWORDS[login] as string, eventSql('approve', null, null, {}))
      expect(run.status, login).not.toBe(0)
      expect(run.stderr, login).toMatch(refusal)
    }
    const noReason = await step('bob', 'return')
    expect(noReason.stderr).toMatch(/returning a session needs a comment saying why \[team_state_refused\]/)
    expect((await step('bob', 'return', 'Item C is not explained')).code).toBe(0)
    expect((await decide('alice', 'C', 'resolve')).code).toBe(0)
    expect((await step('alice', 'submit')).code).toBe(0)
    expect((await step('bob', 'approve')).code).toBe(0)
    // Approved: locked for everyone, reopened only by an admin with a reason.
    const locked = await decide('bob', 'A', 'note after the fact')
    expect(locked.stderr).toMatch(/is approved: it is locked for everyone/)
    expect((await as('bob', 'team', 'reopen', '--session', SESSION, '--reason', 'x')).code).toBe(2)
    expect((await as('carol', 'team', 'reopen', '--session', SESSION, '--reason', 'Bank restated March')).code).toBe(0)
    const list = await as('carol', 'team', 'sessions')
    expect(list.stdout).toMatch(
      /sess-2026-03 {2}March 2026 {2}2026-03-01 to 2026-03-31 {2}OPEN {2}prepared by alice, reviewed by bob {2}4 decision\(s\), 1 note\(s\)/
    )
  })

  it('is checked from the server rows: a superuser edit or deletion is found and named; members cannot write a row', async () => {
    const intact = await as('bob', 'audit', 'verify', '--session', SESSION)
    expect(intact.code).toBe(0)
    expect(intact.stdout).toMatch(/audit trail intact, 11 event\(s\), every hash checked/)
    for (const sql of [
      `update ledgerline.events set payload = '{"action":"reject"}' where seq = 2`,
      `insert into ledgerline.events select * from ledgerline.events where seq = 2`,
      `select ledgerline.append_event('${SESSION}', 'approve', null, null, '{}')`,
      `update ledgerline.sessions set state = 'approved'`
    ]) {
      const run = server.psql('alice', PASSWORDS.alice as string, sql)
      expect(run.status, sql).not.toBe(0)
      expect(run.stderr, sql).toMatch(/permission denied/)
    }
    await server.sql(`update ledgerline.events set payload = '{"action": "reject"}' where session_id = $1 and seq = 2`, [SESSION])
    const edited = await as('bob', 'audit', 'verify', '--session', SESSION)
    expect(edited.code).toBe(1)
    expect(edited.stdout).toMatch(
      /event 2 by alice at 20\d\d-\d\d-\d\dT[\d:.]+Z: its content does not match its hash \(changed after it was written\)/
    )
    await server.sql(`update ledgerline.events set payload = '{"action": "accept"}' where session_id = $1 and seq = 2`, [SESSION])
    expect((await as('bob', 'audit', 'verify', '--session', SESSION)).code).toBe(0)
    await server.sql('delete from ledgerline.events where session_id = $1 and seq = 11', [SESSION])
    const deleted = await as('bob', 'audit', 'verify', '--session', SESSION)
    expect(deleted.code).toBe(1)
    expect(deleted.stdout).toMatch(/the session's chain ends at event 11, but 10 event\(s\) are there/)
  })

  it('is published from a local cache by team share, with its statement exactly as imported and the provider records it reads', async () => {
    const file = join(home, 'alice.sqlite')
    const service = scenarioService([{ n: 1, amount: 5000, day: '2026-10-02' }], file)
    const csv = 'Date,Reference,Amount\n2026-10-02,PAY-0001,5000.00\n'
    const local = await scenarioSession(service, csv, { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' })
    const shared = await as('alice', 'team', 'share', '--db', file, '--session', local.id)
    expect(shared.stderr).toBe('')
    expect(shared.stdout).toMatch(
      /^Shared "October" \(2026-10-01 to 2026-10-31\) with the workspace on postgres:\/\/alice@127\.0\.0\.1:\d+\/postgres: 1 statement file\(s\) and the provider records it reads \(event 1\)/
    )
    const inputs = await server.sql(
      'select kind, name, sha256, content from ledgerline.session_inputs where session_id = $1 order by kind',
      [local.id]
    )
    const rows = inputs.rows as { kind: string; name: string; sha256: string; content: Buffer }[]
    expect(rows.map((r) => [r.kind, r.name])).toEqual([
      ['provider_records', 'payments.json'],
      ['statement', 'october.csv']
    ])
    expect(rows[1]?.content.toString()).toBe(csv)
    expect(rows[1]?.sha256).toBe(local.files[0]?.sha256)
    expect(JSON.parse(rows[0]?.content.toString() ?? '{}').records).toEqual([
      expect.objectContaining({ reference: 'PAY-0001', amountMinor: 500_000 })
    ])
    // A reviewer shares nothing, and a session is shared once.
    expect((await as('bob', 'team', 'share', '--db', file, '--session', local.id)).code).toBe(2)
    expect((await as('alice', 'team', 'share', '--db', file, '--session', local.id)).stderr).toMatch(/is already shared/)
  })
})

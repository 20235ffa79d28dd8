// The workspace's own rules, against a real PostgreSQL: a preparer adds one (not enabled), tries it on a shared session, enables it; her next sync applies it as decisions every member replays, naming the rule and its version; a reviewer reads the rules but may not change them; a change is the rule's next version with who made it; the profile a workspace's sessions live under takes no rules of its own.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import { ReconService } from '../../src/main/reconcile/service'
import { startTestHost, valueOf, type TestHost } from '../support/app-env'
import { runCli, type CliRun } from '../support/cli'
import { scenarioService, scenarioSession } from '../support/recon-session'
import { firmWorkspace } from '../support/firm-workspace'
import { startPostgres, type TestPostgres } from '../support/postgres'

let server: TestPostgres
const home = mkdtempSync(join(tmpdir(), 'ledgerline-team-rules-'))
const PASSWORDS: Record<string, string> = { owner: 'o pass', alice: 'a pass', erin: 'e pass', bob: 'b pass' }
const cache = (login: string): string => join(home, `${login}.sqlite`)

const as = (login: string, ...args: string[]): Promise<CliRun> =>
  runCli([...args, '--server', server.url(login), '--db', cache(login)], {
    PGPASSWORD: PASSWORDS[login] ?? '',
    HOME: home,
    PGPASSFILE: join(home, 'none')
  })

const SMS_RULE = {
  name: 'sms-alert-charges',
  description: "The bank's SMS alert charges are bank charges",
  match: 'all',
  conditions: [{ field: 'description', operator: 'contains', value: 'SMS ALERT' }],
  action: { type: 'classify', as: 'bank_charge', reasonCode: 'bank_charge' }
}
const ruleFile = (name: string, rule: object): string => {
  const file = join(home, name)
  writeFileSync(file, JSON.stringify(rule))
  return file
}

/** A member's replayed session as its cache holds it: the items, exactly, and the rules' events. */
function replayOf(login: string): { items: string; ruled: { name: string; version: number; action: string; fileIds: string[] }[] } {
  const db = openCache(cache(login))
  try {
    const id = (db.prepare('select session_id from team_replicas').get() as { session_id: string }).session_id
    const service = new ReconService(db)
    return {
      items: JSON.stringify([...service.allItems(id)]),
      ruled: service.events(id).flatMap((e) => (e.kind === 'rule' ? [e.payload] : []))
    }
  } finally {
    db.close()
  }
}

let shared = ''
let erinApp: TestHost | undefined
beforeAll(async () => {
  server = await startPostgres()
  await firmWorkspace(server, PASSWORDS, as)
  // Alice's October: two payments by reference, and two of the bank's SMS alert charges only in the statement.
  const service = scenarioService(
    [
      { n: 1, amount: 1500, day: '2026-10-02' },
      { n: 2, amount: 2750, day: '2026-10-09' }
    ],
    cache('alice')
  )
  const csv = [
    'Date,Description,Reference,Amount',
    '2026-10-02,Card settlement,PAY-0001,1500.00',
    '2026-10-09,Card settlement,PAY-0002,2750.00',
    '2026-10-15,SMS ALERT CHARGES SEP,,-4.00',
    '2026-10-31,SMS ALERT CHARGES OCT,,-4.00',
    '2026-10-31,COT CHARGE OCT,,-2.50'
  ].join('\n')
  const local = await scenarioSession(service, `${csv}\n`, { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' })
  shared = local.id
  expect((await as('alice', 'team', 'share', '--session', shared)).code).toBe(0)
  for (const login of ['alice', 'bob']) expect((await as(login, 'team', 'sync')).code).toBe(0)
}, 180_000)

afterAll(async () => {
  await erinApp?.close()
  await server?.stop()
})

describe("the workspace's rules", () => {
  it('are added by a preparer, not enabled, and read by every member; a reviewer may not change them', async () => {
    const empty = await as('bob', 'rules', 'list')
    expect(empty.stdout).toMatch(/^the team workspace 127\.0\.0\.1:\d+\/postgres has no rules yet/)
    const refused = await as('bob', 'rules', 'add', '--file', ruleFile('sms.json', SMS_RULE))
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/bob is a reviewer: only preparers and admins change the workspace's rules \[team_role_refused\]/)
    const added = await as('alice', 'rules', 'add', '--file', ruleFile('sms.json', SMS_RULE))
    expect(added.stderr).toBe('')
    expect(added.stdout).toMatch(
      /^Added: sms-alert-charges \(version 1, not enabled: try it with rules preview, then rules enable\) in the team workspace/
    )
    const listed = JSON.parse((await as('bob', 'rules', 'list', '--json')).stdout) as {
      rule: { name: string }
      version: number
      enabled: boolean
      updatedBy: string
    }[]
    expect(listed).toMatchObject([{ rule: { name: 'sms-alert-charges' }, version: 1, enabled: false, updatedBy: 'alice' }])
    // Not enabled: a sync decides nothing by it.
    expect((await as('alice', 'team', 'sync')).stdout).not.toMatch(/rules decided/)
    expect(replayOf('alice').ruled).toEqual([])
  }, 120_000)

  it('are tried on a shared session before they are enabled', async () => {
    const preview = await as('alice', 'rules', 'preview', 'sms-alert-charges', '--session', shared, '--json')
    expect(preview.stderr).toBe('')
    const figures = JSON.parse(preview.stdout) as { sessions: { items: number; undecided: number }[] }
    expect(figures.sessions[0]).toMatchObject({ items: 2, undecided: 2 })
    const unknown = await as('alice', 'rules', 'preview', 'sms-alert-charges', '--session', 'no-such-session')
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/no shared session no-such-session of 127\.0\.0\.1:\d+\/postgres is on this computer/)
  }, 120_000)

  it('once enabled, decide the session through the workspace: every member replays the same items, each decision naming the rule and its version', async () => {
    const enabled = await as('alice', 'rules', 'enable', 'sms-alert-charges')
    expect(enabled.stdout).toMatch(/^sms-alert-charges \(version 1\) is enabled in the team workspace/)
    const sync = await as('alice', 'team', 'sync')
    expect(sync.stderr).toBe('')
    expect(sync.stdout).toMatch(/The workspace's rules decided 2 line\(s\); each is an event naming its rule and version\./)
    expect((await as('bob', 'team', 'sync')).stdout).toMatch(/2 new event\(s\)/)
    const alice = replayOf('alice')
    const bob = replayOf('bob')
    expect(bob.items).toBe(alice.items)
    expect(bob.ruled).toEqual(alice.ruled)
    expect(bob.ruled.map((r) => [r.name, r.version, r.action, r.fileIds.length])).toEqual([
      ['sms-alert-charges', 1, 'classify', 1],
      ['sms-alert-charges', 1, 'classify', 1]
    ])
    const charges = (
      JSON.parse(bob.items) as { file: { description: string }[]; reasonCode: string | null; resolved: boolean; decidedBy: string | null }[]
    ).filter((i) => i.file[0]?.description.startsWith('SMS ALERT'))
    expect(charges.map((i) => [i.reasonCode, i.resolved, i.decidedBy])).toEqual([
      ['bank_charge', true, 'rule "sms-alert-charges" (version 1)'],
      ['bank_charge', true, 'rule "sms-alert-charges" (version 1)']
    ])
    // Applied once: the next sync of either preparer decides nothing more.
    expect((await as('alice', 'team', 'sync')).stdout).not.toMatch(/rules decided/)
    expect((await as('erin', 'team', 'sync')).stdout).not.toMatch(/rules decided/)
    expect(replayOf('erin').items).toBe(alice.items)
  }, 180_000)

  it('keep every version with who saved it; a change of one is its next version, and the lines it decided stay as they were', async () => {
    const changed = await as(
      'erin',
      'rules',
      'add',
      '--file',
      ruleFile('sms2.json', { ...SMS_RULE, description: 'SMS alerts: bank charges' })
    )
    expect(changed.stdout).toMatch(/^Saved as a new version: sms-alert-charges \(version 2, enabled\)/)
    const again = await as(
      'erin',
      'rules',
      'add',
      '--file',
      ruleFile('sms2.json', { ...SMS_RULE, description: 'SMS alerts: bank charges' })
    )
    expect(again.stdout).toMatch(/^Unchanged: sms-alert-charges \(version 2/)
    expect(JSON.parse((await as('bob', 'rules', 'list', '--json')).stdout)).toMatchObject([
      { version: 2, enabled: true, updatedBy: 'erin' }
    ])
    const history = await server.sql('select name, what, version, changed_by::text as by from ledgerline.rule_changes order by seq')
    expect(history.rows).toEqual([
      { name: 'sms-alert-charges', what: 'added', version: 1, by: 'alice' },
      { name: 'sms-alert-charges', what: 'enabled', version: 1, by: 'alice' },
      { name: 'sms-alert-charges', what: 'new version', version: 2, by: 'erin' }
    ])
    expect((await as('alice', 'team', 'sync')).stdout).not.toMatch(/rules decided/)
    expect(replayOf('alice').ruled.map((r) => r.version)).toEqual([1, 1])
    const missing = await as('alice', 'rules', 'enable', 'no-such-rule')
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/the workspace has no rule "no-such-rule" \[rule_not_found\]/)
  }, 120_000)

  it("are the only rules of the profile a workspace's sessions live under", async () => {
    const db = openCache(cache('alice'))
    const team = (db.prepare('select name from profiles where team_workspace is not null').get() as { name: string }).name
    db.close()
    const local = await runCli(['rules', 'list', '--db', cache('alice'), '--profile', team], { HOME: home })
    expect(local.code).toBe(2)
    expect(local.stderr).toMatch(
      /holds the sessions of the team workspace 127\.0\.0\.1:\d+\/postgres, which its rules decide: add --server postgres:\/\/LOGIN@/
    )
  }, 60_000)

  it("are the app's rules in a shared session: a preparer saves and enables one there, and her app applies it through the workspace", async () => {
    erinApp = await startTestHost()
    const app = erinApp
    valueOf(await app.call('team:connect', { url: server.url('erin'), password: PASSWORDS.erin }))
    const opened = valueOf(await app.call('team:open', { sharedId: shared }))
    // The workspace's sessions are open: the rules the screens show are the workspace's.
    expect(valueOf(await app.call('rules:list')).map((r) => [r.rule.name, r.version, r.enabled])).toEqual([['sms-alert-charges', 2, true]])
    const cot = {
      name: 'cot-charges',
      match: 'all',
      conditions: [{ field: 'description', operator: 'starts_with', value: 'COT CHARGE' }],
      action: { type: 'classify', as: 'bank_charge', reasonCode: 'bank_charge' }
    }
    const saved = valueOf(await app.call('rules:save', { rule: cot }))
    expect(saved).toMatchObject({ change: 'added', stored: { version: 1, enabled: false, updatedBy: 'erin', position: 2 } })
    const preview = valueOf(await app.call('rules:preview', { sessionId: opened.sessionId, rule: cot }))
    expect(preview.sessions[0]).toMatchObject({ items: 1, undecided: 1 })
    valueOf(await app.call('rules:setEnabled', { name: 'cot-charges', enabled: true }))
    // The change rang the doorbell: erin's app synced and applied the rule as a decision through the workspace.
    await expect
      .poll(
        async () =>
          valueOf(await app.call('recon:items', { sessionId: opened.sessionId, limit: 100 })).items.find((i) =>
            i.file[0]?.description?.startsWith('COT CHARGE')
          )?.decidedBy,
        { timeout: 30_000 }
      )
      .toBe('rule "cot-charges" (version 1)')
    expect((await as('bob', 'team', 'sync')).stdout).toMatch(/1 new event\(s\)/)
    expect(replayOf('bob').ruled.map((r) => [r.name, r.version])).toEqual([
      ['sms-alert-charges', 1],
      ['sms-alert-charges', 1],
      ['cot-charges', 1]
    ])
  }, 120_000)
})

// The app's team workspace through main's gate and the real service host, against a real PostgreSQL reached through a proxy that can cut the network: a connection whose password lives only in the keychain, a session shared from the app and replayed on a reviewer's computer, decisions live through the doorbell, offline decisions refused as a conflict on their item, and the sign-off with its report.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import keytar from 'keytar'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache/open'
import type { ReconItem } from '../../src/shared/reconcile'
import { startTestHost, syncAndWait, testHostConfig, valueOf, type TestHost } from '../support/app-env'
import { runCli } from '../support/cli'
import { startPostgres, type TestPostgres } from '../support/postgres'
import { scenarioService, scenarioSession } from '../support/recon-session'
import { startProxy, type TcpProxy } from '../support/tcp-proxy'

let server: TestPostgres
let proxy: TcpProxy
const home = mkdtempSync(join(tmpdir(), 'ledgerline-team-app-'))
const PASSWORDS: Record<string, string> = {
  owner: 'owner pass 1',
  alice: 'alice-secret-7f3e9a',
  bob: 'bob-secret-c41d2b',
  erin: 'erin-secret-99aa01',
  stranger: 'stranger-secret-1'
}
const url = (login: string): string => `postgres://${login}@127.0.0.1:${proxy.port}/postgres`
const cli = (login: string, ...args: string[]) =>
  runCli([...args, '--server', url(login), '--db', join(home, `${login}.sqlite`)], {
    PGPASSWORD: PASSWORDS[login] ?? '',
    HOME: home,
    PGPASSFILE: join(home, 'none')
  })
const hosts: TestHost[] = []
let alice: TestHost
let bob: TestHost
let localSession = ''
const PAYMENTS = Array.from({ length: 12 }, (_, i) => ({ n: i + 1, amount: 2000 + i, day: '2026-10-03' }))

/** A host as a member's app: its own cache and keychain service; the listener quick to notice a dropped line. */
async function app(config = testHostConfig()): Promise<TestHost> {
  const host = await startTestHost({ config: { ...config, teamDoorbell: { heartbeatMs: 500, retryMs: 200 } } })
  hosts.push(host)
  return host
}

async function items(host: TestHost, sessionId: string): Promise<ReconItem[]> {
  return valueOf(await host.call('recon:items', { sessionId, limit: 1000 })).items
}
/** Runs the matching of a session as a job and waits for it to succeed. */
async function runAndWait(host: TestHost, sessionId: string): Promise<void> {
  const job = valueOf(await host.call('recon:run', { sessionId }))
  await expect
    .poll(async () => valueOf(await host.call('job:list')).find((j) => j.id === job.id)?.state, { timeout: 60_000 })
    .toBe('succeeded')
}
const byPayment = async (host: TestHost, sessionId: string, n: number): Promise<ReconItem> =>
  (await items(host, sessionId)).find((i) => i.provider[0]?.id === `id-${n}`) as ReconItem

beforeAll(async () => {
  server = await startPostgres()
  proxy = await startProxy(server.port)
  await server.createLogin('owner', PASSWORDS.owner as string)
  await server.sql('grant create on database postgres to owner')
  for (const login of ['alice', 'bob', 'erin', 'stranger']) await server.createLogin(login, PASSWORDS[login] as string)
  expect((await cli('owner', 'team', 'setup')).code).toBe(0)
  for (const [login, role] of [
    ['alice', 'preparer'],
    ['erin', 'preparer'],
    ['bob', 'reviewer']
  ] as const)
    expect((await cli('owner', 'team', 'member', 'add', login, '--role', role)).code).toBe(0)
  // Alice's computer: a session reconciled there, on the profile in use.
  const config = testHostConfig()
  const service = scenarioService(PAYMENTS, config.paths.cacheDatabase)
  const csv = ['Date,Reference,Amount', ...PAYMENTS.map((p) => `2026-10-03,,${p.amount}.00`)].join('\n') + '\n'
  localSession = (await scenarioSession(service, csv, { name: 'october.csv', from: '2026-10-01', to: '2026-10-31' })).id
  alice = await app({ ...config })
  valueOf(await alice.call('profile:select', { id: 'test' }))
  bob = await app()
}, 180_000)

afterAll(async () => {
  for (const host of hosts) await host.close().catch(() => undefined)
  await proxy?.close()
  await server?.stop()
})

describe("the app's team workspace", () => {
  it('connects a member with the password kept in the keychain only, and refuses what it must', async () => {
    expect(valueOf(await alice.call('team:status'))).toBeNull()
    const withPassword = await alice.call('team:connect', { url: `postgres://alice:pw@127.0.0.1:${proxy.port}/postgres`, password: 'x' })
    expect(withPassword.ok ? null : withPassword.error.code).toBe('password_in_url')
    const wrong = await alice.call('team:connect', { url: url('alice'), password: 'not the password' })
    expect(wrong.ok ? null : wrong.error.code).toBe('team_login_failed')
    const stranger = await alice.call('team:connect', { url: url('stranger'), password: PASSWORDS.stranger })
    expect(stranger.ok ? null : stranger.error).toMatchObject({
      code: 'team_role_refused',
      message: expect.stringMatching(/stranger is not a member of the workspace/)
    })
    expect(valueOf(await alice.call('team:status'))).toBeNull()

    const status = valueOf(await alice.call('team:connect', { url: url('alice'), password: PASSWORDS.alice }))
    expect(status).toMatchObject({ login: 'alice', role: 'preparer', workspace: `127.0.0.1:${proxy.port}/postgres`, waiting: 0 })
    await expect.poll(async () => valueOf(await alice.call('team:status'))?.line).toBe('listening')
    // In the keychain, under the login and the workspace; nowhere else.
    expect(await keytar.getPassword(alice.config.keychainService as string, `team:alice@127.0.0.1:${proxy.port}/postgres`)).toBe(
      PASSWORDS.alice
    )
    const { userData } = alice.config.paths
    for (const file of readdirSync(userData, { recursive: true }) as string[]) {
      if (!statSync(join(userData, file)).isFile()) continue
      const bytes = readFileSync(join(userData, file))
      expect(bytes.includes(PASSWORDS.alice as string), `${file} holds the password`).toBe(false)
    }
    expect(JSON.stringify(alice.events)).not.toContain(PASSWORDS.alice)

    // A restarted app connects again by itself, with the password from the keychain.
    await alice.close()
    hosts.splice(hosts.indexOf(alice), 1)
    alice = await app(alice.config)
    await expect.poll(async () => valueOf(await alice.call('team:status'))).toMatchObject({ login: 'alice', line: 'listening' })
    expect(valueOf(await alice.call('profile:active')).id).toBe('test')
  }, 120_000)

  it('shares a session from the app (asked first) and a reviewer opens it on his computer with the same items and no API key', async () => {
    alice.ui.confirmAnswer = false
    const declined = await alice.call('team:share', { sessionId: localSession })
    expect(declined.ok ? null : declined.error.code).toBe('not_confirmed')
    alice.ui.confirmAnswer = true
    const shared = valueOf(await alice.call('team:share', { sessionId: localSession }))
    expect(alice.ui.confirmations.at(-1)).toMatchObject({
      title: 'Share this session with the workspace?',
      detail: expect.stringMatching(/Its 1 statement file\(s\) \(october\.csv\) exactly as imported/)
    })
    expect(shared.sharedId).toBe(localSession)
    // Alice now works in the shared copy, under the workspace's profile (no key, nothing to sync).
    const profile = valueOf(await alice.call('profile:active'))
    expect(profile).toMatchObject({ id: shared.profileId, workspace: `127.0.0.1:${proxy.port}/postgres`, mode: 'test', baseUrl: null })
    expect(alice.events.some((e) => e.name === 'profile:changed')).toBe(true)
    await expect(syncAndWait(alice)).rejects.toThrow(/team_profile: .*has no API key and nothing to sync/)
    expect(valueOf(await alice.call('recon:session', { id: shared.sessionId })).team).toEqual({
      workspace: `127.0.0.1:${proxy.port}/postgres`,
      sharedId: localSession,
      replay: true,
      copyId: null
    })

    valueOf(await bob.call('team:connect', { url: url('bob'), password: PASSWORDS.bob }))
    const list = valueOf(await bob.call('team:sessions'))
    expect(list).toEqual([
      expect.objectContaining({
        id: localSession,
        name: 'October',
        state: 'open',
        preparer: 'alice',
        reviewer: null,
        openBy: ['alice'],
        localId: null
      })
    ])
    const opened = valueOf(await bob.call('team:open', { sharedId: localSession }))
    expect(valueOf(await bob.call('profile:active')).id).toBe(opened.profileId)
    expect(JSON.stringify(await items(bob, opened.sessionId))).toBe(JSON.stringify(await items(alice, shared.sessionId)))
    const view = valueOf(await bob.call('team:session', { sessionId: opened.sessionId }))
    expect(view).toMatchObject({
      state: 'open',
      preparer: 'alice',
      me: 'bob',
      role: 'reviewer',
      readOnly: expect.stringMatching(/You review this session: you comment \(c\); its preparers decide/),
      may: { decide: false, comment: true, submit: false, approve: false, return: false, reopen: false }
    })
    expect(view?.history.map((e) => [e.what, e.author])).toEqual([['shared for preparation', 'alice']])
    expect(valueOf(await alice.call('team:session', { sessionId: shared.sessionId }))?.openBy).toEqual(['bob'])
  }, 120_000)

  it('sends a decision at once and the reviewer has it live; a reviewer comments and cannot decide', async () => {
    const aliceCopy = valueOf(await alice.call('recon:sessions'))[0]?.id as string
    const bobCopy = valueOf(await bob.call('recon:sessions'))[0]?.id as string
    const first = await byPayment(alice, aliceCopy, 1)
    expect(first.outcome).toBe('suggested')
    const decided = valueOf(await alice.call('recon:decide', { sessionId: aliceCopy, decision: { kind: 'accept', itemKey: first.key } }))
    expect(decided).toMatchObject({ inPlace: false, waiting: 0, item: null })
    expect(await byPayment(alice, aliceCopy, 1)).toMatchObject({ outcome: 'matched', decidedBy: 'alice' })
    // Bob's app hears the doorbell and pulls: the decision is there, with its author, without his asking.
    await expect.poll(async () => (await byPayment(bob, bobCopy, 1)).decidedBy, { timeout: 30_000 }).toBe('alice')
    // And tells the window, once its pull and run are done (the items may be read a moment before).
    await expect
      .poll(() => bob.events.some((e) => e.name === 'team:changed' && (e.payload as { sessionIds: string[] }).sessionIds.includes(bobCopy)))
      .toBe(true)
    const second = await byPayment(bob, bobCopy, 2)
    const refused = await bob.call('recon:decide', { sessionId: bobCopy, decision: { kind: 'accept', itemKey: second.key } })
    expect(refused.ok ? null : refused.error).toMatchObject({
      code: 'team_role_refused',
      message: expect.stringMatching(/only preparers decide/)
    })
    const comment = valueOf(await bob.call('team:comment', { sessionId: bobCopy, itemKey: second.key, text: 'Is the fee netted here?' }))
    expect(comment.conflicts).toEqual([expect.objectContaining({ itemKey: second.key, code: 'team_role_refused' })])
    expect(comment.history.at(-1)).toMatchObject({ what: 'comment', author: 'bob', itemKey: second.key, text: 'Is the fee netted here?' })
    const letGo = valueOf(await bob.call('team:dismissConflict', { sessionId: bobCopy, ref: comment.conflicts[0]?.ref as string }))
    expect(letGo.conflicts).toEqual([])
    await expect
      .poll(async () => valueOf(await alice.call('team:session', { sessionId: aliceCopy }))?.history.at(-1)?.text, { timeout: 30_000 })
      .toBe('Is the fee netted here?')
  }, 120_000)

  it('tells the others within one ring who opens a shared session and who leaves it', async () => {
    const aliceCopy = valueOf(await alice.call('recon:sessions'))[0]?.id as string
    const bobCopy = valueOf(await bob.call('recon:sessions'))[0]?.id as string
    const presenceFor = (from: number) => () =>
      alice.events
        .slice(from)
        .some((e) => e.name === 'team:presence' && (e.payload as { sessionIds: string[] }).sessionIds.includes(aliceCopy))
    valueOf(await bob.call('team:session', { sessionId: bobCopy }))
    await expect.poll(async () => valueOf(await alice.call('team:session', { sessionId: aliceCopy }))?.openBy).toEqual(['bob'])
    // Bob's review leaves it: Alice's app hears the ring and her screens read it again, without waiting for his presence to lapse.
    const beforeLeaving = alice.events.length
    expect(valueOf(await bob.call('team:left', { sessionId: bobCopy }))).toBeNull()
    await expect.poll(presenceFor(beforeLeaving), { timeout: 30_000 }).toBe(true)
    expect(valueOf(await alice.call('team:session', { sessionId: aliceCopy }))?.openBy).toEqual([])
    // He opens it again: the same, the other way.
    const beforeOpening = alice.events.length
    valueOf(await bob.call('team:session', { sessionId: bobCopy }))
    await expect.poll(presenceFor(beforeOpening), { timeout: 30_000 }).toBe(true)
    expect(valueOf(await alice.call('team:session', { sessionId: aliceCopy }))?.openBy).toEqual(['bob'])
  }, 120_000)

  it('keeps a decision made offline on this computer and, back online, gives the conflict on its item to whoever lost the race', async () => {
    const aliceCopy = valueOf(await alice.call('recon:sessions'))[0]?.id as string
    const target = await byPayment(alice, aliceCopy, 3)
    await proxy.cut()
    try {
      await expect.poll(async () => valueOf(await alice.call('team:status'))?.line, { timeout: 30_000 }).toBe('lost')
      const offline = valueOf(await alice.call('recon:decide', { sessionId: aliceCopy, decision: { kind: 'accept', itemKey: target.key } }))
      expect(offline.waiting).toBe(1)
      const view = valueOf(await alice.call('team:session', { sessionId: aliceCopy }))
      expect(view?.waiting).toEqual([expect.objectContaining({ itemKey: target.key, what: 'Suggestion accepted' })])
      expect(valueOf(await alice.call('team:status'))?.waiting).toBe(1)
      // Meanwhile Erin, on her own computer, rejects the same suggestion straight on the server.
      const erin = await runCli(
        [
          'decide',
          '--session',
          localSession,
          '--item',
          target.key,
          'reject',
          '--server',
          `postgres://erin@127.0.0.1:${server.port}/postgres`,
          '--db',
          join(home, 'erin.sqlite')
        ],
        { PGPASSWORD: PASSWORDS.erin, HOME: home, PGPASSFILE: join(home, 'none') }
      )
      expect(erin.stdout).toMatch(/^Decided \(reject\)/)
      expect(erin.code).toBe(0)
    } finally {
      await proxy.restore()
    }
    // Back online, the app sends what waited by itself, and pulls: the server refuses it as stale, naming who changed the item and when.
    await expect
      .poll(
        async () => {
          const view = valueOf(await alice.call('team:session', { sessionId: aliceCopy }))
          return [view?.conflicts.length, view?.history.some((e) => e.author === 'erin')]
        },
        { timeout: 60_000 }
      )
      .toEqual([1, true])
    const after = valueOf(await alice.call('team:session', { sessionId: aliceCopy }))
    expect(after?.waiting).toEqual([])
    expect(after?.conflicts[0]).toMatchObject({
      itemKey: target.key,
      code: 'team_conflict',
      what: 'Suggestion accepted',
      message: expect.stringMatching(/was changed by erin at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC \(version 1\) after the version 0/)
    })
    // Erin's rejection stands for everyone: it is in the history with her name, and the suggestion is gone.
    expect(after?.history.filter((e) => e.kind === 'decision').map((e) => [e.what, e.author])).toEqual([
      ['Suggestion accepted', 'alice'],
      ['Suggestion rejected: it is not offered again', 'erin']
    ])
    expect((await byPayment(alice, aliceCopy, 3)).outcome).not.toBe('suggested')
  }, 180_000)

  it('moves through submit, return with a reason and approval, each only for whoever may, and writes the report with its sign-off', async () => {
    const aliceCopy = valueOf(await alice.call('recon:sessions'))[0]?.id as string
    const bobCopy = valueOf(await bob.call('recon:sessions'))[0]?.id as string
    const early = await bob.call('team:signOff', { sessionId: bobCopy, step: 'approve' })
    expect(early.ok ? null : early.error.code).toBe('team_state_refused')
    const submitted = valueOf(await alice.call('team:signOff', { sessionId: aliceCopy, step: 'submit' }))
    expect(submitted).toMatchObject({ state: 'submitted', may: { decide: false, submit: false } })
    expect(submitted.readOnly).toMatch(/Submitted for review: read-only to its preparers/)
    const selfApproval = await alice.call('team:signOff', { sessionId: aliceCopy, step: 'approve' })
    expect(selfApproval.ok ? null : selfApproval.error.code).toBe('team_role_refused')
    await expect
      .poll(async () => valueOf(await bob.call('team:session', { sessionId: bobCopy }))?.state, { timeout: 30_000 })
      .toBe('submitted')
    const noReason = await bob.call('team:signOff', { sessionId: bobCopy, step: 'return' })
    expect(noReason.ok ? null : noReason.error.code).toBe('reason_needed')
    const returned = valueOf(await bob.call('team:signOff', { sessionId: bobCopy, step: 'return', reason: 'Explain item 3' }))
    expect(returned).toMatchObject({ state: 'open', reviewer: 'bob' })
    await expect
      .poll(async () => valueOf(await alice.call('team:session', { sessionId: aliceCopy }))?.state, { timeout: 30_000 })
      .toBe('open')
    valueOf(await alice.call('team:signOff', { sessionId: aliceCopy, step: 'submit' }))
    await expect
      .poll(async () => valueOf(await bob.call('team:session', { sessionId: bobCopy }))?.may.approve, { timeout: 30_000 })
      .toBe(true)
    // The submission names the items alice's computer replayed; bob's computer checks its own against them.
    const inForce = valueOf(await bob.call('team:session', { sessionId: bobCopy }))?.history.findLast((e) => e.kind === 'submit')
    expect(inForce).toMatchObject({
      standing: 'in force',
      items: { count: 13, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      sameHere: true
    })
    // Items that differ on the reviewer's computer (a cache changed behind Ledgerline's back) are not approved.
    const bobCache = openCache(bob.config.paths.cacheDatabase)
    bobCache
      .prepare(`update recon_items set data = json_set(data, '$.reasons', json('["changed here"]')) where session_id = ? and position = 0`)
      .run(bobCopy)
    bobCache.close()
    const differing = await bob.call('team:signOff', { sessionId: bobCopy, step: 'approve' })
    expect(differing.ok ? null : differing.error).toMatchObject({
      code: 'team_items_differ',
      message: expect.stringMatching(/This computer replays other items \(13, SHA-256 [0-9a-f]{12}…\) than alice submitted/)
    })
    // Matched again here, the items are the submitted ones.
    await runAndWait(bob, bobCopy)
    const approved = valueOf(await bob.call('team:signOff', { sessionId: bobCopy, step: 'approve' }))
    expect(approved.history.at(-1)).toMatchObject({ kind: 'approve', items: { sha256: inForce?.items?.sha256 }, sameHere: true })
    expect(approved).toMatchObject({ state: 'approved', reviewer: 'bob', may: { comment: false, approve: false } })
    const returnedAt = approved.history.find((e) => e.kind === 'return')?.seq
    expect(approved.history.filter((e) => e.kind === 'submit').map((e) => e.standing)).toEqual([
      `superseded: returned to its preparers by bob (event ${returnedAt})`,
      'in force'
    ])
    // Locked for everyone: a local close or a decision is refused.
    const closing = await bob.call('recon:close', { sessionId: bobCopy })
    expect(closing.ok ? null : closing.error.code).toBe('team_session')

    const exported = valueOf(await bob.call('recon:export', { sessionId: bobCopy, format: 'items-csv' }))
    expect(exported.signOffFile).toMatch(/-sign-off\.csv$/)
    const signOff = readFileSync(exported.signOffFile as string, 'utf8')
    expect(signOff).toMatch(/"shared for preparation","alice"/)
    expect(signOff).toMatch(/"returned to its preparers","bob",.*"Explain item 3"/)
    expect(signOff).toMatch(new RegExp(`"approved","bob",.*"in force",13,"=""${inForce?.items?.sha256}"""`))
    expect(readFileSync(exported.file as string, 'utf8')).toMatch(/item_key/)
    // The audit trail on the server agrees with what the app showed.
    const verify = await cli('bob', 'audit', 'verify', '--session', localSession)
    expect(verify.stdout).toMatch(new RegExp(`audit trail intact, ${approved.lastSeq} event\\(s\\)`))

    // A superuser takes the approval away on the server, after alice's computer has it: the app takes nothing from that session and says why.
    await expect
      .poll(async () => valueOf(await alice.call('team:session', { sessionId: aliceCopy }))?.state, { timeout: 30_000 })
      .toBe('approved')
    await server.sql(
      `with gone as (delete from ledgerline.events where session_id = $1 and seq = (select max(seq) from ledgerline.events where session_id = $1) returning seq, prev_hash)
       update ledgerline.sessions s set last_seq = gone.seq - 1, last_hash = gone.prev_hash, state = 'submitted' from gone where s.id = $1`,
      [localSession]
    )
    const synced = valueOf(await alice.call('team:sync'))
    expect(synced.problems).toEqual([
      expect.stringMatching(/"October" .* no longer continues the history this computer read, at event \d+/)
    ])
    expect(valueOf(await alice.call('team:session', { sessionId: aliceCopy }))?.lastSeq).toBe(approved.lastSeq)
  }, 180_000)
})

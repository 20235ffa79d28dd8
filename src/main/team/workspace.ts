// The app's team workspace: one connection (its URL kept in the cache's settings, its password in the system keychain, never in SQLite, logs or the window), its doorbell kept while the app runs, and what the screens ask of it, one piece of network work at a time.
import { createHash, randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import type pg from 'pg'
import type { SharedSessionRow, SignOffStep, TeamRole, TeamSessionView, WorkspaceStatus } from '../../shared/ipc/team'
import type { Decision, ItemFilter } from '../../shared/reconcile'
import { codeIs } from '../../shared/error-codes'
import { AppError, isAppError } from '../errors'
import type { EventEmitter } from '../ipc/events'
import type { Logger } from '../log'
import { ReconService } from '../reconcile/service'
import type { ReportSignOff, SharedSessions } from '../reconcile/shared-sessions'
import type { RuleBook, WorkspaceRules } from '../reconcile/rules/book'
import { registerSecret } from '../redact'
import type { SecretStore } from '../secrets/secret-store'
import { readServerUrl, teamError, withServer, type TeamServer } from './connection'
import { Doorbell } from './doorbell'
import { myRole } from './members'
import { teamSchemaVersion } from './migrations'
import { applyWorkspaceRules, workspaceRuleBook, workspaceRules } from './rules'
import {
  dismissConflict,
  replicaConflicts,
  replicaEvents,
  replicaOfSession,
  replicaWaiting,
  TeamReplicas,
  workspaceKey,
  type Replica,
  type TeamConflict
} from './replicas'
import { decisionInWords, reportSignOff, teamEventViews } from './report'
import { addSessionEventOnce, listSharedSessions, markLeft, markSeen, sessionPresence, shareSession } from './server-sessions'
import { shareRequestOf } from './share'
import { itemsDigest, signOffPayload, type ItemsDigest } from './sign-off'

const SETTING = 'team_workspace'

/** The keychain entry a workspace login's password is kept under. */
function keychainAccount(server: TeamServer): string {
  const name = `team:${server.user}@${workspaceKey(server)}`
  return name.length <= 200 ? name : `team:${createHash('sha256').update(name).digest('hex')}`
}

export interface TeamWorkspaceOptions {
  db: Database.Database
  secrets: SecretStore
  events: EventEmitter
  log: Logger
  /** How often the doorbell's connection is checked, and its first wait before reconnecting (ms). */
  doorbell?: { heartbeatMs?: number; retryMs?: number }
}

/** What a pull or push found, for the caller to say. */
export interface SyncOutcome {
  sent: number
  refused: number
  events: number
  /** Local ids of the sessions that changed. */
  changed: string[]
  /** Local ids of the sessions whose presence (who has them open) changed. */
  presence: string[]
  /** What could not be taken, in words (an event not applied here, a session whose history changed on the server). */
  problems: string[]
}

export class TeamWorkspace implements SharedSessions, WorkspaceRules {
  private server: TeamServer | null = null
  private password: string | null = null
  private role: TeamRole | null = null
  private bell: Doorbell | null = null
  private line: { line: WorkspaceStatus['line']; problem: string | null } = { line: 'connecting', problem: null }
  private digest: { key: string; value: ItemsDigest } | null = null
  /** Who had each shared session open at the last sync (logins joined), to tell the screens when it changed. */
  private readonly presence = new Map<string, string>()
  /** Problems already said on screen, so each ring does not say them again. */
  private readonly told = new Set<string>()
  /** Network work runs one piece at a time: a pull and a push never interleave on the cache's replicas. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: TeamWorkspaceOptions) {}

  private get db(): Database.Database {
    return this.options.db
  }

  /** At start-up: the saved connection with its password from the keychain, and its doorbell. Never throws: a problem shows in the status. */
  async start(): Promise<void> {
    const saved = this.db.prepare('select value from settings where key = ?').pluck().get(SETTING) as string | undefined
    if (!saved) return
    try {
      this.server = readServerUrl((JSON.parse(saved) as { url: string }).url)
      this.password = await this.options.secrets.get(keychainAccount(this.server))
      if (this.password === null) throw new AppError('team_no_password', 'Its password is no longer in the system keychain: connect again.')
      registerSecret(this.password)
      this.startBell()
    } catch (error) {
      this.setLine('lost', error instanceof Error ? error.message : String(error))
    }
  }

  status(): WorkspaceStatus | null {
    const server = this.server
    if (!server) return null
    return {
      url: server.url,
      login: server.user,
      workspace: workspaceKey(server),
      role: this.role,
      line: this.line.line,
      problem: this.line.problem,
      waiting: new TeamReplicas(this.db, server).queued()
    }
  }

  /**
   * Connects this computer to a workspace as a login: checks the password and the membership with the
   * server and that the workspace's schema is this Ledgerline's, then keeps the URL (without the
   * password) in the cache and the password in the system keychain.
   */
  async connect(url: string, password: string): Promise<WorkspaceStatus> {
    const server = readServerUrl(url)
    registerSecret(password)
    const role = await withServer(server, (client) => checkWorkspace(client, server), password)
    await this.stopBell()
    if (this.server && keychainAccount(this.server) !== keychainAccount(server))
      await this.options.secrets.delete(keychainAccount(this.server)).catch(() => false)
    await this.options.secrets.set(keychainAccount(server), password)
    this.db
      .prepare('insert into settings (key, value) values (?, ?) on conflict (key) do update set value = excluded.value')
      .run(SETTING, JSON.stringify({ url: server.url }))
    this.server = server
    this.password = password
    this.role = role
    this.options.log.info(`team workspace: connected to ${workspaceKey(server)} as ${server.user} (${role})`)
    this.startBell()
    return this.status() as WorkspaceStatus
  }

  /** Forgets the connection and its password; sessions opened here stay on this computer, with anything still waiting to be sent. */
  async disconnect(): Promise<void> {
    const server = this.server
    await this.stopBell()
    if (server) await this.options.secrets.delete(keychainAccount(server)).catch(() => false)
    this.db.prepare('delete from settings where key = ?').run(SETTING)
    this.server = null
    this.password = null
    this.role = null
    this.line = { line: 'connecting', problem: null }
    if (server) this.options.log.info(`team workspace: disconnected from ${workspaceKey(server)}`)
    this.options.events.emit('team:status', { line: null, problem: null })
  }

  async close(): Promise<void> {
    await this.stopBell()
    await this.queue.catch(() => undefined)
  }

  // ---- the shared sessions

  async sessions(): Promise<SharedSessionRow[]> {
    const { server, replicas } = this.connected()
    const [shared, presence] = await this.withClient(
      async (client) => [await listSharedSessions(client), await sessionPresence(client)] as const
    )
    return shared.map((s) => ({
      id: s.id,
      name: s.name,
      periodFrom: s.periodFrom,
      periodTo: s.periodTo,
      state: s.state,
      preparer: s.preparer,
      reviewer: s.reviewer,
      decisions: s.decisions,
      notes: s.notes,
      openBy: (presence.get(s.id) ?? []).filter((login) => login !== server.user),
      localId: replicas.get(s.id)?.sessionId ?? null
    }))
  }

  /** Opens a shared session here (downloaded and replayed the first time, pulled after); the profile its replay lives under. */
  async open(sharedId: string): Promise<{ sessionId: string; profileId: string }> {
    const { replicas } = this.connected()
    const replica = await this.serial(() =>
      this.withClient(async (client) => {
        const { replica } = await replicas.open(client, sharedId)
        await markSeen(client, sharedId)
        return replica
      })
    )
    return { sessionId: replica.sessionId, profileId: this.profileOf(replica.sessionId) }
  }

  /** What sharing a local session sends: its name, its statement files and the provider records it reads (for the confirmation). */
  shareSummary(sessionId: string): { name: string; files: string[]; bytes: number; workspace: string } {
    const { server } = this.connected()
    const request = shareRequestOf(this.db, sessionId)
    return {
      name: request.name,
      files: request.inputs.filter((i) => i.kind === 'statement').map((i) => i.name),
      bytes: request.inputs.reduce((n, i) => n + i.bytes.byteLength, 0),
      workspace: workspaceKey(server)
    }
  }

  /** Publishes a local session (its sharer its preparer), then opens its shared copy here: the one decided from now on. */
  async share(sessionId: string): Promise<{ sessionId: string; profileId: string; sharedId: string }> {
    const { server, replicas } = this.connected()
    const request = shareRequestOf(this.db, sessionId)
    const replica = await this.serial(() =>
      this.withClient(async (client) => {
        await shareSession(client, request)
        const { replica } = await replicas.open(client, request.id)
        await markSeen(client, request.id)
        return replica
      })
    )
    this.options.log.info(`team workspace: shared session ${request.id} to ${workspaceKey(server)}`)
    return { sessionId: replica.sessionId, profileId: this.profileOf(replica.sessionId), sharedId: request.id }
  }

  // ---- one shared session

  /** A replayed session's team side as this computer has it; with the workspace reachable, it also says this member has it open and who else has. */
  async view(sessionId: string): Promise<TeamSessionView | null> {
    const replica = replicaOfSession(this.db, sessionId)
    if (!replica) return null
    const here = this.server && workspaceKey(this.server) === replica.server ? this.server : null
    let openBy: string[] = []
    // Who else has it open, when the line is up (a workspace out of reach is not waited for).
    if (here && this.password !== null && this.line.line !== 'lost') {
      try {
        openBy = await this.withClient(async (client) => {
          await markSeen(client, replica.sharedId)
          return (await sessionPresence(client)).get(replica.sharedId) ?? []
        })
      } catch (error) {
        // Offline: the session is shown as this computer has it.
        if (!isAppError(error, 'team_unreachable')) throw error
      }
    }
    return this.viewOf(replica, here, openBy)
  }

  /** This member left the session's review: the workspace stops saying they have it open (others see it at their next ring). Offline, it lapses on its own. */
  async left(sessionId: string): Promise<void> {
    const replica = replicaOfSession(this.db, sessionId)
    if (!replica || !this.server || workspaceKey(this.server) !== replica.server || this.password === null || this.line.line === 'lost')
      return
    try {
      await this.withClient((client) => markLeft(client, replica.sharedId))
    } catch (error) {
      if (!isAppError(error, 'team_unreachable')) throw error
    }
  }

  private viewOf(replica: Replica, here: TeamServer | null, openBy: readonly string[]): TeamSessionView {
    const events = replicaEvents(this.db, replica)
    const me = here?.user ?? null
    const role = here ? this.role : null
    const { state } = replica
    const decidedHere = events.some((e) => e.kind === 'decision' && e.author === me)
    const may = {
      decide: role === 'preparer' && state === 'open' && replica.readOnly === null,
      comment: role !== null && state !== 'approved' && !(role === 'preparer' && state !== 'open'),
      submit: (role === 'preparer' || role === 'admin') && state === 'open',
      approve: (role === 'reviewer' || role === 'admin') && state === 'submitted' && me !== replica.preparer && !decidedHere,
      return: (role === 'reviewer' || role === 'admin') && state === 'submitted',
      reopen: role === 'admin' && state === 'approved'
    }
    return {
      sharedId: replica.sharedId,
      workspace: replica.server,
      state,
      preparer: replica.preparer,
      reviewer: replica.reviewer,
      me,
      role,
      readOnly: may.decide ? null : readOnlyReason(replica, here, role),
      may,
      openBy: openBy.filter((login) => login !== me),
      waiting: (me === null ? [] : replicaWaiting(this.db, replica, me)).map((q) => ({
        itemKey: q.itemKey,
        what: queuedWhat(q.kind, q.payload),
        queuedAt: q.queuedAt
      })),
      conflicts: replicaConflicts(this.db, replica).map((c) => ({
        ref: c.ref,
        itemKey: c.itemKey,
        what: queuedWhat(c.kind, c.payload),
        code: c.code,
        message: c.message,
        refusedAt: c.refusedAt
      })),
      history: teamEventViews(events, this.digestHere(replica)),
      lastSeq: replica.lastSeq,
      lastHash: replica.lastHash,
      pulledAt: replica.pulledAt
    }
  }

  /** This computer's items digest of a replica once it is submitted, worked out again only when it has run again (after new events, or asked to). */
  private digestHere(replica: Replica): ItemsDigest | undefined {
    if (replica.state === 'open') return undefined
    const ran = new ReconService(this.db).sessionFacts([replica.sessionId]).get(replica.sessionId)?.lastRunAt ?? null
    const key = `${replica.sessionId}:${replica.lastSeq}:${ran}`
    if (this.digest?.key !== key) this.digest = { key, value: itemsDigest(this.db, replica.sessionId) }
    return this.digest.value
  }

  /**
   * A decision on a replayed session: queued in the outbox, then sent and the session pulled. Sent and
   * applied, the answer says nothing waits; the workspace out of reach, it waits (and the count says
   * how many do); refused, it becomes a conflict on its item and the refusal is thrown.
   */
  async decide(sessionId: string, decision: Decision): Promise<{ waiting: number }> {
    const { replica, replicas } = this.replicaHere(sessionId)
    const { ref } = replicas.queueDecision(replica, decision)
    const { waiting, refused } = await this.sendQueued(replicas, replica, [ref])
    if (refused[0]) throw new AppError(refused[0].code, refused[0].message)
    return { waiting }
  }

  /** The sign-off a replayed session's report carries, from its events as last pulled; null for a session of this computer's own. */
  reportSignOff(sessionId: string): ReportSignOff | null {
    const replica = replicaOfSession(this.db, sessionId)
    return replica ? reportSignOff(replicaEvents(this.db, replica)) : null
  }

  /** Accepts every undecided suggestion the filter shows scoring at least minScore, each its own decision through the outbox. */
  async acceptAll(sessionId: string, filter: ItemFilter, minScore: number): Promise<{ accepted: number; waiting: number }> {
    const { replica, replicas } = this.replicaHere(sessionId)
    const keys = new ReconService(this.db).suggestionKeys(sessionId, filter, minScore)
    const refs = keys.map((itemKey) => replicas.queueDecision(replica, { kind: 'accept', itemKey }).ref)
    // Each refused one is a conflict on its item; the others stand.
    const { waiting, refused } = await this.sendQueued(replicas, replica, refs)
    return { accepted: keys.length - refused.length, waiting }
  }

  /** A comment on an item (or the session): all a reviewer adds. */
  async comment(sessionId: string, itemKey: string | null, text: string): Promise<TeamSessionView> {
    const { replica, replicas } = this.replicaHere(sessionId)
    const ref = replicas.queueNote(replica, itemKey, text.trim())
    const { refused } = await this.sendQueued(replicas, replica, [ref])
    if (refused[0]) throw new AppError(refused[0].code, refused[0].message)
    return (await this.view(sessionId)) as TeamSessionView
  }

  /** Submit, approve, return or reopen: sent at once (a sign-off is not queued), then the session pulled. */
  async signOff(sessionId: string, step: SignOffStep, reason: string | undefined): Promise<TeamSessionView> {
    const { replica, replicas } = this.replicaHere(sessionId)
    if ((step === 'return' || step === 'reopen') && !reason?.trim())
      throw new AppError('reason_needed', `${step === 'return' ? 'Returning' : 'Reopening'} a session needs a reason, kept in its history.`)
    const payload = signOffPayload(this.db, replica, step, reason)
    await this.serial(() =>
      this.withClient(async (client) => {
        await addSessionEventOnce(client, randomUUID(), replica.sharedId, step, payload)
        await replicas.pull(client, replicas.require(replica.sharedId))
      })
    )
    this.options.log.info(`team workspace: ${step} of session ${replica.sharedId}`)
    return (await this.view(sessionId)) as TeamSessionView
  }

  dismissConflict(sessionId: string, ref: string): Promise<TeamSessionView> {
    const { replica } = this.replicaHere(sessionId)
    if (!dismissConflict(this.db, replica, ref)) throw new AppError('conflict_gone', 'That conflict was already let go.')
    return this.view(sessionId) as Promise<TeamSessionView>
  }

  /** Sends what waits and pulls every session opened here from this workspace; says what changed. */
  sync(): Promise<SyncOutcome> {
    const { replicas } = this.connected()
    return this.serial(() => this.withClient((client) => this.syncWith(client, replicas)))
  }

  private async syncWith(client: pg.Client, replicas: TeamReplicas): Promise<SyncOutcome> {
    const role = await myRole(client)
    if (role !== this.role) {
      // Given another role (or removed) since: what the screens offer changes with it.
      this.role = role
      this.options.events.emit('team:status', { line: this.line.line, problem: this.line.problem })
    }
    const pushed = await replicas.push(client)
    const changed = new Set(pushed.conflicts.map((c) => c.sessionId))
    const problems: string[] = []
    // A preparer's client applies the workspace's enabled rules to the open sessions it pulls.
    const rules = role === 'preparer' ? await workspaceRules(client) : []
    let events = 0
    for (const replica of replicas.list()) {
      try {
        const pulled = await replicas.pull(client, replica)
        events += pulled.events
        if (pulled.events > 0) changed.add(replica.sessionId)
        problems.push(...pulled.problems)
        if ((await applyWorkspaceRules(client, replicas, replicas.require(replica.sharedId), rules)) > 0) changed.add(replica.sessionId)
      } catch (error) {
        // One session that cannot be pulled (its history rewritten on the server) does not hold the others back.
        if (!(error instanceof AppError) || codeIs(error, 'team_unreachable')) throw error
        problems.push(error.message)
      }
    }
    // Who has each session open: a member who opened or left one rang the doorbell; the screens of the sessions whose presence changed read it again.
    const presence = await sessionPresence(client)
    const moved: string[] = []
    for (const replica of replicas.list()) {
      const now = (presence.get(replica.sharedId) ?? []).join(',')
      if (this.presence.has(replica.sharedId) && this.presence.get(replica.sharedId) !== now) moved.push(replica.sessionId)
      this.presence.set(replica.sharedId, now)
    }
    return { sent: pushed.sent, refused: pushed.conflicts.length, events, changed: [...changed], presence: moved, problems }
  }

  // ---- the workspace's rules

  /** The rules of the workspace this computer is connected to (those its shared sessions are decided by); a change rings every member's doorbell, and a preparer's next sync applies them. */
  ruleBook(workspace: string): RuleBook {
    const { server } = this.connected()
    if (workspaceKey(server) !== workspace)
      throw new AppError(
        'team_not_connected',
        `These are the sessions of the workspace ${workspace}; this computer is connected to ${workspaceKey(server)}. Connect to ${workspace} to read or change its rules.`
      )
    return workspaceRuleBook((work) => this.serial(() => this.withClient(work)), workspace)
  }

  // ---- plumbing

  private connected(): { server: TeamServer; replicas: TeamReplicas } {
    if (!this.server)
      throw new AppError(
        'team_not_connected',
        'This computer is not connected to a team workspace: connect under Profiles → Team workspace.'
      )
    return { server: this.server, replicas: new TeamReplicas(this.db, this.server) }
  }

  /** A replayed session of the workspace this computer is connected to, refused clearly otherwise. */
  private replicaHere(sessionId: string): { replica: Replica; replicas: TeamReplicas } {
    const replica = replicaOfSession(this.db, sessionId)
    if (!replica) throw new AppError('not_shared', 'This session is not shared in a team workspace.')
    const { server, replicas } = this.connected()
    if (workspaceKey(server) !== replica.server)
      throw new AppError(
        'team_not_connected',
        `This session is shared in the workspace ${replica.server}; this computer is connected to ${workspaceKey(server)}. Connect to ${replica.server} to work on it.`
      )
    return { replica, replicas }
  }

  /** Sends what waits and pulls the replica: how many still wait (the line down), and which of `refs` the server refused. */
  private async sendQueued(
    replicas: TeamReplicas,
    replica: Replica,
    refs: readonly string[]
  ): Promise<{ waiting: number; refused: TeamConflict[] }> {
    const waiting = (): number => replicaWaiting(this.db, replica, (this.server as TeamServer).user).length
    // With the line down it waits here; the doorbell sends it when the line is back.
    if (this.line.line === 'lost') return { waiting: waiting(), refused: [] }
    const outcome = await replicas.send(replica, refs, (work) => this.serial(() => this.withClient(work)))
    if (!outcome.sent) this.setLine('lost', outcome.unreachable)
    return { waiting: waiting(), refused: outcome.sent ? outcome.refused : [] }
  }

  private profileOf(sessionId: string): string {
    const facts = new ReconService(this.db).sessionFacts([sessionId]).get(sessionId)
    if (!facts) throw new AppError('session_not_found', `No reconciliation session ${sessionId}.`)
    return facts.profileId
  }

  private withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const { server } = this.connected()
    if (this.password === null)
      throw new AppError('team_no_password', `The password of ${server.user} is not in the system keychain: connect again under Profiles.`)
    return withServer(server, work, this.password)
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work)
    this.queue = next.catch(() => undefined)
    return next
  }

  private setLine(line: WorkspaceStatus['line'], problem: string | null): void {
    if (this.line.line === line && this.line.problem === problem) return
    this.line = { line, problem }
    this.options.events.emit('team:status', { line, problem })
  }

  /** One listener connection while the app runs: each ring (and each reconnect) sends what waits and pulls what is new. */
  private startBell(): void {
    const server = this.server
    if (!server || this.password === null) return
    this.setLine('connecting', null)
    const bell = new Doorbell(server, () => void this.rang(), {
      password: this.password,
      ...this.options.doorbell,
      onState: (state, why) => this.setLine(state, state === 'lost' ? (why ?? 'the connection was lost') : null)
    })
    this.bell = bell
    void bell.start()
  }

  private async rang(): Promise<void> {
    if (!this.server) return
    try {
      const outcome = await this.sync()
      if (outcome.changed.length > 0) this.options.events.emit('team:changed', { sessionIds: outcome.changed })
      if (outcome.presence.length > 0) this.options.events.emit('team:presence', { sessionIds: outcome.presence })
      this.tell(outcome.problems)
    } catch (error) {
      const e = this.server ? teamError(error, this.server) : (error as Error)
      if (isAppError(e, 'team_unreachable')) this.setLine('lost', e.message)
      else this.tell([e.message])
    }
  }

  /** Says on screen, once each, what a sync after a ring could not take (and writes it to the log). */
  private tell(problems: readonly string[]): void {
    for (const problem of problems) {
      if (this.told.has(problem)) continue
      this.told.add(problem)
      this.options.log.info(`team workspace: ${problem}`)
      this.options.events.emit('app:notice', { level: 'error', message: problem.slice(0, 2000) })
    }
  }

  private async stopBell(): Promise<void> {
    const bell = this.bell
    this.bell = null
    if (bell) await bell.stop()
  }
}

/** The caller's role, after checking that the database holds a workspace of this Ledgerline's schema. */
async function checkWorkspace(client: pg.Client, server: TeamServer): Promise<TeamRole> {
  const mine = teamSchemaVersion()
  let version: number
  try {
    version = (await client.query<{ v: number }>('select ledgerline.workspace_version() as v')).rows[0]?.v ?? 0
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === '3F000')
      throw new AppError(
        'team_no_workspace',
        `There is no Ledgerline workspace in the database ${server.database} on ${server.host}: its owner sets it up with ledgerline team setup --server …`
      )
    if (code === '42883')
      throw new AppError(
        'team_schema_old',
        `The workspace on ${workspaceKey(server)} has an older team schema than this Ledgerline (${mine}): its owner upgrades it with ledgerline team setup --server …`
      )
    throw error
  }
  if (version > mine)
    throw new AppError(
      'team_schema_too_new',
      `The workspace on ${workspaceKey(server)} was set up by a newer Ledgerline (team schema ${version}; this one knows up to ${mine}). Update Ledgerline.`
    )
  if (version < mine)
    throw new AppError(
      'team_schema_old',
      `The workspace on ${workspaceKey(server)} has team schema ${version}, older than this Ledgerline's ${mine}: its owner upgrades it with ledgerline team setup --server …`
    )
  const role = await myRole(client)
  if (role === null)
    throw new AppError(
      'team_role_refused',
      `${server.user} is not a member of the workspace on ${workspaceKey(server)}: ask its owner or an admin to add you (ledgerline team member add ${server.user} --role preparer|reviewer).`
    )
  return role
}

/** Why a member cannot decide in a session now, in words. */
function readOnlyReason(replica: Replica, here: TeamServer | null, role: TeamRole | null): string {
  if (replica.readOnly) return replica.readOnly
  if (!here) return `Not connected to its workspace ${replica.server}: connect under Profiles to work on it.`
  if (replica.state === 'approved')
    return `Approved by ${replica.reviewer ?? 'its reviewer'}: locked for everyone (an admin may reopen it with a reason).`
  if (role === 'reviewer')
    return replica.state === 'submitted'
      ? 'You review this session: comment on its items (c), then approve it or return it to its preparers with a reason.'
      : 'You review this session: you comment (c); its preparers decide, then submit it for your review.'
  if (replica.state === 'submitted') return 'Submitted for review: read-only to its preparers until a reviewer returns it or approves it.'
  if (role === 'admin') return 'As an admin you submit, approve, return or reopen; its preparers decide.'
  return `${here.user} is not a member of the workspace: its owner or an admin adds you.`
}

/** What a queued or refused event would have done, in words. */
function queuedWhat(kind: string, payload: string): string {
  if (kind === 'decision') return decisionInWords(JSON.parse(payload))
  if (kind === 'note') return `Comment: "${(JSON.parse(payload) as { text?: string }).text ?? ''}"`
  return kind
}

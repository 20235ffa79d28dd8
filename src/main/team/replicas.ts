// A session shared in a team workspace, replayed on this computer: downloaded once (its statements read as shared, its provider records as a snapshot), its events pulled after the last one it has and checked link by link, its decisions queued in the outbox and sent once, refusals kept as conflicts.
import { createHash, randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import type pg from 'pg'
import { RECON_SOURCES, RULE_VERSION, type Decision, type ReconSettings } from '../../shared/reconcile'
import { eventSubjects, type AuditEventBody, type AuditEventKind } from '../../shared/reconcile-events'
import { isErrorCode, type CallErrorCode } from '../../shared/error-codes'
import { AppError, isAppError } from '../errors'
import { appendEvent, type AuditEvent } from '../reconcile/audit'
import type { ProviderSide } from '../reconcile/provider-side'
import { ReconService } from '../reconcile/service'
import { teamError, type TeamServer } from './connection'
import {
  addSessionEventOnce,
  eventFromRow,
  eventsAfter,
  sessionDetail,
  sessionHead,
  sessionInputs,
  type SessionEvent,
  type SessionEventRow,
  type SessionEventKind,
  type SharedSession,
  type SharedSessionDetail,
  verifyChain
} from './server-sessions'
import { DECISION_KINDS, type PriorDecision, type SharedFileMeta, type ShareSettings } from './share'

const ZERO_HASH = '0'.repeat(64)

/** The item a decision about the session as a whole (an adjustment of no item) is numbered under. */
export const SESSION_ITEM = '(session)'

export interface Replica {
  /** The local session the shared one is replayed as. */
  sessionId: string
  /** The workspace: host:port/database. */
  server: string
  sharedId: string
  name: string
  ruleVersion: string
  /** Why it is read-only on this computer (shared under other matching rules), or null. */
  readOnly: string | null
  state: SharedSession['state']
  preparer: string
  reviewer: string | null
  lastSeq: number
  lastHash: string
  pulledAt: string | null
}

/** An event decided here that the server refused, kept until the user resolves it on its item. */
export interface TeamConflict {
  ref: string
  sessionId: string
  kind: string
  itemKey: string | null
  basedOn: number | null
  payload: string
  code: CallErrorCode
  message: string
  refusedAt: string
}

export interface PullOutcome {
  events: number
  decisions: number
  /** Events that could not be applied here (kept in the history, named). */
  problems: string[]
  ran: boolean
}

export interface PushOutcome {
  sent: number
  conflicts: TeamConflict[]
}

/** Runs work on a connection to the workspace: the app's (one at a time, its password from the keychain) or the CLI's own. */
export type Exchange = <T>(work: (client: pg.Client) => Promise<T>) => Promise<T>

/** What became of events made here once sent: refused ones (each a conflict on its item), or not sent (the workspace is out of reach: they wait in the outbox). */
export type SendOutcome = { sent: true; refused: TeamConflict[] } | { sent: false; unreachable: string }

/** A workspace as this cache names it: the same whoever logs in to it. */
export function workspaceKey(server: TeamServer): string {
  return `${server.host}:${server.port}/${server.database}`
}

/** A replayed file's id: the same on every computer that replays the shared session (so are its items' keys), never the sharer's own. */
export function replicaFileId(sharedId: string, fileId: string): string {
  const h = createHash('sha256').update(`ledgerline replica\u001f${sharedId}\u001f${fileId}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`
}

interface ReplicaRow {
  session_id: string
  server: string
  shared_id: string
  rule_version: string
  read_only: string | null
  state: SharedSession['state']
  preparer: string
  reviewer: string | null
  last_seq: number
  last_hash: string
  pulled_at: string | null
}

const toReplica = (r: ReplicaRow, name: string): Replica => ({
  sessionId: r.session_id,
  server: r.server,
  sharedId: r.shared_id,
  name,
  ruleVersion: r.rule_version,
  readOnly: r.read_only,
  state: r.state,
  preparer: r.preparer,
  reviewer: r.reviewer,
  lastSeq: r.last_seq,
  lastHash: r.last_hash,
  pulledAt: r.pulled_at
})

/** Replicas with their sessions' names, which reconcile keeps. */
function replicasOf(db: Database.Database, rows: readonly ReplicaRow[]): Replica[] {
  const facts = new ReconService(db).sessionFacts(rows.map((r) => r.session_id))
  return rows.map((r) => toReplica(r, facts.get(r.session_id)?.name ?? r.shared_id))
}

/** The replica a local session is, whichever workspace it came from; null for a session of this computer's own. */
export function replicaOfSession(db: Database.Database, sessionId: string): Replica | null {
  const row = db.prepare('select * from team_replicas where session_id = ?').get(sessionId) as ReplicaRow | undefined
  return row ? (replicasOf(db, [row])[0] ?? null) : null
}

/** An event queued here, not yet accepted by the server. */
export interface QueuedEvent {
  ref: string
  kind: SessionEventKind
  itemKey: string | null
  payload: string
  queuedAt: string
}

/** What a login made on this computer for a replica and waits to be sent, in the order it was made. */
export function replicaWaiting(db: Database.Database, replica: Replica, login: string): QueuedEvent[] {
  return (
    db
      .prepare('select ref, kind, item_key, payload, queued_at from team_outbox where session_id = ? and login = ? order by num')
      .all(replica.sessionId, login) as {
      ref: string
      kind: SessionEventKind
      item_key: string | null
      payload: string
      queued_at: string
    }[]
  ).map((r) => ({ ref: r.ref, kind: r.kind, itemKey: r.item_key, payload: r.payload, queuedAt: r.queued_at }))
}

/** The conflicts waiting on a replica (on one item, when named). */
export function replicaConflicts(db: Database.Database, replica: Replica, itemKey?: string): TeamConflict[] {
  const rows = db
    .prepare(`select * from team_conflicts where session_id = ? and (? is null or item_key = ?) order by refused_at, ref`)
    .all(replica.sessionId, itemKey ?? null, itemKey ?? null) as {
    ref: string
    session_id: string
    kind: string
    item_key: string | null
    based_on: number | null
    payload: string
    code: string
    message: string
    refused_at: string
  }[]
  return rows.map((r) => ({
    ref: r.ref,
    sessionId: r.session_id,
    kind: r.kind,
    itemKey: r.item_key,
    basedOn: r.based_on,
    payload: r.payload,
    // Stored from the refusal's own code: one of ours (a code no longer known is the server's error).
    code: isErrorCode(r.code) ? r.code : 'team_server_error',
    message: r.message,
    refusedAt: r.refused_at
  }))
}

/** Resolves a conflict by letting the refused event go (decide again on the item as it is now, if still wanted). */
export function dismissConflict(db: Database.Database, replica: Replica, ref: string): boolean {
  return db.prepare('delete from team_conflicts where ref = ? and session_id = ?').run(ref, replica.sessionId).changes > 0
}

/** The shared session's events as this computer has them. */
export function replicaEvents(db: Database.Database, replica: Replica): SessionEvent[] {
  return (
    db
      .prepare(
        'select seq, kind, item_key, based_on, payload, author, at, prev_hash, hash from team_events where session_id = ? order by seq'
      )
      .all(replica.sessionId) as SessionEventRow[]
  ).map(eventFromRow)
}

/** The refusals a pushed event comes back with as a conflict; anything else (the network) leaves it queued. */
const REFUSED = new Set(['team_role_refused', 'team_state_refused', 'team_duties_refused', 'team_conflict'])

export class TeamReplicas {
  private readonly key: string

  constructor(
    readonly db: Database.Database,
    private readonly server: TeamServer,
    private readonly now: () => Date = () => new Date()
  ) {
    this.key = workspaceKey(server)
  }

  list(): Replica[] {
    const rows = this.db.prepare('select * from team_replicas where server = ?').all(this.key) as ReplicaRow[]
    return replicasOf(this.db, rows).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  get(sharedId: string): Replica | null {
    const row = this.db.prepare('select * from team_replicas where server = ? and shared_id = ?').get(this.key, sharedId) as
      ReplicaRow | undefined
    return row ? (replicasOf(this.db, [row])[0] ?? null) : null
  }

  /** The replica of a shared session, refused clearly when this computer has not opened it. */
  require(sharedId: string): Replica {
    const replica = this.get(sharedId)
    if (!replica)
      throw new AppError('team_not_synced', `Session ${sharedId} has not been opened on this computer yet: run team sync first.`)
    return replica
  }

  /**
   * Opens a shared session here: its statements read exactly as shared (with the ids every replay
   * gives them), its provider records as a snapshot, its decisions made before sharing, then its
   * events pulled and the session run. Does nothing more than pull when it is open already.
   */
  async open(client: pg.Client, sharedId: string): Promise<{ replica: Replica; created: boolean; pulled: PullOutcome }> {
    const known = this.get(sharedId)
    if (known) return { replica: known, created: false, pulled: await this.pull(client, known) }
    const detail = await sessionDetail(client, sharedId)
    if (!detail) throw new AppError('team_state_refused', `There is no shared session ${sharedId} in this workspace.`)
    const settings = readShareSettings(detail)
    const inputs = await sessionInputs(client, sharedId)
    for (const input of inputs)
      if (createHash('sha256').update(input.bytes).digest('hex') !== input.sha256)
        throw new AppError(
          'team_replay_failed',
          `${input.name} arrived with another SHA-256 than it was shared with: open the session again.`
        )
    const snapshot = inputs.find((i) => i.kind === 'provider_records')
    if (!snapshot) throw new AppError('team_replay_failed', `Session "${detail.name}" was shared without its provider records.`)
    const side = readProviderSide(snapshot.bytes, snapshot.name)
    const profileId = this.teamProfile(settings.mode)
    // Imported and created as the sharer did, at the time it was shared: the same on every computer.
    const service = new ReconService(this.db, { user: detail.preparer, now: () => new Date(detail.sharedAt) })
    // The sharer's file ids and the ids they are replayed under.
    const renames = new Map<string, string>()
    for (const input of inputs.filter((i) => i.kind === 'statement')) {
      const meta = readFileMeta(input.meta, input.name)
      const ids = meta.statements.map((s) => replicaFileId(sharedId, s.id))
      meta.statements.forEach((s, i) => renames.set(s.id, ids[i] as string))
      const have = service.storedStatements(ids)
      if (have.length === ids.length) continue
      if (have.length > 0)
        throw new AppError(
          'team_replay_failed',
          `${input.name} was read here only in part before: remove the session's files and open it again.`
        )
      const outcome = await service.importStatement({
        profileId,
        name: input.name,
        bytes: input.bytes,
        mapping: meta.mapping,
        ifSameFile: 'import-again',
        ifSameRows: 'keep',
        idOf: (s) => {
          const at = meta.statements.findIndex((m) => m.account === s.account && m.label === s.label)
          return at < 0 ? undefined : ids[at]
        }
      })
      const stored = outcome.status === 'imported' ? new Set(outcome.files.map((f) => f.id)) : new Set<string>()
      const missing = meta.statements.filter((_, i) => !stored.has(ids[i] as string))
      if (missing.length > 0)
        throw new AppError(
          'team_replay_failed',
          `${input.name} does not read here as it was shared: ${missing.map((m) => m.label ?? m.account ?? 'its statement').join(', ')} not found (${outcome.status}).`
        )
    }
    const session = service.createSession({
      profileId,
      name: detail.name,
      source: settings.source,
      filter: settings.filter,
      from: detail.periodFrom as string,
      to: detail.periodTo as string,
      timeZone: settings.timeZone,
      settings: settings.settings,
      fileIds: [...renames.values()],
      account: settings.account ?? undefined,
      replay: true
    })
    const readOnly =
      detail.ruleVersion === RULE_VERSION
        ? null
        : `It was shared under matching rules ${detail.ruleVersion}; this Ledgerline has ${RULE_VERSION}, so its items here may differ from every other member's. It is read-only on this computer: use the Ledgerline it was shared with to decide.`
    this.db.transaction(() => {
      service.keepProviderSnapshot(session.id, side)
      this.db
        .prepare(
          `insert into team_replicas (session_id, server, shared_id, rule_version, read_only, state, preparer, reviewer, last_seq, last_hash)
           values (?, ?, ?, ?, ?, 'open', ?, null, 0, ?)`
        )
        .run(session.id, this.key, sharedId, detail.ruleVersion, readOnly, detail.preparer, ZERO_HASH)
      service.linkShared(session.id, this.key, sharedId)
      this.replayPrior(session.id, detail.preparer, settings.priorDecisions, renames)
    })()
    const replica = this.require(sharedId)
    const pulled = await this.pull(client, replica, true)
    return { replica: this.require(sharedId), created: true, pulled }
  }

  /** Decisions made before the session was shared, as its sharer's computer kept them: file ids as replayed, undos naming the events as numbered here. */
  private replayPrior(sessionId: string, preparer: string, prior: PriorDecision[], renames: ReadonlyMap<string, string>): void {
    const seqs = new Map<number, number>()
    for (const d of prior) {
      let text = JSON.stringify({ kind: d.kind, payload: d.payload })
      for (const [from, to] of renames) text = text.split(from).join(to)
      const body = readDecisionBody(JSON.parse(text), (n) => seqs.get(n))
      if (typeof body === 'string') throw new AppError('team_replay_failed', `A decision made before sharing could not be read: ${body}.`)
      const event = appendEvent(this.db, sessionId, body, () => new Date(d.at), `${preparer} (before sharing)`)
      seqs.set(d.seq, event.seq)
    }
  }

  /**
   * Pulls the events after the last one this computer has, each checked to continue the chain it
   * read (so a history rewritten on the server is found, not taken), and applies the decisions among
   * them as this computer's own would be: in place when each can be, else by running the session (or
   * when `run` is asked). Either way the items are what a full run of the same events makes.
   */
  async pull(client: pg.Client, replica: Replica, run = false): Promise<PullOutcome> {
    const head = await sessionHead(client, replica.sharedId)
    if (!head) throw this.rewritten(replica, replica.lastSeq, 'the session is gone from the workspace')
    if (head.lastSeq < replica.lastSeq || (head.lastSeq === replica.lastSeq && head.lastHash !== replica.lastHash))
      throw this.rewritten(
        replica,
        Math.min(head.lastSeq + 1, replica.lastSeq),
        'events this computer read are no longer there as they were'
      )
    const events = head.lastSeq === replica.lastSeq ? [] : await eventsAfter(client, replica.sharedId, replica.lastSeq)
    const check = verifyChain(events, { seq: replica.lastSeq, hash: replica.lastHash })
    if (check.firstBad) throw this.rewritten(replica, check.firstBad.seq, check.firstBad.problem)
    const last = events[events.length - 1]
    const prev = last ? { seq: last.seq, hash: last.hash } : { seq: replica.lastSeq, hash: replica.lastHash }
    const problems: string[] = []
    const kept: { body: AuditEventBody; event: AuditEvent }[] = []
    let inPlace = false
    this.db.transaction(() => {
      const insert = this.db.prepare(
        `insert into team_events (session_id, seq, kind, item_key, based_on, payload, author, at, prev_hash, hash, local_seq)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      )
      const localOf = this.db.prepare('select local_seq from team_events where session_id = ? and seq = ?').pluck()
      let { state, reviewer } = replica
      for (const e of events) {
        let localSeq: number | null = null
        if (e.kind === 'decision') {
          const body = readDecisionBody(
            (JSON.parse(e.payload) as { body?: unknown }).body,
            (n) => (localOf.get(replica.sessionId, n) as number | null | undefined) ?? undefined
          )
          if (typeof body === 'string') problems.push(`Event ${e.seq} by ${e.author} at ${e.at} could not be applied here: ${body}.`)
          else {
            const event = appendEvent(this.db, replica.sessionId, body, () => new Date(e.at), e.author)
            kept.push({ body, event })
            localSeq = event.seq
          }
        }
        if (e.kind === 'submit') state = 'submitted'
        if (e.kind === 'approve') [state, reviewer] = ['approved', e.author]
        if (e.kind === 'return') [state, reviewer] = ['open', e.author]
        if (e.kind === 'reopen') state = 'open'
        insert.run(replica.sessionId, e.seq, e.kind, e.itemKey, e.basedOn, e.payload, e.author, e.at, e.prevHash, e.hash, localSeq)
      }
      this.db
        .prepare('update team_replicas set state = ?, reviewer = ?, last_seq = ?, last_hash = ?, pulled_at = ? where session_id = ?')
        .run(state, reviewer, prev.seq, prev.hash, this.now().toISOString(), replica.sessionId)
      // The workspace's approval is the lock of the period, as a close is on one computer.
      if (state !== replica.state)
        new ReconService(this.db).setApproved(
          replica.sessionId,
          state === 'approved' ? (events.findLast((e) => e.kind === 'approve')?.at ?? this.now().toISOString()) : null
        )
      inPlace = !run && kept.length > 0 && new ReconService(this.db).applyKept(replica.sessionId, kept)
    })()
    const decisions = kept.length
    const ran = run || (decisions > 0 && !inPlace)
    // The run is this computer's replay, not a decision: its history names the member whose computer made it.
    if (ran) await new ReconService(this.db, { user: `${this.server.user} (replayed on this computer)` }).run(replica.sessionId)
    return { events: events.length, decisions, problems, ran }
  }

  private rewritten(replica: Replica, seq: number, how: string): AppError {
    return new AppError(
      'team_history_changed',
      `Session "${replica.name}" (${replica.sharedId}) on the workspace no longer continues the history this computer read, at event ${seq}: ${how}. Nothing was taken from it; ask the workspace owner, and run audit verify --server … --session ${replica.sharedId}.`
    )
  }

  /** An item's version as this computer knows it: decisions on it the server has accepted, and those this login queued here before this one. */
  itemVersion(replica: Replica, itemKey: string): number {
    const accepted = this.db
      .prepare("select count(*) from team_events where session_id = ? and item_key = ? and kind = 'decision'")
      .pluck()
      .get(replica.sessionId, itemKey) as number
    const queued = this.db
      .prepare("select count(*) from team_outbox where session_id = ? and item_key = ? and kind = 'decision' and login = ?")
      .pluck()
      .get(replica.sessionId, itemKey, this.server.user) as number
    return accepted + queued
  }

  /** Queues a decision on the replica's last run, based on the item as this computer has it (or the version given); sent by push. */
  queueDecision(replica: Replica, decision: Decision, version?: number): { ref: string; itemKey: string; basedOn: number } {
    if (replica.readOnly) throw new AppError('team_read_only', replica.readOnly)
    return this.queueBody(replica, new ReconService(this.db).decisionBody(replica.sessionId, decision), version)
  }

  /** Queues a decision's event as made (a rule's application is made by the rule, not asked for on an item). */
  queueBody(replica: Replica, body: AuditEventBody, version?: number): { ref: string; itemKey: string; basedOn: number } {
    if (replica.readOnly) throw new AppError('team_read_only', replica.readOnly)
    if (body.kind === 'undo') {
      const teamSeq = this.db
        .prepare('select seq from team_events where session_id = ? and local_seq = ?')
        .pluck()
        .get(replica.sessionId, body.payload.undoes) as number | undefined
      if (teamSeq === undefined)
        throw new AppError(
          'team_state_refused',
          'The last decision was made before the session was shared: it cannot be undone through the workspace.'
        )
      body.payload = { ...body.payload, undoes: teamSeq }
    }
    const itemKey = eventSubjects(body).itemKey ?? SESSION_ITEM
    const basedOn = version ?? this.itemVersion(replica, itemKey)
    return { ref: this.queue(replica, 'decision', itemKey, basedOn, { body }), itemKey, basedOn }
  }

  /** Queues a comment, on an item or on the session. */
  queueNote(replica: Replica, itemKey: string | null, text: string): string {
    return this.queue(replica, 'note', itemKey, null, { text })
  }

  private queue(replica: Replica, kind: SessionEventKind, itemKey: string | null, basedOn: number | null, payload: object): string {
    const ref = randomUUID()
    this.db
      .prepare(
        'insert into team_outbox (ref, session_id, kind, item_key, based_on, payload, queued_at, login) values (?, ?, ?, ?, ?, ?, ?, ?)'
      )
      .run(ref, replica.sessionId, kind, itemKey, basedOn, JSON.stringify(payload), this.now().toISOString(), this.server.user)
    return ref
  }

  queued(): number {
    return this.db
      .prepare('select count(*) from team_outbox o join team_replicas t on t.session_id = o.session_id where t.server = ? and o.login = ?')
      .pluck()
      .get(this.key, this.server.user) as number
  }

  /**
   * Sends the events this login queued, in the order they were made, each at most once (the server
   * knows its reference); another login's wait for that login. One the server refuses becomes a
   * conflict; a dropped connection leaves the rest queued.
   */
  /**
   * The one way what a member made here (decisions, notes) reaches the workspace, in the app and the CLI alike: everything
   * that waits is sent, the replica pulled (its decisions applied as the server ordered them), and the refusals of
   * `refs` (those just made) returned; out of reach, they wait.
   */
  async send(replica: Replica, refs: readonly string[], exchange: Exchange): Promise<SendOutcome> {
    const mine = new Set(refs)
    try {
      const refused = await exchange(async (client) => {
        const pushed = await this.push(client)
        await this.pull(client, this.require(replica.sharedId))
        return pushed.conflicts.filter((c) => mine.has(c.ref))
      })
      return { sent: true, refused }
    } catch (error) {
      if (isAppError(error, 'team_unreachable')) return { sent: false, unreachable: error.message }
      throw error
    }
  }

  async push(client: pg.Client): Promise<PushOutcome> {
    const rows = this.db
      .prepare(
        `select o.*, t.shared_id from team_outbox o join team_replicas t on t.session_id = o.session_id where t.server = ? and o.login = ? order by o.num`
      )
      .all(this.key, this.server.user) as {
      ref: string
      session_id: string
      shared_id: string
      kind: SessionEventKind
      item_key: string | null
      based_on: number | null
      payload: string
      queued_at: string
    }[]
    const conflicts: TeamConflict[] = []
    let sent = 0
    for (const row of rows) {
      try {
        await addSessionEventOnce(
          client,
          row.ref,
          row.shared_id,
          row.kind,
          JSON.parse(row.payload) as Record<string, unknown>,
          row.item_key === null ? null : { key: row.item_key, basedOn: row.based_on }
        )
        this.db.prepare('delete from team_outbox where ref = ?').run(row.ref)
        sent++
      } catch (error) {
        const refusal = teamError(error, this.server)
        if (!REFUSED.has(refusal.code)) throw refusal
        // A rule's application on an item another member decided first is no conflict: their decision stands, and the
        // rules are tried again on the session as pulled.
        if (refusal.code === 'team_conflict' && ruleApplied(row.payload)) {
          this.db.prepare('delete from team_outbox where ref = ?').run(row.ref)
          continue
        }
        const conflict: TeamConflict = {
          ref: row.ref,
          sessionId: row.session_id,
          kind: row.kind,
          itemKey: row.item_key,
          basedOn: row.based_on,
          payload: row.payload,
          code: refusal.code,
          message: refusal.message,
          refusedAt: this.now().toISOString()
        }
        this.db.transaction(() => {
          this.db
            .prepare(
              `insert into team_conflicts (ref, session_id, kind, item_key, based_on, payload, queued_at, code, message, refused_at)
               values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
            )
            .run(
              row.ref,
              row.session_id,
              row.kind,
              row.item_key,
              row.based_on,
              row.payload,
              row.queued_at,
              conflict.code,
              conflict.message,
              conflict.refusedAt
            )
          this.db.prepare('delete from team_outbox where ref = ?').run(row.ref)
        })()
        conflicts.push(conflict)
      }
    }
    return { sent, conflicts }
  }

  /** The local profile a workspace's sessions of one mode are kept under: no API key, test and live apart. */
  private teamProfile(mode: 'test' | 'live'): string {
    const id = `team-${createHash('sha256').update(`${this.key}\u001f${mode}`).digest('hex').slice(0, 16)}`
    this.db
      .prepare(
        'insert into profiles (id, name, base_url, mode, built_in, created_at, team_workspace) values (?, ?, null, ?, 0, ?, ?) on conflict (id) do nothing'
      )
      .run(id, `Team ${this.server.database} on ${this.server.host} (${mode})`, mode, this.now().toISOString(), this.key)
    return id
  }
}

/** A shared session's settings as the server holds them, checked: the server is another's, its rows are not trusted blindly. */
function readShareSettings(detail: SharedSessionDetail): ShareSettings {
  const s = detail.settings as Partial<ShareSettings> | null
  const bad = (what: string): AppError =>
    new AppError('team_replay_failed', `Session "${detail.name}" cannot be replayed here: its ${what} is not one Ledgerline reads.`)
  if (typeof s !== 'object' || s === null) throw bad('settings')
  if (!RECON_SOURCES.includes(s.source as (typeof RECON_SOURCES)[number])) throw bad('provider side')
  if (typeof s.timeZone !== 'string') throw bad('time zone')
  if (s.mode !== 'test' && s.mode !== 'live') throw bad('mode (test or live)')
  if (typeof s.settings !== 'object' || s.settings === null) throw bad('matching settings')
  if (!Array.isArray(s.priorDecisions)) throw bad('decisions made before sharing')
  if (detail.periodFrom === null || detail.periodTo === null) throw bad('period')
  return {
    source: s.source as ShareSettings['source'],
    filter: typeof s.filter === 'object' && s.filter !== null ? s.filter : {},
    timeZone: s.timeZone,
    settings: s.settings as ReconSettings,
    mode: s.mode,
    priorDecisions: s.priorDecisions,
    // Shares before sessions were of an account carry none.
    account: typeof s.account === 'string' && s.account.trim() !== '' ? s.account : null
  }
}

function readFileMeta(meta: unknown, name: string): SharedFileMeta {
  const m = meta as Partial<SharedFileMeta> | null
  if (
    typeof m !== 'object' ||
    m === null ||
    typeof m.mapping !== 'object' ||
    !Array.isArray(m.statements) ||
    m.statements.length === 0 ||
    !m.statements.every((s) => typeof s.id === 'string')
  )
    throw new AppError(
      'team_replay_failed',
      `${name} was shared without how it was read (its mapping and statements): share the session again.`
    )
  return m as SharedFileMeta
}

function readProviderSide(bytes: Buffer, name: string): ProviderSide {
  let side: Partial<ProviderSide>
  try {
    side = JSON.parse(bytes.toString('utf8')) as Partial<ProviderSide>
  } catch {
    throw new AppError('team_replay_failed', `${name}, the provider records shared with the session, is not JSON.`)
  }
  const ok =
    Array.isArray(side.records) &&
    side.records.every(
      (r) => typeof r.id === 'string' && Number.isSafeInteger(r.amountMinor) && typeof r.currency === 'string' && typeof r.day === 'string'
    )
  if (!ok)
    throw new AppError('team_replay_failed', `${name}, the provider records shared with the session, are not records Ledgerline reads.`)
  return { records: side.records as ProviderSide['records'], unreadable: Number(side.unreadable ?? 0), notes: side.notes ?? [] }
}

/** Whether a queued event is a rule's application. */
function ruleApplied(payload: string): boolean {
  return (JSON.parse(payload) as { body?: { kind?: unknown } }).body?.kind === 'rule'
}

/** What each decision kind's payload must hold to be applied. */
const FIELDS: Partial<Record<AuditEventKind, Record<string, 'string' | 'number' | 'boolean' | 'strings'>>> = {
  accept: { providerIds: 'strings', fileIds: 'strings', itemKey: 'string' },
  reject: { providerIds: 'strings', fileIds: 'strings', itemKey: 'string' },
  unmatch: { providerIds: 'strings', fileIds: 'strings', itemKey: 'string' },
  match: { providerIds: 'strings', fileIds: 'strings', itemKey: 'string', replaces: 'strings' },
  note: { itemKey: 'string', note: 'string' },
  reason: { itemKey: 'string', code: 'string' },
  resolve: { itemKey: 'string', resolved: 'boolean' },
  adjust: { currency: 'string', amountMinor: 'number', amount: 'string', reason: 'string' },
  undo: { undoes: 'number', kind: 'string' },
  fix: {
    itemKey: 'string',
    lineId: 'string',
    fileId: 'string',
    line: 'number',
    date: 'string',
    amount: 'string',
    amountMinor: 'number',
    currency: 'string'
  },
  exclude: { itemKey: 'string', fileId: 'string', line: 'number', reason: 'string' },
  rule: {
    itemKey: 'string',
    providerIds: 'strings',
    fileIds: 'strings',
    name: 'string',
    version: 'number',
    action: 'string',
    reasonCode: 'string',
    note: 'string'
  }
}

/** A decision event's body as sent, checked field by field; an undo's `undoes` read through `localSeq` (the event it names, as numbered here). A string says what is wrong. */
export function readDecisionBody(value: unknown, localSeq: (seq: number) => number | undefined): AuditEventBody | string {
  const body = value as { kind?: unknown; payload?: Record<string, unknown> } | null
  if (typeof body !== 'object' || body === null || typeof body.kind !== 'string') return 'it names no decision'
  const kind = body.kind as AuditEventKind
  const fields = DECISION_KINDS.has(kind) ? FIELDS[kind] : undefined
  if (!fields) return `"${body.kind.slice(0, 40)}" is not a decision this Ledgerline knows`
  const payload = body.payload
  if (typeof payload !== 'object' || payload === null) return `its ${kind} holds nothing`
  for (const [field, type] of Object.entries(fields)) {
    const v = payload[field]
    const fits =
      type === 'strings'
        ? Array.isArray(v) && v.every((x) => typeof x === 'string')
        : type === 'number'
          ? Number.isSafeInteger(v)
          : typeof v === type
    if (!fits) return `its ${kind} has no ${field}`
  }
  if (kind === 'undo') {
    const local = localSeq(payload.undoes as number)
    if (local === undefined) return `its undo names event ${String(payload.undoes)}, which was not applied here`
    return { kind, payload: { ...(payload as AuditEventBody['payload']), undoes: local } } as AuditEventBody
  }
  return { kind, payload } as AuditEventBody
}

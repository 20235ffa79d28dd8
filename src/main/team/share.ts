// What a local session shares with a workspace: each statement file once, exactly as imported, with how it was read; the provider records its run reads, as a snapshot; its settings; and the decisions made before it was shared, so a member replays the same session.
import type Database from 'better-sqlite3'
import { RULE_VERSION, type ReconSettings, type ReconSource, type SessionInfo, type StatementMapping } from '../../shared/reconcile'
import { UNDOABLE_KINDS, type AuditEventKind } from '../../shared/reconcile-events'
import { AppError } from '../errors'
import { ReconService } from '../reconcile/service'
import type { SessionInput, ShareRequest } from './server-sessions'

/** How a shared statement file was read: its mapping, and the statements of it the session holds (by their id here). */
export interface SharedFileMeta {
  mapping: StatementMapping
  statements: { id: string; account: string | null; label: string | null }[]
}

/** A decision made before the session was shared, as the local audit trail holds it. */
export interface PriorDecision {
  seq: number
  kind: AuditEventKind
  payload: unknown
  user: string
  at: string
}

/** A shared session's settings: what a member needs besides its files to replay it. */
export interface ShareSettings {
  source: ReconSource
  filter: SessionInfo['filter']
  timeZone: string
  settings: ReconSettings
  /** Test or live: a replay keeps the two apart as the sharer did. */
  mode: 'test' | 'live'
  priorDecisions: PriorDecision[]
  /** The account the sharer named the session for (its statements state none): a replay is of the same account, so its periods chain alike. */
  account: string | null
}

/** Kinds of local event that decide something (and undo, which takes a decision back). */
export const DECISION_KINDS: ReadonlySet<AuditEventKind> = new Set<AuditEventKind>([...UNDOABLE_KINDS, 'undo'])

/** The share of a local session; refuses a session that is itself replayed from a workspace. */
export function shareRequestOf(db: Database.Database, sessionId: string): ShareRequest {
  const service = new ReconService(db)
  if (service.replayed(sessionId))
    throw new AppError('team_state_refused', 'This session is replayed from a workspace already; it is shared there.')
  const { session, statements, providerRecords } = service.inputs(sessionId)
  const mode = db.prepare('select mode from profiles where id = ?').pluck().get(session.profileId) as 'test' | 'live'
  // Each file once (a workbook may give the session two statements), under a name unique in the session.
  const files = new Map<string, { name: string; bytes: Uint8Array; meta: SharedFileMeta }>()
  const names = new Set<string>()
  statements.forEach((s, i) => {
    const info = session.files[i] as SessionInfo['files'][number]
    const statement = { id: info.id, account: info.account, label: info.statement }
    const known = files.get(s.sha256)
    if (known) {
      known.meta.statements.push(statement)
      return
    }
    let name = s.name
    for (let n = 2; names.has(name); n++) name = `${s.name} (${n})`
    names.add(name)
    files.set(s.sha256, { name, bytes: s.bytes, meta: { mapping: info.mapping, statements: [statement] } })
  })
  const priorDecisions: PriorDecision[] = service
    .events(sessionId)
    .filter((e) => DECISION_KINDS.has(e.kind))
    .map((e) => ({ seq: e.seq, kind: e.kind, payload: e.payload, user: e.user, at: e.at }))
  const settings: ShareSettings = {
    source: session.source,
    filter: session.filter,
    timeZone: session.timeZone,
    settings: session.settings,
    mode,
    priorDecisions,
    account: session.account.namedBy === 'user' ? session.account.name : null
  }
  const inputs: SessionInput[] = [
    ...[...files.values()].map((f) => ({ kind: 'statement' as const, name: f.name, bytes: f.bytes, meta: { ...f.meta } })),
    { kind: 'provider_records', name: `${session.source}.json`, bytes: providerRecords }
  ]
  return {
    id: session.id,
    name: session.name,
    periodFrom: session.from,
    periodTo: session.to,
    ruleVersion: RULE_VERSION,
    settings: { ...settings },
    inputs
  }
}

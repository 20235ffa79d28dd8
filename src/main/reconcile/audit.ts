// The audit trail: every decision an append-only event, chained by SHA-256 over the previous one, so an edited, removed or reordered row is found.
import type Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import { userInfo } from 'node:os'
import type { AuditEntry, AuditEventBody } from '../../shared/reconcile-events'

export const GENESIS = '0'.repeat(64)

/** An event as stored: its session, and its place in the chain. */
export type AuditEvent = AuditEntry & { sessionId: string; prevHash: string; hash: string }

/** What an event's hash covers (any kind: a stored row is checked before its kind is trusted). */
interface Hashed {
  sessionId: string
  seq: number
  at: string
  user: string
  kind: string
  payload: unknown
  prevHash: string
}

/** The OS user name: who made a decision, as the computer knows them. */
export function osUserName(): string {
  try {
    return userInfo().username || process.env['USER'] || process.env['USERNAME'] || 'unknown'
  } catch {
    return process.env['USER'] ?? process.env['USERNAME'] ?? 'unknown'
  }
}

/** JSON with keys sorted at every level: the same event always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}

export function eventHash(event: Hashed): string {
  const body = canonicalJson({
    session: event.sessionId,
    seq: event.seq,
    at: event.at,
    user: event.user,
    kind: event.kind,
    payload: event.payload
  })
  return createHash('sha256').update(`${event.prevHash}\n${body}`).digest('hex')
}

interface EventRow {
  session_id: string
  seq: number
  at: string
  user: string
  kind: string
  payload: string
  prev_hash: string
  hash: string
}

/** A stored row as the event it holds: the payload was written from the kind's type, and the chain shows it was not changed. */
const fromRow = (r: EventRow): AuditEvent =>
  ({
    sessionId: r.session_id,
    seq: r.seq,
    at: r.at,
    user: r.user,
    kind: r.kind,
    payload: JSON.parse(r.payload) as unknown,
    prevHash: r.prev_hash,
    hash: r.hash
  }) as AuditEvent

/**
 * Appends one event to a session's chain and moves the session's head, in the caller's transaction
 * when there is one. Returns the stored event.
 */
export function appendEvent(
  db: Database.Database,
  sessionId: string,
  body: AuditEventBody,
  now: () => Date = () => new Date(),
  user = osUserName()
): AuditEvent {
  return db.transaction(() => {
    const head = db.prepare('select head_hash as hash, event_count as count from recon_sessions where id = ?').get(sessionId) as
      { hash: string; count: number } | undefined
    if (!head) throw new Error(`No reconciliation session ${sessionId}`)
    // The payload as it will read back (JSON drops what JSON cannot hold), so the hash covers what is stored.
    const partial = {
      sessionId,
      seq: head.count + 1,
      at: now().toISOString(),
      user,
      ...({ kind: body.kind, payload: JSON.parse(JSON.stringify(body.payload)) as unknown } as AuditEventBody),
      prevHash: head.hash
    }
    const event: AuditEvent = { ...partial, hash: eventHash(partial) }
    db.prepare('insert into recon_events (session_id, seq, at, user, kind, payload, prev_hash, hash) values (?, ?, ?, ?, ?, ?, ?, ?)').run(
      sessionId,
      event.seq,
      event.at,
      event.user,
      event.kind,
      canonicalJson(event.payload),
      event.prevHash,
      event.hash
    )
    db.prepare('update recon_sessions set head_hash = ?, event_count = ? where id = ?').run(event.hash, event.seq, sessionId)
    return event
  })()
}

/** The hash of the session's last event (the head of its chain): it changes with every event kept. */
export function sessionHead(db: Database.Database, sessionId: string): string | null {
  return (db.prepare('select head_hash from recon_sessions where id = ?').pluck().get(sessionId) as string | undefined) ?? null
}

export function sessionEvents(db: Database.Database, sessionId: string): AuditEvent[] {
  return (db.prepare('select * from recon_events where session_id = ? order by seq').all(sessionId) as EventRow[]).map(fromRow)
}

/** Per database, the events of the session last read through sessionEventsKept. */
const KEPT = new WeakMap<Database.Database, { sessionId: string; events: AuditEvent[] }>()

/**
 * A session's events, as sessionEvents reads them, kept between calls so a decision reads only those added since: the
 * chain is only added to, and the last one kept is checked to be there still (a restored cache is read again whole).
 * The array is shared: read it, never change it.
 */
export function sessionEventsKept(db: Database.Database, sessionId: string): readonly AuditEvent[] {
  let kept = KEPT.get(db)
  const last = kept?.sessionId === sessionId ? kept.events.at(-1) : undefined
  const still =
    kept?.sessionId === sessionId &&
    (last === undefined ||
      db.prepare('select hash from recon_events where session_id = ? and seq = ?').pluck().get(sessionId, last.seq) === last.hash)
  if (!kept || !still) KEPT.set(db, (kept = { sessionId, events: [] }))
  const from = kept.events.at(-1)?.seq ?? 0
  for (const row of db
    .prepare('select * from recon_events where session_id = ? and seq > ? order by seq')
    .all(sessionId, from) as EventRow[])
    kept.events.push(fromRow(row))
  return kept.events
}

export interface AuditProblem {
  sessionId: string
  seq: number | null
  message: string
}

export interface AuditReport {
  ok: boolean
  sessions: number
  events: number
  problems: AuditProblem[]
}

/**
 * Walks every session's chain: each event's hash must be what its content and the previous hash
 * give, the sequence must have no gap, and the session's stored head must be the last event's hash.
 */
export function verifyAudit(db: Database.Database, sessionId?: string): AuditReport {
  const sessions = (
    sessionId
      ? db.prepare('select id, head_hash, event_count from recon_sessions where id = ?').all(sessionId)
      : db.prepare('select id, head_hash, event_count from recon_sessions order by created_at, id').all()
  ) as {
    id: string
    head_hash: string
    event_count: number
  }[]
  const problems: AuditProblem[] = []
  let events = 0
  for (const session of sessions) {
    const rows = db.prepare('select * from recon_events where session_id = ? order by seq').all(session.id) as EventRow[]
    events += rows.length
    problems.push(
      ...chainProblems(
        session.id,
        rows.map((r) => ({ seq: r.seq, at: r.at, user: r.user, kind: r.kind, payload: r.payload, prevHash: r.prev_hash, hash: r.hash })),
        { hash: session.head_hash, count: session.event_count }
      )
    )
  }
  return { ok: problems.length === 0, sessions: sessions.length, events, problems }
}

/** An event as a trail holds it: its payload as stored text (from the cache) or as read back (from an evidence pack). */
export type ChainLink = Omit<Hashed, 'sessionId'> & { hash: string }

/** Where a walk over a hash chain found a link that does not fit, and how. */
export interface ChainBreak<L> {
  link: L
  /** gap: `expectedSeq` is missing; unlinked: prevHash is not the hash before; changed: the content hashes otherwise; unreadable: it cannot be hashed. */
  kind: 'gap' | 'unlinked' | 'changed' | 'unreadable'
  expectedSeq: number
}

/**
 * The one walk over a hash chain, for the cache's audit trail and a team workspace's events alike (each with its own hash
 * encoding, `hashOf`, which throws when a link's content cannot be read): numbered on from `from` with no gap, each
 * linked to the hash before it, each hashing to what it says. Every break is returned, in order, and where the walk ended.
 */
export function walkChain<L extends { seq: number; prevHash: string; hash: string }>(
  links: readonly L[],
  hashOf: (link: L) => string,
  from = { seq: 0, hash: GENESIS }
): { breaks: ChainBreak<L>[]; last: { seq: number; hash: string } } {
  const breaks: ChainBreak<L>[] = []
  let prev = from.hash
  let expectedSeq = from.seq + 1
  for (const link of links) {
    if (link.seq !== expectedSeq) {
      breaks.push({ link, kind: 'gap', expectedSeq })
      expectedSeq = link.seq
    }
    let hash: string | null = null
    try {
      hash = hashOf(link)
    } catch {
      breaks.push({ link, kind: 'unreadable', expectedSeq })
    }
    if (hash !== null) {
      if (link.prevHash !== prev) breaks.push({ link, kind: 'unlinked', expectedSeq })
      if (hash !== link.hash) breaks.push({ link, kind: 'changed', expectedSeq })
    }
    prev = link.hash
    expectedSeq++
  }
  return { breaks, last: { seq: expectedSeq - 1, hash: prev } }
}

/**
 * Walks one session's chain: each event's hash must be what its content and the previous hash give,
 * the sequence must have no gap, and the head recorded for the session must be the last event's hash.
 */
export function chainProblems(sessionId: string, links: readonly ChainLink[], head: { hash: string; count: number }): AuditProblem[] {
  const hashOf = (link: ChainLink): string => {
    const payload: unknown = typeof link.payload === 'string' ? JSON.parse(link.payload) : link.payload
    return eventHash({ sessionId, seq: link.seq, at: link.at, user: link.user, kind: link.kind, payload, prevHash: link.prevHash })
  }
  const walked = walkChain(links, hashOf)
  const said: Record<ChainBreak<ChainLink>['kind'], (b: ChainBreak<ChainLink>) => string> = {
    gap: (b) => `event ${b.expectedSeq} is missing (the next stored is ${b.link.seq})`,
    unreadable: () => 'its content is not readable JSON',
    unlinked: () => 'it does not follow the event before it (the chain is broken here)',
    changed: ({ link }) => `its content was changed after it was written (${link.kind} at ${link.at} by ${link.user})`
  }
  const problems: AuditProblem[] = walked.breaks.map((b) => ({ sessionId, seq: b.link.seq, message: said[b.kind](b) }))
  const prev = walked.last.hash
  if (links.length !== head.count || prev !== head.hash) {
    problems.push({
      sessionId,
      seq: null,
      message: `the session records ${head.count} event(s) ending in ${head.hash.slice(0, 12)}…, but ${links.length} are stored ending in ${prev.slice(0, 12)}… (events were removed or added)`
    })
  }
  return problems
}

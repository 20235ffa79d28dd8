// A workspace's shared sessions through its functions: share one, add events once each (decisions, notes, runs, submit, approve, return, reopen), list them, pull the events after the last one a client has, and check a session's SHA-256 chain from the server's rows.
import { createHash } from 'node:crypto'
import type pg from 'pg'
import { walkChain } from '../reconcile/audit'

export const SESSION_EVENT_KINDS = ['decision', 'note', 'run', 'submit', 'approve', 'return', 'reopen'] as const
export type SessionEventKind = (typeof SESSION_EVENT_KINDS)[number]

export interface SessionInput {
  kind: 'statement' | 'provider_records'
  name: string
  bytes: Uint8Array
  meta?: Record<string, unknown>
}

export interface ShareRequest {
  id: string
  name: string
  periodFrom: string | null
  periodTo: string | null
  ruleVersion: string
  settings: Record<string, unknown>
  inputs: SessionInput[]
}

export interface SharedSession {
  id: string
  name: string
  periodFrom: string | null
  periodTo: string | null
  state: 'open' | 'submitted' | 'approved'
  preparer: string
  reviewer: string | null
  ruleVersion: string
  events: number
  decisions: number
  notes: number
}

/** An event as the server keeps it; payload is its canonical JSON text (as hashed) and at its UTC time to the microsecond. */
export interface SessionEvent {
  seq: number
  kind: string
  itemKey: string | null
  basedOn: number | null
  payload: string
  author: string
  at: string
  prevHash: string
  hash: string
}

const ZERO_HASH = '0'.repeat(64)

/** Publishes a session with its inputs; the server checks each input's SHA-256 on arrival. Returns the event number of "shared". */
export async function shareSession(client: pg.Client, request: ShareRequest): Promise<number> {
  const inputs = request.inputs.map((i) => ({
    kind: i.kind,
    name: i.name,
    sha256: createHash('sha256').update(i.bytes).digest('hex'),
    content: Buffer.from(i.bytes).toString('base64'),
    meta: i.meta ?? {}
  }))
  const result = await client.query<{ seq: number }>('select ledgerline.session_share($1, $2, $3, $4, $5, $6, $7) as seq', [
    request.id,
    request.name,
    request.periodFrom,
    request.periodTo,
    request.ruleVersion,
    JSON.stringify(request.settings),
    JSON.stringify(inputs)
  ])
  return result.rows[0]?.seq as number
}

export async function itemVersion(client: pg.Client, session: string, item: string): Promise<number> {
  const result = await client.query<{ version: number }>('select ledgerline.item_version($1, $2) as version', [session, item])
  return result.rows[0]?.version ?? 0
}

export async function listSharedSessions(client: pg.Client): Promise<SharedSession[]> {
  const result = await client.query<{
    id: string
    name: string
    period_from: string | null
    period_to: string | null
    state: SharedSession['state']
    preparer: string
    reviewer: string | null
    rule_version: string
    events: number
    decisions: string
    notes: string
  }>(
    `select id, name, period_from::text, period_to::text, state, preparer, reviewer, rule_version, events, decisions, notes from ledgerline.session_list()`
  )
  return result.rows.map((r) => ({
    id: r.id,
    name: r.name,
    periodFrom: r.period_from,
    periodTo: r.period_to,
    state: r.state,
    preparer: r.preparer,
    reviewer: r.reviewer,
    ruleVersion: r.rule_version,
    events: r.events,
    decisions: Number(r.decisions),
    notes: Number(r.notes)
  }))
}

/** An event as a row holds it (the server's answer, or the cache's copy). */
export interface SessionEventRow {
  seq: number
  kind: string
  item_key: string | null
  based_on: number | null
  payload: string
  author: string
  at: string
  prev_hash: string
  hash: string
}

export const eventFromRow = (r: SessionEventRow): SessionEvent => ({
  seq: r.seq,
  kind: r.kind,
  itemKey: r.item_key,
  basedOn: r.based_on,
  payload: r.payload,
  author: r.author,
  at: r.at,
  prevHash: r.prev_hash,
  hash: r.hash
})

export async function eventsAfter(client: pg.Client, session: string, seq: number): Promise<SessionEvent[]> {
  const result = await client.query<SessionEventRow>(
    'select seq, kind, item_key, based_on, payload, author, at, prev_hash, hash from ledgerline.events_after($1, $2)',
    [session, seq]
  )
  return result.rows.map(eventFromRow)
}

/** The hash of an event from its fields, as the server makes it (ledgerline.event_text). */
export function eventHash(prevHash: string, e: Omit<SessionEvent, 'prevHash' | 'hash'>): string {
  const text = [
    prevHash,
    String(e.seq),
    e.kind,
    e.itemKey ?? '',
    e.basedOn === null ? '' : String(e.basedOn),
    e.payload,
    e.author,
    e.at
  ].join('\u001f')
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

export interface ChainCheck {
  ok: boolean
  events: number
  /** The first event that does not fit, and how. */
  firstBad: { seq: number; author: string | null; at: string | null; problem: string } | null
}

/**
 * Recomputes a session's chain from its events: numbered on from `from` (1, 2, 3… for the whole
 * chain) with no gap, each linked to the one before and hashing to what it says. A client that has
 * the chain up to event N checks only what comes after it.
 */
export function verifyChain(events: readonly SessionEvent[], from = { seq: 0, hash: ZERO_HASH }): ChainCheck {
  const [first] = walkChain(events, (e) => eventHash(e.prevHash, e), from).breaks
  if (!first) return { ok: true, events: events.length, firstBad: null }
  const { link: e, kind, expectedSeq } = first
  const problem =
    kind === 'gap'
      ? expectedSeq === 1
        ? `the first event is number ${e.seq}, not 1`
        : `event ${expectedSeq} is missing (deleted?)`
      : kind === 'unlinked'
        ? 'it does not link to the event before it'
        : 'its content does not match its hash (changed after it was written)'
  return { ok: false, events: events.length, firstBad: { seq: e.seq, author: e.author, at: e.at, problem } }
}

/** Where the server recorded the session's chain to end; null when there is no such session. */
export async function sessionHead(client: pg.Client, session: string): Promise<{ lastSeq: number; lastHash: string } | null> {
  const result = await client.query<{ last_seq: number; last_hash: string }>(
    'select last_seq, last_hash from ledgerline.session_head($1)',
    [session]
  )
  const row = result.rows[0]
  return row ? { lastSeq: row.last_seq, lastHash: row.last_hash } : null
}

/** The whole check of a session on the server: its events' chain, ending where the server says it ends. */
export async function verifySharedSession(client: pg.Client, session: string): Promise<ChainCheck | null> {
  const head = await sessionHead(client, session)
  if (head === null) return null
  const events = await eventsAfter(client, session, 0)
  const check = verifyChain(events)
  if (!check.ok) return check
  const last = events[events.length - 1]
  if (head.lastSeq !== events.length || (last?.hash ?? ZERO_HASH) !== head.lastHash)
    return {
      ok: false,
      events: events.length,
      firstBad: {
        seq: events.length + 1,
        author: null,
        at: null,
        problem: `the session's chain ends at event ${head.lastSeq}, but ${events.length} event(s) are there: the last ones were deleted`
      }
    }
  return check
}

/** Adds one event at most once: sent again with the same reference (after a dropped connection, a killed client), the server returns the event it already made. */
export async function addSessionEventOnce(
  client: pg.Client,
  ref: string,
  session: string,
  kind: SessionEventKind,
  payload: Record<string, unknown>,
  item: { key: string; basedOn: number | null } | null = null
): Promise<number> {
  const result = await client.query<{ seq: number }>('select ledgerline.session_event_once($1, $2, $3, $4, $5, $6) as seq', [
    ref,
    session,
    kind,
    item?.key ?? null,
    item?.basedOn ?? null,
    JSON.stringify(payload)
  ])
  return result.rows[0]?.seq as number
}

/** A shared session as a member's client replays it. */
export interface SharedSessionDetail {
  id: string
  name: string
  periodFrom: string | null
  periodTo: string | null
  ruleVersion: string
  settings: unknown
  state: SharedSession['state']
  preparer: string
  reviewer: string | null
  sharedAt: string
  lastSeq: number
  lastHash: string
}

export async function sessionDetail(client: pg.Client, session: string): Promise<SharedSessionDetail | null> {
  const result = await client.query<{
    id: string
    name: string
    period_from: string | null
    period_to: string | null
    rule_version: string
    settings: unknown
    state: SharedSession['state']
    preparer: string
    reviewer: string | null
    shared_at: string
    last_seq: number
    last_hash: string
  }>(
    'select id, name, period_from::text, period_to::text, rule_version, settings, state, preparer, reviewer, shared_at, last_seq, last_hash from ledgerline.session_detail($1)',
    [session]
  )
  const r = result.rows[0]
  if (!r) return null
  return {
    id: r.id,
    name: r.name,
    periodFrom: r.period_from,
    periodTo: r.period_to,
    ruleVersion: r.rule_version,
    settings: r.settings,
    state: r.state,
    preparer: r.preparer,
    reviewer: r.reviewer,
    sharedAt: r.shared_at,
    lastSeq: r.last_seq,
    lastHash: r.last_hash
  }
}

/** A shared session's inputs exactly as shared. */
export interface SharedInput {
  kind: SessionInput['kind']
  name: string
  sha256: string
  bytes: Buffer
  meta: unknown
}

export async function sessionInputs(client: pg.Client, session: string): Promise<SharedInput[]> {
  const result = await client.query<{ kind: SessionInput['kind']; name: string; sha256: string; content: Buffer; meta: unknown }>(
    'select kind, name, sha256, content, meta from ledgerline.session_inputs_of($1)',
    [session]
  )
  return result.rows.map((r) => ({ kind: r.kind, name: r.name, sha256: r.sha256, bytes: r.content, meta: r.meta }))
}

/** Says the caller has the session open (kept for two minutes). */
export async function markSeen(client: pg.Client, session: string): Promise<void> {
  await client.query('select ledgerline.session_seen($1)', [session])
}

/** Says the caller no longer has the session open: the others' screens show it at their next ring. */
export async function markLeft(client: pg.Client, session: string): Promise<void> {
  await client.query('select ledgerline.session_left($1)', [session])
}

/** Who has which shared session open, by session. */
export async function sessionPresence(client: pg.Client): Promise<Map<string, string[]>> {
  const result = await client.query<{ session_id: string; login: string }>('select session_id, login from ledgerline.session_presence()')
  const out = new Map<string, string[]>()
  for (const r of result.rows) out.set(r.session_id, [...(out.get(r.session_id) ?? []), r.login])
  return out
}

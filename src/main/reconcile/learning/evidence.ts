// What the user decided in the profile's other sessions, learned: pairs rejected there are never suggested here (until confirmed again), and each statement wording's confirmed and rejected parties become evidence the engine scores and says in words.
import type Database from 'better-sqlite3'
import type { AliasEvidence } from '../../../shared/learning'
import { pairKey, shortItemKey, type ReconItem, type ReconSource, type SessionInfo } from '../../../shared/reconcile'
import { BY_KEY } from '../items'
import type { AuditPayloads } from '../../../shared/reconcile-events'
import { recordParties } from '../provider-side'
import { lineWords, lineWordsField } from '../references'

interface DecisionRow {
  session_id: string
  source: ReconSource
  seq: number
  kind: 'reject' | 'unmatch' | 'accept' | 'match' | 'undo'
  payload: string
}

/** A pair's last word in the profile's other sessions. */
interface DecidedPair {
  confirmed: boolean
  providerIds: string[]
  fileIds: string[]
  source: ReconSource
  sessionId: string
}

/** What the profile's other sessions teach a run. */
export interface Learned {
  /** Pairs rejected (or unmatched) and not confirmed since: never suggested. */
  readonly rejected: ReadonlySet<string>
  /** Evidence by a line's steady words, then by the record's party key. */
  readonly aliases: ReadonlyMap<string, ReadonlyMap<string, AliasEvidence>>
}

export const NOTHING_LEARNED: Learned = Object.freeze({ rejected: new Set<string>(), aliases: new Map() })

export interface LearnOptions {
  /** Learn only from sessions whose period ended before this day (a replay of closed months, in order). */
  endedBefore?: string
}

/**
 * What the profile's other sessions on this computer teach the session: each pair's last word (a
 * confirmation, accepted or matched by hand, or a rejection, rejected or unmatched; undone decisions
 * and rules' pairings are not the user's word), kept per pair, and per line wording and party for
 * pairs of one record and one line. A replayed team session learns nothing: its decisions are the
 * workspace's, the same on every computer.
 */
export function learnedElsewhere(
  db: Database.Database,
  session: Pick<SessionInfo, 'id' | 'profileId' | 'team'>,
  options: LearnOptions = {}
): Learned {
  if (session.team?.replay === true) return NOTHING_LEARNED
  // What was learned is read again only when something it reads changed: an event of another session
  // (a decision, a run), a session shared, or a sync of the profile's records.
  const state = db
    .prepare(
      `select count(*) || ':' || total(event_count) || ':' || coalesce(max(created_at), '') || ':' || (select count(*) from recon_shared_links) || ':' ||
              coalesce((select last_synced_at from profiles where id = ?), '')
         from recon_sessions where profile_id = ? and id <> ?`
    )
    .pluck()
    .get(session.profileId, session.profileId, session.id) as string
  const key = `${session.profileId}|${session.id}|${options.endedBefore ?? ''}|${state}`
  let memo = LEARNED.get(db)
  if (!memo) LEARNED.set(db, (memo = new Map()))
  const known = memo.get(key)
  if (known) return known
  const learned = learn(db, session, options)
  memo.set(key, learned)
  // The last few sessions' only.
  for (const old of [...memo.keys()].slice(0, Math.max(0, memo.size - 16))) memo.delete(old)
  return learned
}

/** What was learned, by database and by what it was read from. Never changed once made: callers copy before they change. */
const LEARNED = new WeakMap<Database.Database, Map<string, Learned>>()

function learn(db: Database.Database, session: Pick<SessionInfo, 'id' | 'profileId'>, options: LearnOptions): Learned {
  const rows = db
    .prepare(
      `select e.session_id, s.source, e.seq, e.kind, e.payload from recon_events e
         join recon_sessions s on s.id = e.session_id
        where s.profile_id = ? and e.session_id <> ? and e.kind in ('reject', 'unmatch', 'accept', 'match', 'undo')
          and (? is null or s.period_to < ?)
          and not exists (select 1 from recon_shared_links l where l.session_id = s.id and l.replica_id is null)
        order by e.at, e.session_id, e.seq`
    )
    .all(session.profileId, session.id, options.endedBefore ?? null, options.endedBefore ?? null) as DecisionRow[]
  // Undone decisions, by session and seq: an undo names the event it takes back.
  const undone = new Set(
    rows.filter((r) => r.kind === 'undo').map((r) => `${r.session_id}#${(JSON.parse(r.payload) as AuditPayloads['undo']).undoes}`)
  )
  // Each pair's last word, with the session it was said in and that session's source (its records are read by it).
  const last = new Map<string, DecidedPair>()
  for (const r of rows) {
    if (r.kind === 'undo' || undone.has(`${r.session_id}#${r.seq}`)) continue
    const { providerIds, fileIds } = JSON.parse(r.payload) as { providerIds: string[]; fileIds: string[] }
    const key = pairKey(providerIds, fileIds)
    last.delete(key)
    last.set(key, { confirmed: r.kind === 'accept' || r.kind === 'match', providerIds, fileIds, source: r.source, sessionId: r.session_id })
  }
  const rejected = new Set([...last].filter(([, v]) => !v.confirmed).map(([k]) => k))
  return { rejected, aliases: aliasesOf(db, session.profileId, [...last.values()]) }
}

/** A statement line as learning reads it. */
interface LearnedLine {
  date: string
  amount: number
  currency: string
  counterparty: string | null
  description: string | null
}

/**
 * The lines of the pairs, by id: a confirmed pair's from its item in the session it was confirmed in
 * (found by its key; a line carried from an earlier period included), a rejected pair's from the
 * statements of that session (its item is gone: the line is in another now).
 */
function linesOf(db: Database.Database, pairs: readonly DecidedPair[]): Map<string, LearnedLine> {
  const lines = new Map<string, LearnedLine>()
  const item = db.prepare(`select data from recon_items where ${BY_KEY}`).pluck()
  for (const p of pairs) {
    if (!p.confirmed) continue
    const key = pairKey(p.providerIds, p.fileIds)
    const data = item.get(p.sessionId, shortItemKey(key), key) as string | undefined
    const line = data === undefined ? undefined : (JSON.parse(data) as ReconItem).file[0]
    if (line)
      lines.set(line.id, {
        date: line.date,
        amount: line.amountMinor,
        currency: line.currency,
        counterparty: line.counterparty,
        description: line.description
      })
  }
  const rejectedBySession = new Map<string, string[]>()
  for (const p of pairs)
    if (!p.confirmed) rejectedBySession.set(p.sessionId, [...(rejectedBySession.get(p.sessionId) ?? []), p.fileIds[0] as string])
  const rows = db
    .prepare(
      `select r.row_id, r.date, r.amount_minor, r.currency, r.counterparty, r.description
         from recon_session_files sf join recon_files f on f.id = sf.file_id join recon_file_rows r on r.file_num = f.num
        where sf.session_id = ? and r.row_id in (select value from json_each(?))`
    )
    .raw(true)
  for (const [sessionId, ids] of rejectedBySession)
    for (const [id, date, amount, currency, counterparty, description] of rows.all(sessionId, JSON.stringify(ids)) as [
      string,
      string,
      number,
      string,
      string | null,
      string | null
    ][])
      if (!lines.has(id)) lines.set(id, { date, amount, currency, counterparty, description })
  return lines
}

/** Pairs of one record and one line, read as a line's words and a record's party, counted. */
function aliasesOf(db: Database.Database, profileId: string, pairs: readonly DecidedPair[]): Map<string, Map<string, AliasEvidence>> {
  const single = pairs.filter((p) => p.providerIds.length === 1 && p.fileIds.length === 1)
  const aliases = new Map<string, Map<string, AliasEvidence>>()
  if (single.length === 0) return aliases
  const lines = linesOf(db, single)
  const parties = new Map<string, ReturnType<typeof recordParties>>()
  for (const source of new Set(single.map((p) => p.source)))
    parties.set(
      source,
      recordParties(
        db,
        profileId,
        source,
        single.filter((p) => p.source === source).map((p) => p.providerIds[0] as string)
      )
    )
  // In the lines' order of days, so "since" and the days read as the months went.
  const read = single
    .map((p) => ({ pair: p, line: lines.get(p.fileIds[0] as string), party: parties.get(p.source)?.get(p.providerIds[0] as string) }))
    .filter((r) => r.line !== undefined && r.party !== undefined)
    .sort((a, b) => (a.line?.date ?? '').localeCompare(b.line?.date ?? ''))
  for (const { pair, line, party } of read) {
    if (!line || !party) continue
    const said = lineWords(line)
    if (said === null) continue
    let byParty = aliases.get(said)
    if (!byParty) aliases.set(said, (byParty = new Map()))
    let e = byParty.get(party.key)
    if (!e)
      byParty.set(
        party.key,
        (e = {
          lineWords: said,
          field: lineWordsField(line),
          partyKey: party.key,
          partyLabel: party.label,
          confirmed: 0,
          rejected: 0,
          since: null,
          amounts: {},
          days: []
        })
      )
    if (!pair.confirmed) {
      e.rejected++
      continue
    }
    e.confirmed++
    e.since ??= line.date
    const amount = `${line.currency} ${line.amount}`
    e.amounts[amount] = (e.amounts[amount] ?? 0) + 1
    e.days.push(Number(line.date.slice(8, 10)))
  }
  return aliases
}

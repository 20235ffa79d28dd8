// Hard negatives across sessions: a pair of a record and a line the user rejected in another session of the profile is never suggested again, until the user confirms that same pair somewhere later.
import type Database from 'better-sqlite3'
import { pairKey, type SessionInfo } from '../../shared/reconcile'
import type { AuditPayloads } from '../../shared/reconcile-events'

interface DecisionRow {
  session_id: string
  seq: number
  at: string
  kind: 'reject' | 'unmatch' | 'accept' | 'match' | 'undo'
  payload: string
}

/**
 * The pairs the user rejected (or unmatched) in the profile's other sessions on this computer, less
 * those confirmed (accepted or matched by hand) after, and less any decision taken back with undo.
 * A replayed team session reads none: its decisions are the workspace's, the same on every computer.
 */
export function rejectedElsewhere(db: Database.Database, session: Pick<SessionInfo, 'id' | 'profileId' | 'team'>): Set<string> {
  if (session.team?.replay === true) return new Set()
  const rows = db
    .prepare(
      `select e.session_id, e.seq, e.at, e.kind, e.payload from recon_events e
         join recon_sessions s on s.id = e.session_id
        where s.profile_id = ? and e.session_id <> ? and e.kind in ('reject', 'unmatch', 'accept', 'match', 'undo')
          and not exists (select 1 from recon_shared_links l where l.session_id = s.id and l.replica_id is null)
        order by e.at, e.session_id, e.seq`
    )
    .all(session.profileId, session.id) as DecisionRow[]
  // Undone decisions, by session and seq: an undo names the event it takes back.
  const undone = new Set(
    rows.filter((r) => r.kind === 'undo').map((r) => `${r.session_id}#${(JSON.parse(r.payload) as AuditPayloads['undo']).undoes}`)
  )
  const rejected = new Set<string>()
  for (const r of rows) {
    if (r.kind === 'undo' || undone.has(`${r.session_id}#${r.seq}`)) continue
    const { providerIds, fileIds } = JSON.parse(r.payload) as { providerIds: string[]; fileIds: string[] }
    const key = pairKey(providerIds, fileIds)
    if (r.kind === 'reject' || r.kind === 'unmatch') rejected.add(key)
    else rejected.delete(key)
  }
  return rejected
}

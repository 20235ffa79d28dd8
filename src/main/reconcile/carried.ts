// Items carried forward: what was still open when the account's last period closed (in transit, pending at the provider, only in the file, differences not resolved) is brought into its next session with the period it comes from, and clears there when it matches.
import { stillOpen, type CarriedFrom, type SessionInfo } from '../../shared/reconcile'
import type { ReconContext } from './context'
import type { SessionItems } from './items'
import { engineFileRow, engineProvider } from './engine-sides'
import type { EngineFileRow, EngineProvider } from './match/types'
import { loadProviderSide } from './provider-side'
import type { Sessions } from './sessions'

/** What a session takes over from its account's last closed period. */
export interface CarriedInputs {
  records: EngineProvider[]
  lines: EngineFileRow[]
  /** The carried lines' statements by id: reasons name a line as "line 14 of october.csv". */
  fileNames: Map<string, string>
}

const NOTHING: CarriedInputs = { records: [], lines: [], fileNames: new Map() }

/**
 * The records and lines a session brings forward from the account's last closed period before it
 * (session.chain.previous): each side of every item still open there, marked with the period it was
 * first open in (a side carried there already keeps its own). A record is read as the provider now
 * has it (a payment pending in October may have succeeded since), else as the closed period kept it.
 */
export function carriedInto(ctx: ReconContext, sessions: Sessions, items: SessionItems, session: SessionInfo): CarriedInputs {
  const previous = session.chain?.previous
  // A replayed team session reads what was shared and nothing of this computer's own periods: every member's replay is the same.
  if (!previous || session.team?.replay === true) return NOTHING
  // The chain's previous period is closed (or approved in a team workspace): what was open in it then is open now.
  const before = sessions.get(previous.id)
  const from: CarriedFrom = { sessionId: before.id, name: before.name, from: before.from, to: before.to }
  const names = new Map(before.files.map((f) => [f.id, f.name]))
  const records: EngineProvider[] = []
  const lines: EngineFileRow[] = []
  const fileNames = new Map<string, string>()
  for (const item of items.notMatched(before.id)) {
    if (!stillOpen(item)) continue
    for (const p of item.provider) records.push({ ...engineProvider(p, before), outsidePeriod: false, carried: p.carried ?? from })
    for (const f of item.file) {
      const carried = f.carried ?? { ...from, file: names.get(f.fileId) ?? 'an earlier statement' }
      fileNames.set(f.fileId, carried.file ?? 'an earlier statement')
      lines.push({ ...engineFileRow(f), carried })
    }
  }
  if (records.length === 0) return { records, lines, fileNames }
  // The records as the cache has them now, over the days they were open in.
  const first = records.reduce((day, r) => (r.day < day ? r.day : day), before.from)
  const now = new Map(
    loadProviderSide(ctx.db, {
      profileId: before.profileId,
      source: before.source,
      filter: before.filter,
      from: first,
      to: before.to,
      timeZone: before.timeZone
    }).records.map((r) => [r.id, r])
  )
  return {
    records: records.map((r) => {
      const current = now.get(r.id)
      return current ? { ...current, outsidePeriod: false, carried: r.carried } : r
    }),
    lines,
    fileNames
  }
}

/**
 * A session's own inputs with what it carries forward: a carried record takes the place of the same
 * record read from just outside the period, and is left out when the period holds it itself; a
 * carried line is left out when a statement of the session holds the same line.
 */
export function withCarried(
  own: { records: EngineProvider[]; file: EngineFileRow[] },
  carried: CarriedInputs
): { records: EngineProvider[]; file: EngineFileRow[] } {
  if (carried.records.length === 0 && carried.lines.length === 0) return own
  const carriedIds = new Set(carried.records.map((r) => r.id))
  const ownIds = new Set(own.records.filter((r) => r.outsidePeriod !== true).map((r) => r.id))
  const fileIds = new Set(own.file.map((f) => f.id))
  return {
    records: [...own.records.filter((r) => !carriedIds.has(r.id) || ownIds.has(r.id)), ...carried.records.filter((r) => !ownIds.has(r.id))],
    file: [...own.file, ...carried.lines.filter((f) => !fileIds.has(f.id))]
  }
}

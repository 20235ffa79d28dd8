// A session's audit events folded into what they decide: pinned and dismissed pairs for the engine, each item's note, reason and resolution, and the adjustments.
import { pairKey, type AdjustmentInfo } from '../../shared/reconcile'
import type Database from 'better-sqlite3'
import { ruleMark, type AuditEntry } from '../../shared/reconcile-events'
import { sessionEvents } from './audit'
import type { EngineDecisions, PinnedMatch } from './match/types'

/** What the events of a session say: decisions for the engine, notes and reasons per item, adjustments. */
export interface FoldedDecisions {
  engine: EngineDecisions
  notes: Map<string, ItemAnnotation>
  adjustments: AdjustmentInfo[]
  reopenedAt: string | null
  /** Lines not read that the user read by hand, by line id. */
  fixedLines: Map<string, FixedLine>
}

/** A line read by hand: what the user says it holds. */
export interface FixedLine {
  date: string
  amountMinor: number
  currency: string
  by: string
  at: string
}

/** What the user said about one item, and who said the last of it when. */
export interface ItemAnnotation {
  note: string | null
  reasonCode: string | null
  resolved: boolean
  by: string
  at: string
  /** The rule that decided it, in words (ruleMark), while its application stands. */
  rule?: string
}

/** The events undone, by seq: each undo names the event it takes back. */
export function undoneEvents(events: readonly AuditEntry[]): Set<number> {
  const undone = new Set<number>()
  for (const e of events) if (e.kind === 'undo') undone.add(e.payload.undoes)
  return undone
}

/** Folds a session's events, in order, skipping those undone. */
export function foldEvents(events: readonly AuditEntry[]): FoldedDecisions {
  const pinned = new Map<string, PinnedMatch>()
  const dismissed = new Set<string>()
  const notes: FoldedDecisions['notes'] = new Map()
  const adjustments: AdjustmentInfo[] = []
  const fixedLines: FoldedDecisions['fixedLines'] = new Map()
  let reopenedAt: string | null = null
  const annotate = (
    key: string,
    at: string,
    by: string,
    change: Partial<Pick<ItemAnnotation, 'note' | 'reasonCode' | 'resolved' | 'rule'>>
  ): void => {
    // Made field by field, not spread: a session a rule decided thousands of lines of folds as many of these per decision.
    const current = notes.get(key)
    const next: ItemAnnotation = {
      note: change.note !== undefined ? change.note : (current?.note ?? null),
      reasonCode: change.reasonCode !== undefined ? change.reasonCode : (current?.reasonCode ?? null),
      resolved: change.resolved !== undefined ? change.resolved : (current?.resolved ?? false),
      by,
      at
    }
    const rule = change.rule ?? current?.rule
    if (rule !== undefined) next.rule = rule
    notes.set(key, next)
  }
  const undone = undoneEvents(events)
  for (const e of events) {
    if (undone.has(e.seq)) continue
    switch (e.kind) {
      case 'accept':
      case 'match': {
        const { providerIds, fileIds } = e.payload
        const key = pairKey(providerIds, fileIds)
        pinned.set(key, { kind: e.kind === 'accept' ? 'accepted' : 'manual', providerIds, fileIds })
        dismissed.delete(key)
        annotate(key, e.at, e.user, {})
        break
      }
      case 'reject':
      case 'unmatch': {
        const key = pairKey(e.payload.providerIds, e.payload.fileIds)
        pinned.delete(key)
        dismissed.add(key)
        break
      }
      case 'note':
        annotate(e.payload.itemKey, e.at, e.user, { note: e.payload.note || null })
        break
      case 'reason':
        annotate(e.payload.itemKey, e.at, e.user, { reasonCode: e.payload.code || null })
        break
      case 'resolve':
        annotate(e.payload.itemKey, e.at, e.user, { resolved: e.payload.resolved === true })
        break
      case 'adjust':
        adjustments.push({
          currency: e.payload.currency,
          amountMinor: e.payload.amountMinor,
          reason: e.payload.reason,
          itemKey: e.payload.itemKey ?? null,
          by: e.user,
          at: e.at
        })
        break
      case 'reopen':
        reopenedAt ??= e.at
        break
      case 'fix':
        fixedLines.set(e.payload.lineId, {
          date: e.payload.date,
          amountMinor: e.payload.amountMinor,
          currency: e.payload.currency,
          by: e.user,
          at: e.at
        })
        break
      case 'exclude':
        annotate(e.payload.itemKey, e.at, e.user, { resolved: true, reasonCode: 'excluded', note: e.payload.reason })
        break
      case 'rule': {
        // Decided by the rule (its name and version say so), as the user would decide it by hand.
        const rule = ruleMark(e.payload)
        if (e.payload.action === 'pair') {
          const { providerIds, fileIds } = e.payload
          const key = pairKey(providerIds, fileIds)
          pinned.set(key, { kind: 'manual', providerIds, fileIds })
          dismissed.delete(key)
          annotate(key, e.at, rule, { rule })
        } else
          annotate(e.payload.itemKey, e.at, rule, {
            resolved: true,
            reasonCode: e.payload.reasonCode,
            rule,
            ...(e.payload.note ? { note: e.payload.note } : {})
          })
        break
      }
    }
  }
  return { engine: { pinned: [...pinned.values()], dismissed }, notes, adjustments, reopenedAt, fixedLines }
}

/** What a stored session's events decide. */
export function foldSession(db: Database.Database, sessionId: string): FoldedDecisions {
  return foldEvents(sessionEvents(db, sessionId))
}

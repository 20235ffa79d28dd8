// rules evaluate: the profile's closed sessions replayed in period order, each matched again before any decision of its own, with and without what the sessions before it taught; suggestions and each enabled rule measured against what the user left decided.
import type Database from 'better-sqlite3'
import type { Evaluation, RuleFigures, SuggestionFigures } from '../../../shared/learning'
import type { ReconItem, SessionInfo } from '../../../shared/reconcile'
import { RecordFinder, ruleHolds, type StoredRule } from '../../../shared/rules'
import { previewRule, ruleSubject } from '../rules/preview'
import type { ReconService } from '../service'
import { learnedElsewhere, NOTHING_LEARNED } from './evidence'

function figures(suggested: number, right: number, confirmed: number): SuggestionFigures {
  return {
    suggested,
    right,
    confirmed,
    precision: suggested === 0 ? null : right / suggested,
    recall: confirmed === 0 ? null : right / confirmed
  }
}

/** The pairs the user confirmed in a session (accepted or matched by hand; not a rule's), by item key. */
function confirmedPairs(service: ReconService, sessionId: string): Set<string> {
  const folded = service.fold(sessionId)
  const out = new Set<string>()
  for (const item of service.allItems(sessionId))
    if ((item.decision === 'accepted' || item.decision === 'manual') && folded.notes.get(item.key)?.rule === undefined) out.add(item.key)
  return out
}

/** Suggestions of a replay against the confirmed pairs. */
function scored(items: readonly ReconItem[], confirmed: ReadonlySet<string>): SuggestionFigures {
  let suggested = 0
  let right = 0
  for (const item of items) {
    if (item.outcome !== 'suggested') continue
    suggested++
    if (confirmed.has(item.key)) right++
  }
  return figures(suggested, right, confirmed.size)
}

/**
 * Items the user left decided the way a rule decides: resolved with its reason code (or left out), or
 * for a pairing, pairs the user confirmed of the record it names (its value), or of a line it holds for.
 */
function decidedSo(rule: StoredRule['rule'], items: readonly ReconItem[]): number {
  const a = rule.action
  if (a.type !== 'pair')
    return items.filter(
      (i) => i.provider.length === 0 && i.resolved && i.reasonCode === (a.type === 'classify' ? a.reasonCode : 'left_out')
    ).length
  return items.filter((i) => {
    const [record, line] = [i.provider[0], i.file[0]]
    if (i.decision === null || i.provider.length !== 1 || i.file.length !== 1 || !record || !line) return false
    if (a.value === undefined) return ruleHolds(rule, ruleSubject(line, i))
    const finder = new RecordFinder(a.with)
    finder.add(record)
    return finder.find(a.value).length > 0
  }).length
}

function sum(list: readonly SuggestionFigures[]): SuggestionFigures {
  return figures(
    list.reduce((n, f) => n + f.suggested, 0),
    list.reduce((n, f) => n + f.right, 0),
    list.reduce((n, f) => n + f.confirmed, 0)
  )
}

/**
 * Replays the profile's closed sessions (not replayed team sessions) in the order of their periods:
 * each matched again before any decision of its own, once with nothing learned and once with what the
 * sessions whose periods ended before it taught; a suggestion is right when the user confirmed that
 * pair. Each enabled rule is tried on each session as the user left it.
 */
export function evaluateLearning(
  db: Database.Database,
  service: ReconService,
  profileId: string,
  rules: readonly StoredRule[],
  onProgress?: (done: number, total: number) => void
): Evaluation {
  const closed = service
    .sessions(profileId)
    .filter((s) => s.closedAt !== null && s.team?.replay !== true)
    .sort((a, b) => a.to.localeCompare(b.to) || a.from.localeCompare(b.from) || a.id.localeCompare(b.id))
  const sessions: Evaluation['sessions'] = []
  const finals = new Map<string, ReconItem[]>()
  closed.forEach((session: SessionInfo, k) => {
    onProgress?.(k, closed.length)
    const confirmed = confirmedPairs(service, session.id)
    const learned = learnedElsewhere(db, session, { endedBefore: session.from })
    sessions.push({
      sessionId: session.id,
      name: session.name,
      from: session.from,
      to: session.to,
      without: scored(service.replay(session, NOTHING_LEARNED), confirmed),
      with: scored(service.replay(session, learned), confirmed)
    })
    finals.set(session.id, [...service.allItems(session.id)])
  })
  onProgress?.(closed.length, closed.length)
  const ruleFigures: RuleFigures[] = rules
    .filter((r) => r.enabled)
    .map((r) => {
      const preview = previewRule(
        r.rule,
        closed.map((session) => ({ session, items: finals.get(session.id) ?? [] }))
      )
      const so = closed.reduce((n, s) => n + decidedSo(r.rule, finals.get(s.id) ?? []), 0)
      const judged = preview.asDecided + preview.otherwise
      return {
        name: r.rule.name,
        version: r.version,
        acted: preview.items,
        asDecided: preview.asDecided,
        otherwise: preview.otherwise,
        undecided: preview.undecided,
        decidedSo: so,
        precision: judged === 0 ? null : preview.asDecided / judged,
        recall: so === 0 ? null : Math.min(1, preview.asDecided / so)
      }
    })
  return {
    sessions,
    without: sum(sessions.map((s) => s.without)),
    with: sum(sessions.map((s) => s.with)),
    rules: ruleFigures
  }
}

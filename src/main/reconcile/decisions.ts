// Decisions about a session's items, each kept as an audit event and applied in place: to its own item or the totals, or by matching the open pool again (pool-run.ts); the session is run again only where neither makes what a run makes.
import { isKnownCurrency, parseMajor } from '../../shared/money'
import {
  expectedAmount,
  pairKey,
  ruleReason,
  type Decision,
  type ItemFilter,
  type ReconItem,
  type SessionInfo
} from '../../shared/reconcile'
import { eventSubjects, ruleMark, UNDOABLE_KINDS, type AuditEventBody, type DecidedMembers } from '../../shared/reconcile-events'
import { AppError } from '../errors'
import { sessionEventsKept, type AuditEvent } from './audit'
import type { ReconContext } from './context'
import { runMatch } from './engine'
import { foldEvents, foldSession, undoneEvents, type FoldedDecisions } from './fold'
import { PoolRuns } from './pool-run'
import { POOL_OUTCOMES, type SessionItems } from './items'
import { fileNamesOf, filePagesOf } from './report'
import { Totals, totalsBasis, type SummaryTotals } from './totals'
import { engineFileRow, engineProvider } from './engine-sides'
import { lockedDays } from './periods'
import { shiftDay } from './provider-side'
import { dayNumber } from './import/dates'
import { materialise, type Runs } from './runs'
import type { Sessions } from './sessions'

/** The line of a not_read item, as fix and exclude name it; refuses any other item. */
function notReadLine(item: ReconItem): { id: string; fileId: string; line: number; name: string } {
  const line = item.file[0]
  if (item.outcome !== 'not_read' || !line?.notRead)
    throw new AppError(
      'not_a_line_not_read',
      `Only a line that could not be read can be read by hand or left out; this item is ${item.outcome}.`
    )
  if (line.notRead.fixed) throw new AppError('line_fixed', `Line ${line.line} was read by hand already; undo that first.`)
  return { id: line.id, fileId: line.fileId, line: line.line, name: `line ${line.line}` }
}

/** The event a decision is kept as. */
type DecisionEvent = Extract<AuditEventBody, { kind: Decision['kind'] }>

/** The outcomes whose records and lines are still open when the suggestions are scored (SessionItems.openNear reads the same). */

/** Decisions that can change what else matches: applied by matching the open pool again (pool-run.ts), which needs what the events decided before them. */
const POOL_KINDS = new Set<AuditEventBody['kind']>(['accept', 'reject', 'match', 'unmatch', 'undo'])

/** What a session's events decided without a decision and with it. */
interface Folds {
  before: FoldedDecisions
  after: FoldedDecisions
}

/** Decisions about one item's annotation: undone in place by reading the item's annotation again. */
const ANNOTATIONS = new Set<AuditEventBody['kind']>(['note', 'reason', 'resolve', 'exclude'])

export class Decisions {
  private readonly pool: PoolRuns

  constructor(
    private readonly ctx: ReconContext,
    private readonly sessions: Sessions,
    private readonly items: SessionItems,
    private readonly runs: Runs
  ) {
    this.pool = new PoolRuns(ctx, items, runs)
  }

  /**
   * Keeps one decision as an audit event and shows it in the result, applied in place in the same
   * transaction as the event: one that changes only its own item (a note, a reason, resolved, an
   * accepted suggestion with nothing open near its members) or only the totals (an adjustment) is
   * applied to that item; one that can change what else matches (reject, match, unmatch, undo, an
   * accept near open items) by matching the open pool again (pool-run.ts). Where neither can make what
   * a full run makes (a line read by hand, a pairing rule enabled, a line left open that an enabled rule
   * would decide, a freed record a line names by its key …),
   * the session is run again. `item` is the one item changed, null when the totals or several changed.
   */
  async decide(sessionId: string, decision: Decision): Promise<{ session: SessionInfo; inPlace: boolean; item: ReconItem | null }> {
    const decided = this.decideWithoutRun(sessionId, decision)
    if (decided.inPlace) return { ...decided, session: this.sessions.get(sessionId) }
    return { session: (await this.runs.run(sessionId)).session, inPlace: false, item: null }
  }

  /**
   * Keeps the decision as an event and applies it in place when it can be; else (inPlace false) the
   * session still needs its run (or, `matchPool` false, its pool matched again: the event's seq says from where).
   */
  private decideWithoutRun(
    sessionId: string,
    decision: Decision,
    matchPool = true
  ): { inPlace: boolean; item: ReconItem | null; seq: number } {
    const session = this.sessions.open(sessionId)
    this.refuseLocked(session, decision)
    const body = this.decisionEvent(session, decision)
    // The events read once and kept (a session of many decisions, or of many a rule made, has thousands).
    const folded = (): FoldedDecisions => foldEvents(sessionEventsKept(this.ctx.db, sessionId))
    const before = matchPool && session.lastRunAt !== null && POOL_KINDS.has(body.kind) ? folded() : null
    const { applied, seq } = this.ctx.db.transaction(() => {
      const event = this.ctx.record(sessionId, body)
      const folds = before ? { before, after: folded() } : null
      return { applied: session.lastRunAt !== null ? this.applyInPlace(session, body, event, folds) : false, seq: event.seq }
    })()
    return { inPlace: applied !== false, item: applied === true || applied === false ? null : applied, seq }
  }

  /**
   * Lock dates: a decision about anything dated in a closed period of the session's account is
   * refused (what was carried forward from it is this period's to clear, so its days do not count).
   */
  private refuseLocked(session: SessionInfo, decision: Decision): void {
    // A replayed session's decisions are the workspace's to allow (its approval is its lock), the same on every member's computer.
    if (session.team?.replay === true || !(session.chain?.overlaps ?? []).some((o) => o.closed)) return
    const days: string[] = []
    const add = (it: ReconItem | null): void => {
      for (const side of [...(it?.provider ?? []), ...(it?.file ?? [])]) if (!side.carried) days.push(side.date)
    }
    if ('itemKey' in decision && decision.itemKey) add(this.items.get(session.id, decision.itemKey))
    if (decision.kind === 'match') for (const it of this.items.containing(session.id, decision.providerIds, decision.fileIds)) add(it)
    if (decision.kind === 'fix') days.push(decision.date)
    const locked = lockedDays(session, days)
    if (locked !== null) throw new AppError('period_locked', `That decision cannot be made in "${session.name}": ${locked}`)
  }

  /**
   * Applies decisions already kept as events (pulled from a team workspace), in order, in place as local ones are, in the
   * caller's transaction. False when one cannot be applied in place (a reject, match, unmatch or undo; settings changed
   * since the run; no run yet): the session is then run again, which makes of the events what these would have.
   */
  applyKept(sessionId: string, kept: readonly { body: AuditEventBody; event: AuditEvent }[]): boolean {
    const session = this.sessions.get(sessionId)
    if (session.lastRunAt === null) return false
    const events = sessionEventsKept(this.ctx.db, sessionId)
    // Each is applied over the events up to it: those after it are kept already, but not yet applied.
    return kept.every(({ body, event }) => {
      const folds = POOL_KINDS.has(body.kind)
        ? {
            before: foldEvents(events.filter((e) => e.seq < event.seq)),
            after: foldEvents(events.filter((e) => e.seq <= event.seq))
          }
        : null
      return this.applyInPlace(session, body as DecisionEvent, event, folds) !== false
    })
  }

  /**
   * Applies a decision kept as `event` to the stored items and totals: the one item changed, true when
   * the totals or several items changed, or false when a run must do it. `folds`: what the session's
   * events decided without it and with it (for the decisions that match the pool again).
   */
  private applyInPlace(session: SessionInfo, decision: DecisionEvent, event: AuditEvent, folds: Folds | null): ReconItem | boolean {
    const stored = this.items.storedSummary(session.id)
    if (!stored) return false
    const { settings, totals } = stored
    if (JSON.stringify(settings) !== JSON.stringify(session.settings)) return false
    const next = new Totals(totalsBasis({ settings, to: session.to }), totals)
    const matchPool = (): boolean => folds !== null && this.pool.apply(session, folds.before, folds.after) === null
    if (decision.kind === 'adjust') {
      next.adjust(decision.payload.currency, decision.payload.amountMinor)
      this.storeTotals(session, next)
      return true
    }
    if (decision.kind === 'reject' || decision.kind === 'match' || decision.kind === 'unmatch') return matchPool()
    if (decision.kind === 'undo') return this.undoInPlace(session, decision, next, folds?.after ?? null) ?? matchPool()
    const itemKey = eventSubjects(decision).itemKey
    const found = itemKey === null ? null : this.items.withPosition(session.id, itemKey)
    if (!found) return false
    const { item, position } = found
    const annotation = { note: item.note, reasonCode: item.reasonCode, resolved: item.resolved, by: event.user, at: event.at }
    let replaced: ReconItem
    if (decision.kind === 'note') replaced = { ...item, note: decision.payload.note || null, decidedBy: event.user, decidedAt: event.at }
    else if (decision.kind === 'reason')
      replaced = { ...item, reasonCode: decision.payload.code || null, decidedBy: event.user, decidedAt: event.at }
    else if (decision.kind === 'resolve')
      replaced = { ...item, resolved: decision.payload.resolved, decidedBy: event.user, decidedAt: event.at }
    else if (decision.kind === 'exclude')
      replaced = {
        ...item,
        resolved: true,
        reasonCode: 'excluded',
        note: decision.payload.reason,
        decidedBy: event.user,
        decidedAt: event.at
      }
    else if (decision.kind === 'accept') {
      // Taken by a decision, the members leave the pool before any line is matched: a record or line still open near them
      // (a rival, the other candidate of a line, a line a group of them was searched for) may then be matched otherwise.
      // The pool matched again (with the rules' rounds) says what a run would.
      if (this.openNearby(session, item, totals)) return matchPool()
      // What a run would make of the pinned pair: the engine over just its members (nothing else can take them).
      const result = runMatch(
        item.provider.map((p) => engineProvider(p, session)),
        item.file.map(engineFileRow),
        settings,
        {
          pinned: [{ kind: 'accepted', providerIds: item.provider.map((p) => p.id), fileIds: item.file.map((f) => f.id) }],
          dismissed: new Set()
        },
        { fileNames: fileNamesOf(session), filePages: filePagesOf(session) }
      )
      const [made, ...rest] = materialise(result, { notes: new Map([[item.key, annotation]]) }, { to: session.to, settings }).items
      if (!made || rest.length > 0 || made.decision !== 'accepted' || made.key !== item.key) return false
      // With a pairing rule enabled, the records taken from the free ones may leave exactly one for a line to pair with:
      // then the pool, whose rounds give the rules what it leaves, as a run does.
      return this.replaceItem(session, next, position, item, made, matchPool)
    } else return false
    return this.replaceItem(session, next, position, item, replaced)
  }

  /**
   * Stores an item in place of the one at `position`, and the totals with it (every item read on the statement's basis
   * read anew when the change turns it). When the item is left open for an enabled rule to decide, or its records freed
   * or taken leave another line for a pairing rule, `otherwise` says (by default false: a run applies the rules).
   */
  private replaceItem(
    session: SessionInfo,
    next: Totals,
    position: number,
    item: ReconItem,
    replaced: ReconItem,
    otherwise: () => boolean = () => false
  ): ReconItem | boolean {
    if (!this.pool.leavesRulesAlone(session, item, replaced)) return otherwise()
    const basisNet = next.basisNet()
    next.add(item, -1)
    next.add(replaced)
    this.pool.keepingRulesSettled(session.id, () => {
      this.items.replaceOne(session.id, position, replaced)
      // The statement's basis turned (net of fees or gross): every item read on it is read anew, as a run reads it.
      if (next.basisNet() !== basisNet) this.pool.restateOnTheBasis(session.id, next)
      this.items.storeTotals(session.id, session.settings, next.result())
    })
    return replaced
  }

  /** Stores totals changed by an adjustment (no item changes: what the rules would decide stays as it was). */
  private storeTotals(session: SessionInfo, next: Totals): void {
    this.pool.keepingRulesSettled(session.id, () => this.items.storeTotals(session.id, session.settings, next.result()))
  }

  /**
   * An undo of a note, reason, resolution or leaving out: the item's annotation as the events now
   * say it; of an adjustment: the totals without it. Null for an undo that changes what matches (the
   * pool is matched again), false for one only a run can apply (a line read by hand, a rule's decision).
   */
  private undoInPlace(
    session: SessionInfo,
    undo: Extract<DecisionEvent, { kind: 'undo' }>,
    next: Totals,
    after: FoldedDecisions | null
  ): ReconItem | boolean | null {
    const { kind, undoes, itemKey } = undo.payload
    if (kind === 'adjust') {
      const undone = sessionEventsKept(this.ctx.db, session.id).find((e) => e.seq === undoes)
      if (undone?.kind !== 'adjust') return false
      next.adjust(undone.payload.currency, -undone.payload.amountMinor)
      this.storeTotals(session, next)
      return true
    }
    // A rule's decision taken back: its pairing's pin (the pool matched again), or its classification or leaving out (the
    // line's annotation as the events now say it, the rule's reason gone); the line is never decided by a rule again.
    let ruleSaid: string | null = null
    if (kind === 'rule') {
      const undone = sessionEventsKept(this.ctx.db, session.id).find((e) => e.seq === undoes)
      if (undone?.kind !== 'rule') return false
      if (undone.payload.action === 'pair') return null
      ruleSaid = ruleReason(ruleMark(undone.payload))
    } else if (!ANNOTATIONS.has(kind)) return POOL_KINDS.has(kind) ? null : false
    const found = itemKey === undefined ? null : this.items.withPosition(session.id, itemKey)
    if (!found) return false
    const said = (after ?? foldSession(this.ctx.db, session.id)).notes.get(found.item.key)
    return this.replaceItem(session, next, found.position, found.item, {
      ...found.item,
      ...(ruleSaid !== null ? { reasons: found.item.reasons.filter((r) => r !== ruleSaid) } : {}),
      note: said?.note ?? null,
      reasonCode: said?.reasonCode ?? null,
      resolved: said?.resolved ?? false,
      decidedBy: said?.by ?? null,
      decidedAt: said?.at ?? null
    })
  }

  /**
   * Whether anything still open in the session could have met the item's members in the matching.
   * Taken by a decision, they leave the pool before the suggestions are scored (a group's members
   * before the 1:1 suggestions too): only a record or line that was a candidate of theirs (an amount
   * within the tolerance, a day within the window), or a rival of such a candidate, can be matched
   * otherwise. So: an item of the open pool in their currency holding an amount within three
   * tolerances of one of theirs (as read gross or net of fees), dated within twice the window. A group
   * (several members on a side) was found after the 1:1 suggestions, its records candidates of every
   * line searched for a sum before it, whatever its amount: any open item in those days counts.
   */
  private openNearby(session: SessionInfo, item: ReconItem, totals: SummaryTotals): boolean {
    const { settings } = session
    const window = settings.daysBefore + settings.daysAfter
    const readings = (p: ReconItem['provider'][number]): number[] =>
      settings.netOfFees ? [expectedAmount(p, true)] : [p.amountMinor, expectedAmount(p, true)]
    const ours = [
      ...item.provider.map((p) => ({ currency: p.currency, day: p.date, amounts: readings(p) })),
      ...item.file.map((f) => ({ currency: f.currency, day: f.date, amounts: [f.amountMinor] }))
    ]
    const days = ours.map((x) => x.day).sort()
    // An item is found by its first line's day (else its record's), and its other side lies up to a window from it.
    const from = shiftDay(days[0] as string, -3 * window)
    const to = shiftDay(days[days.length - 1] as string, 3 * window)
    for (const currency of new Set(ours.map((x) => x.currency))) {
      let tolerance: number
      try {
        tolerance = Math.abs(parseMajor(settings.amountTolerance, currency))
      } catch {
        tolerance = 0
      }
      const group = item.provider.length > 1 || item.file.length > 1
      const near = (amount: number, day: string): boolean =>
        ours.some(
          (o) =>
            o.currency === currency &&
            Math.abs(dayNumber(o.day) - dayNumber(day)) <= 2 * window &&
            (group || o.amounts.some((a) => Math.abs(a - amount) <= 3 * tolerance))
        )
      const amounts = ours.filter((o) => o.currency === currency).flatMap((o) => o.amounts)
      const low = group ? Number.MIN_SAFE_INTEGER : Math.min(...amounts) - 3 * tolerance
      const high = group ? Number.MAX_SAFE_INTEGER : Math.max(...amounts) + 3 * tolerance
      // A record's net reading differs from its amount only when it has fees: none in the pool, none to look for.
      const pool = totals.currencies.find((c) => c.currency === currency)?.outcomes
      // No single fee is larger than all the pool's together (totals kept before fees were: any size).
      const fees = POOL_OUTCOMES.reduce((sum, o) => sum + Math.abs(pool?.[o].feesMinor ?? Infinity), 0)
      const netFeesUpTo = fees === 0 ? null : Math.min(fees, Number.MAX_SAFE_INTEGER)
      for (const other of this.items.openNear(session.id, item.key, { currency, fromDay: from, toDay: to, low, high, netFeesUpTo })) {
        if (other.file.some((f) => f.currency === currency && near(f.amountMinor, f.date))) return true
        if (other.provider.some((p) => p.currency === currency && readings(p).some((a) => near(a, p.date)))) return true
      }
    }
    return false
  }

  /** The audit event a decision is kept as, read against the session's last run (a team member's decision is sent as this). */
  body(sessionId: string, decision: Decision): DecisionEvent {
    return this.decisionEvent(this.sessions.open(sessionId), decision)
  }

  /** The event a decision is kept as: checked against the session's last run, with the members it is about. */
  private decisionEvent(session: SessionInfo, given: Decision): DecisionEvent {
    const item = (key: string): ReconItem => {
      const found = this.items.get(session.id, key)
      if (!found) throw new AppError('item_not_found', `No item "${key}" in the session's last run; run it again and pick the item anew.`)
      return found
    }
    // An item named by its short key is kept by its full one: the events, the fold and every computer read that.
    const decision: Decision = 'itemKey' in given && given.itemKey ? { ...given, itemKey: item(given.itemKey).key } : given
    const members = (it: ReconItem): DecidedMembers => ({
      providerIds: it.provider.map((p) => p.id),
      fileIds: it.file.map((f) => f.id),
      itemKey: it.key
    })
    switch (decision.kind) {
      case 'accept': {
        const it = item(decision.itemKey)
        if (it.outcome !== 'suggested')
          throw new AppError('not_a_suggestion', `Only a suggestion can be accepted; this item is ${it.outcome}.`)
        return { kind: decision.kind, payload: members(it) }
      }
      case 'reject': {
        const it = item(decision.itemKey)
        if (it.outcome !== 'suggested')
          throw new AppError('not_a_suggestion', `Only a suggestion can be rejected; this item is ${it.outcome} (use unmatch for a match).`)
        return { kind: decision.kind, payload: members(it) }
      }
      case 'unmatch': {
        const it = item(decision.itemKey)
        if (it.provider.length === 0 || it.file.length === 0 || it.outcome === 'suggested' || it.outcome === 'ambiguous') {
          throw new AppError('not_matched', `Only a match can be undone; this item is ${it.outcome}.`)
        }
        return { kind: decision.kind, payload: members(it) }
      }
      case 'match': {
        if (decision.providerIds.length === 0 || decision.fileIds.length === 0)
          throw new AppError('invalid_match', 'A match needs at least one provider record and one file line.')
        if (decision.providerIds.length > 1 && decision.fileIds.length > 1)
          throw new AppError('invalid_match', 'Match one to one, one to many or many to one; not many to many.')
        const keys = new Set<string>()
        const found = new Set<string>()
        for (const it of this.items.containing(session.id, decision.providerIds, decision.fileIds)) {
          keys.add(it.key)
          for (const p of it.provider) if (decision.providerIds.includes(p.id)) found.add(p.id)
          for (const f of it.file) if (decision.fileIds.includes(f.id)) found.add(f.id)
        }
        const missing = [...decision.providerIds, ...decision.fileIds].filter((id) => !found.has(id))
        if (missing.length > 0) throw new AppError('item_not_found', `Not in the session's last run: ${missing.slice(0, 5).join(', ')}.`)
        return {
          kind: 'match',
          payload: {
            providerIds: [...decision.providerIds].sort(),
            fileIds: [...decision.fileIds].sort(),
            itemKey: pairKey(decision.providerIds, decision.fileIds),
            replaces: [...keys].sort()
          }
        }
      }
      case 'note':
        item(decision.itemKey)
        return { kind: 'note', payload: { itemKey: decision.itemKey, note: decision.note } }
      case 'reason':
        item(decision.itemKey)
        return { kind: 'reason', payload: { itemKey: decision.itemKey, code: decision.code } }
      case 'resolve':
        item(decision.itemKey)
        return { kind: 'resolve', payload: { itemKey: decision.itemKey, resolved: decision.resolved } }
      case 'undo': {
        const events = sessionEventsKept(this.ctx.db, session.id)
        const undone = undoneEvents(events)
        const last = events.filter((e) => UNDOABLE_KINDS.includes(e.kind) && !undone.has(e.seq)).pop()
        if (!last) throw new AppError('nothing_to_undo', 'There is no decision to undo in this session.')
        const { itemKey } = eventSubjects(last)
        return { kind: 'undo', payload: { undoes: last.seq, kind: last.kind, ...(itemKey !== null ? { itemKey } : {}) } }
      }
      case 'fix': {
        const line = notReadLine(item(decision.itemKey))
        let amountMinor: number
        try {
          amountMinor = parseMajor(decision.amount, decision.currency.toUpperCase())
        } catch (error) {
          throw new AppError('invalid_amount', `The amount of ${line.name}: ${(error as Error).message}`)
        }
        if (!isKnownCurrency(decision.currency.toUpperCase()))
          throw new AppError('invalid_currency', `"${decision.currency}" is not an ISO 4217 currency code.`)
        return {
          kind: 'fix',
          payload: {
            itemKey: decision.itemKey,
            lineId: line.id,
            fileId: line.fileId,
            line: line.line,
            date: decision.date,
            amount: decision.amount,
            amountMinor,
            currency: decision.currency.toUpperCase()
          }
        }
      }
      case 'exclude': {
        const line = notReadLine(item(decision.itemKey))
        if (decision.reason.trim() === '') throw new AppError('reason_required', `Leaving ${line.name} out needs a reason.`)
        return {
          kind: 'exclude',
          payload: { itemKey: decision.itemKey, fileId: line.fileId, line: line.line, reason: decision.reason.trim() }
        }
      }
      case 'adjust': {
        if (decision.itemKey) item(decision.itemKey)
        let amountMinor: number
        try {
          amountMinor = parseMajor(decision.amount, decision.currency.toUpperCase())
        } catch (error) {
          throw new AppError('invalid_amount', `Adjustment amount: ${(error as Error).message}`)
        }
        if (decision.reason.trim() === '') throw new AppError('reason_required', 'An adjustment needs a reason.')
        return {
          kind: 'adjust',
          payload: {
            currency: decision.currency.toUpperCase(),
            amountMinor,
            amount: decision.amount,
            reason: decision.reason.trim(),
            ...(decision.itemKey ? { itemKey: decision.itemKey } : {})
          }
        }
      }
    }
  }

  /** What accepting every suggestion above a score would take: how many, and the file's total per currency (shown before the user confirms). */
  previewAcceptAll(
    sessionId: string,
    filter: ItemFilter,
    minScore: number,
    groups = false
  ): { count: number; groups: number; totals: { currency: string; fileMinor: number; providerMinor: number }[] } {
    const byCurrency = new Map<string, { currency: string; fileMinor: number; providerMinor: number }>()
    const found = this.items.suggestionsAbove(sessionId, filter, minScore, groups)
    for (const item of found) {
      const currency = item.file[0]?.currency ?? item.provider[0]?.currency ?? ''
      const t = byCurrency.get(currency) ?? { currency, fileMinor: 0, providerMinor: 0 }
      t.fileMinor += item.file.reduce((sum, f) => sum + f.amountMinor, 0)
      t.providerMinor += item.provider.reduce((sum, p) => sum + p.amountMinor, 0)
      byCurrency.set(currency, t)
    }
    return {
      count: found.length,
      groups: found.filter((i) => i.score === null).length,
      totals: [...byCurrency.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1))
    }
  }

  /** Accepts every suggestion above a score that the filter shows, each as its own decision (and audit event), in place. */
  async acceptAll(
    sessionId: string,
    filter: ItemFilter,
    minScore: number,
    groups = false
  ): Promise<{ accepted: number; session: SessionInfo }> {
    this.sessions.open(sessionId)
    const suggestions = this.items.suggestionsAbove(sessionId, filter, minScore, groups)
    // Each applied to its own item while it can be; once one cannot, the rest are kept as events and the open pool is matched
    // again once for all of them (else the session is run once).
    let k = 0
    let from = 0
    for (; k < suggestions.length; k++) {
      const { inPlace, seq } = this.decideWithoutRun(sessionId, { kind: 'accept', itemKey: (suggestions[k] as ReconItem).key }, false)
      from = seq
      if (!inPlace) break
    }
    if (k < suggestions.length) {
      const session = this.sessions.open(sessionId)
      const matched = this.ctx.db.transaction(() => {
        for (const item of suggestions.slice(k + 1)) {
          const decision: Decision = { kind: 'accept', itemKey: item.key }
          this.refuseLocked(session, decision)
          this.ctx.record(sessionId, this.decisionEvent(session, decision))
        }
        const events = sessionEventsKept(this.ctx.db, sessionId)
        const before = foldEvents(events.filter((e) => e.seq < from))
        return session.lastRunAt !== null && this.pool.apply(session, before, foldEvents(events)) === null
      })()
      if (!matched) await this.runs.run(sessionId)
    }
    return { accepted: suggestions.length, session: this.sessions.get(sessionId) }
  }
}

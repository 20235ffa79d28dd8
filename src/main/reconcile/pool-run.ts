// Decisions that change what else can match (reject, match, unmatch, undo, an accept near open items), applied without a full run: the engine again over the open pool a run's exact keys left, its answer put in place of the pool's items.
import { pairKey, type FeeBasis, type FileSide, type ProviderSide, type ReconItem, type SessionInfo } from '../../shared/reconcile'
import type { ReconContext } from './context'
import { runMatch } from './engine'
import { engineFileRow, engineProvider } from './engine-sides'
import { sessionEventsKept } from './audit'
import { foldEvents, type FoldedDecisions } from './fold'
import type { MirroredItems, RecordKeys, SessionItems } from './items'
import type { EngineFileRow, EngineProvider, Party, PinnedMatch } from './match/types'
import { rematchPool, type LastItem, type Rematched } from './match/rematch'
import { moneyOf } from './match/state'
import { mayHoldKey } from './key-filter'
import { lineKeys, PoolArrays, type Slot } from './pool-arrays'
import { loadProviderSide, outsideThePeriod, recordParties, shiftDay } from './provider-side'
import { normaliseReference } from './references'
import { fileNamesOf, filePagesOf } from './report'
import { ruleApplications, ruledLines, ruleMayDecide } from './rules/applications'
import { PairingIndex } from './rules/pairing-index'
import { freeForPairing, openForRule } from './rules/preview'
import { keepingSettled, markRulesSettled, rulesKnownSettled } from './rules/settled'
import { sessionRules } from './rules/store'
import type { StoredRule } from '../../shared/rules'
import type { AuditEntry, AuditPayloads } from '../../shared/reconcile-events'
import { materialise, onTheBasis, outsideLeftOpen, type Runs } from './runs'
import { Totals, totalsBasis } from './totals'

/** Outcomes a 1:1 match by key can have. */
const KEY_MATCH_OUTCOMES = new Set(['matched', 'amount_differs', 'status_differs', 'currency_differs'])

/** Why the pool cannot be matched again in place (the session is run instead): for tests and the bench. */
export type PoolRunRefusal = string

/**
 * The engine's phases after the exact keys (1:1 suggestions, groups by sum, what is left) read only
 * the records and lines the keys and the decisions left open: the items of POOL_OUTCOMES, and the
 * records from just outside the period that no item holds. A decision that changes only which of
 * those are open (a pair rejected, records and lines pinned by a match) or frees members the keys
 * cannot take (a pin taken back, a match by key unmatched, when no line names the freed records by
 * their keys) leaves every other item as it was; matching the pool again, with the same learned
 * evidence and the session's fee basis, makes the very items a full run makes of it.
 */
export class PoolRuns {
  constructor(
    private readonly ctx: ReconContext,
    private readonly items: SessionItems,
    private readonly runs: Runs
  ) {}

  /**
   * Matches the open pool again after a decision already kept as an event, and stores the answer in
   * place of the pool's items (in the caller's transaction): null when done, else why a run must do it.
   * `before` and `after`: what the session's own events decided without the decision and with it (a
   * pulled decision may have later ones kept already, not yet applied).
   */
  apply(session: SessionInfo, before: FoldedDecisions, after: FoldedDecisions): PoolRunRefusal | null {
    return this.applyRound(session, before, after, false)
  }

  /**
   * One round of apply: the decision, or (`pairsOnly`) the pairings the rules made of the last round's answer, which the
   * rules decided nothing else of; each round's pairings are matched in the next, as a run matches them again.
   */
  private applyRound(session: SessionInfo, before: FoldedDecisions, after: FoldedDecisions, pairsOnly: boolean): PoolRunRefusal | null {
    if (session.lastRunAt === null) return 'no run yet'
    // A virtual account's further keys (its number) are not kept with the items.
    if (session.source === 'virtual-accounts') return 'virtual accounts'
    const stored = this.items.storedSummary(session.id)
    const basis = stored?.totals.facts?.basis
    if (!stored || !basis) return 'no totals kept'
    if (JSON.stringify(stored.settings) !== JSON.stringify(session.settings)) return 'settings changed since the run'
    // Enabled rules act on what a run leaves open: those of the lines left open here, as a run would (below). A rule that
    // decides a line by itself reads only the lines made now; a pairing rule, every free record of the session too.
    const rules = sessionRules(this.ctx.db, session)
    const pairing = rules.some((r) => r.rule.action.type === 'pair')
    const outsideIds = this.items.outsideOpen(session.id)
    const keys = this.items.recordKeys(session.id)
    if (outsideIds === null || keys === null) return 'run before outside records and keys were kept'

    const was = this.runs.withLearned(session, before)
    const now = this.runs.withLearned(session, after)
    const pinsBefore = byPair(was.engine.pinned)
    const pinsNow = byPair(now.engine.pinned)
    const pinsAdded = [...pinsNow].filter(([k, p]) => pinsBefore.get(k)?.kind !== p.kind).map(([, p]) => p)
    const pinsRemoved = [...pinsBefore].filter(([k, p]) => pinsNow.get(k)?.kind !== p.kind).map(([, p]) => p)
    const dismissedAdded = [...now.engine.dismissed].filter((k) => !was.engine.dismissed.has(k))
    const dismissedRemoved = [...was.engine.dismissed].filter((k) => !now.engine.dismissed.has(k))

    const mirrored = this.items.mirrored(session.id)
    const { poolOf } = mirrored
    // The lines a rule decided before, read once for both uses below.
    const ruled = rules.length > 0 ? ruledLines(sessionEventsKept(this.ctx.db, session.id)) : new Set<string>()
    if (!pairsOnly && !this.rulesSettled(mirrored, rules, ruled, pairing)) return 'an open line an enabled rule would decide'
    const pool = PoolArrays.of(mirrored, session)

    // Items leaving the pinned or keyed part: a pin taken back, a match by key unmatched.
    const released = new Map<string, { position: number; item: ReconItem }>()
    for (const pin of pinsRemoved) {
      const key = pairKey(pin.providerIds, pin.fileIds)
      const found = this.items.withPosition(session.id, key)
      if (!found || found.item.decision !== pin.kind) return 'a pin taken back that no item shows'
      released.set(key, found)
    }
    // The groups the keys made of a line naming several records in its words (match/keys.ts), unmatched: by line, its records.
    const groups = new Map<string, ReadonlySet<string>>()
    for (const key of dismissedAdded) {
      if (released.has(key)) continue
      const found = this.items.withPosition(session.id, key)
      if (found && poolOf.get(memberIds(found.item)[0] as string)?.key === key) continue
      if (found) {
        const { item } = found
        const byKey =
          item.decision === null &&
          KEY_MATCH_OUTCOMES.has(item.outcome) &&
          item.provider.length === 1 &&
          item.file.length === 1 &&
          !item.file[0]?.notRead
        const described =
          item.decision === null &&
          KEY_MATCH_OUTCOMES.has(item.outcome) &&
          item.provider.length > 1 &&
          item.file.length === 1 &&
          !item.file[0]?.notRead
        if (!byKey && !described) return `a dismissed ${item.outcome} item the keys may make again`
        if (described) groups.set((item.file[0] as FileSide).id, new Set(item.provider.map((p) => p.id)))
        released.set(key, found)
      } else if (!idsOfKey(key).every((id) => poolOf.has(id))) return 'a dismissed pair outside the pool'
    }
    // A pin of a member the keys made a duplicate (a line naming a record another line has, a record whose reference another
    // holds first): claimed by the decision before the keys look, it is no one's duplicate, and nothing else they made
    // changes (the record's line keeps it; the first record keeps the reference). Its item goes; any other member outside
    // the pool, a run says.
    const pinnedDuplicates = new Set<string>()
    for (const pin of pinsAdded) {
      const members = [
        ...pin.providerIds.map((id) => ({ id, key: pairKey([id], []), outcome: 'duplicate_in_provider' })),
        ...pin.fileIds.map((id) => ({ id, key: pairKey([], [id]), outcome: 'duplicate_in_file' }))
      ]
      for (const { id, key, outcome } of members) {
        if (poolOf.has(id)) continue
        const found = released.has(key) ? null : this.items.withPosition(session.id, key)
        if (found?.item.outcome !== outcome || found.item.file.some((f) => f.notRead)) return 'a pin of members outside the pool'
        released.set(key, found)
        pinnedDuplicates.add(id)
      }
    }
    // A line naming a record by its key again (a pair of keys no longer dismissed: an unmatch undone; or a line freed, a match
    // by hand undone) whose record the keys paired since with another line naming it (when the first was the only one, or
    // a duplicate): both lines name it, which the keys settle (match/keys.ts, the nearest first, the other a duplicate).
    // That pair's item is taken out, and the three made again below.
    const contested = new Map<string, { record: ProviderSide; lines: FileSide[] }>()
    const freedRecord = (id: string): boolean => [...released.values()].some(({ item }) => item.provider.some((p) => p.id === id))
    const contestAgain = (r: string, line: FileSide): void => {
      if (poolOf.has(r) || contested.has(r) || freedRecord(r) || now.engine.dismissed.has(pairKey([r], [line.id]))) return
      const [holder, ...more] = this.items.containing(session.id, [r], [])
      const other = holder?.file[0]
      if (!holder || more.length > 0 || !other || other.notRead || holder.decision !== null || !KEY_MATCH_OUTCOMES.has(holder.outcome))
        return
      const record = holder.provider[0] as ProviderSide
      const named = (l: FileSide): boolean => keysOf(record).some((k) => lineKeys(l).has(k))
      if (holder.provider.length !== 1 || holder.file.length !== 1 || other.id === line.id || !named(other) || !named(line)) return
      const found = this.items.withPosition(session.id, holder.key)
      if (!found) return
      released.set(holder.key, found)
      contested.set(r, { record, lines: [line, other] })
    }
    for (const key of dismissedRemoved) {
      const [ps, fs] = membersOfKey(key)
      const line = poolOf.get(fs[0] as string)?.file.find((l) => l.id === fs[0])
      if (ps.length === 1 && fs.length === 1 && line) contestAgain(ps[0] as string, line)
    }
    for (const { item } of [...released.values()])
      for (const f of item.file) {
        if (pinnedDuplicates.has(f.id) || groups.has(f.id) || f.notRead) continue
        const named = this.recordsNamed(session, f, keys, [])
        if (typeof named !== 'string' && named.size === 1) contestAgain([...named][0] as string, f)
      }
    const contestedIds = new Set([...contested.values()].flatMap(({ record, lines }) => [record.id, ...lines.map((l) => l.id)]))
    const releasedRecords = [...released.values()].flatMap(({ item }) => item.provider)
    const releasedLines = [...released.values()].flatMap(({ item }) => item.file)
    const releasedIds = new Set([...releasedRecords.map((p) => p.id), ...releasedLines.map((f) => f.id)])
    // A pin the freed members were kept from (it shares one with a pin taken back) may now hold: a run decides.
    for (const pin of now.engine.pinned)
      if (!pinsAdded.includes(pin) && [...pin.providerIds, ...pin.fileIds].some((id) => releasedIds.has(id)))
        return 'another pin holds a freed member'
    for (const key of dismissedRemoved) {
      const ids = idsOfKey(key)
      if (!ids.every((id) => poolOf.has(id) || releasedIds.has(id))) return 'a pair no longer dismissed outside the pool'
    }

    // The keys must leave the freed members open: no freed line names a record by its key (other than
    // one it is dismissed with; the run's filter of its records' keys says surely not), and no line that
    // can name one names a freed record.
    const dismissedWith = (recordId: string, lineId: string): boolean => now.engine.dismissed.has(pairKey([recordId], [lineId]))
    for (const f of releasedLines) {
      if (pinnedDuplicates.has(f.id) || contestedIds.has(f.id)) continue
      // The records the line's keys name: none, or one it is dismissed with (two would make it a line naming several, which the keys match together).
      const records = this.recordsNamed(session, f, keys, releasedRecords)
      if (typeof records === 'string') return records
      // A group's line names just its records, as when the keys grouped them: unmatched, the group is not made again.
      const group = groups.get(f.id)
      if (group) {
        if (records.size !== group.size || [...records].some((id) => !group.has(id))) return 'a freed line names a record by its key'
        continue
      }
      if (records.size > 1 || [...records].some((id) => !dismissedWith(id, f.id))) return 'a freed line names a record by its key'
    }
    // The lines that may name a record by its key (those the keys or the reading of a file made items of, the pool's and
    // the freed), of those that name any of `keys`.
    const linesNaming = (keys: Iterable<string>): FileSide[] => [...pool.linesNaming(keys), ...releasedLines]
    // A line the keys made a duplicate (its record was another line's) may be the one line naming the freed record now:
    // the keys then pair them, as below. Any other line naming a freed record, a run says.
    const duplicates = new Map<string, { record: ProviderSide; line: FileSide; found: { position: number; item: ReconItem } }>()
    if (releasedRecords.length > 0) {
      const freedKeys = new Map<string, ProviderSide>()
      for (const p of releasedRecords)
        if (!pinnedDuplicates.has(p.id) && !contestedIds.has(p.id)) for (const k of keysOf(p)) freedKeys.set(k, p)
      for (const f of linesNaming(freedKeys.keys()))
        for (const k of lineKeys(f)) {
          const record = freedKeys.get(k)
          if (
            record === undefined ||
            dismissedWith(record.id, f.id) ||
            groups.get(f.id)?.has(record.id) === true ||
            duplicates.get(f.id)?.record === record
          )
            continue
          const found = this.items.withPosition(session.id, pairKey([], [f.id]))
          if (duplicates.has(f.id) || found?.item.outcome !== 'duplicate_in_file') return 'a line names a freed record by its key'
          duplicates.set(f.id, { record, line: f, found })
        }
    }
    // And a pair no longer dismissed is no pair of keys; or, when it is (an unmatch of a match by key undone), the keys
    // make it again just as they did: its line names no other record, no other line names its record, no pin holds either.
    // So too a group the keys made of a line naming its records in its words (match/keys.ts), its unmatch undone.
    const rekeyed: { records: ProviderSide[]; lines: FileSide[] }[] = []
    for (const { record, lines } of contested.values()) {
      const recordKeysOf = keysOf(record)
      const refused = this.keysMakeAgain(session, [record], lines, recordKeysOf, now.engine.pinned, keys, linesNaming(recordKeysOf))
      if (refused !== null) return refused
      rekeyed.push({ records: [record], lines })
    }
    for (const key of dismissedRemoved) {
      const [ps, fs] = membersOfKey(key)
      if (fs.length !== 1 || ps.length === 0 || contested.has(ps[0] as string)) continue
      const line = poolOf.get(fs[0] as string)?.file.find((f) => f.id === fs[0]) ?? releasedLines.find((f) => f.id === fs[0])
      const records = ps.flatMap(
        (id) => poolOf.get(id)?.provider.find((p) => p.id === id) ?? releasedRecords.find((p) => p.id === id) ?? []
      )
      if (!line || records.length !== ps.length) return 'a pair no longer dismissed outside the pool'
      const named = lineKeys(line)
      const recordKeysOf = records.flatMap(keysOf)
      if (!recordKeysOf.some((k) => named.has(k))) continue
      // A group's line names each of its records (else the keys make another group of it, or a pair).
      if (records.length > 1 && records.some((p) => !keysOf(p).some((k) => named.has(k)))) return 'a group the keys may make again'
      const refused = this.keysMakeAgain(session, records, [line], recordKeysOf, now.engine.pinned, keys, linesNaming(recordKeysOf))
      if (refused !== null) return refused
      rekeyed.push({ records, lines: [line] })
    }
    for (const { record, line, found } of duplicates.values()) {
      const recordKeysOf = keysOf(record)
      const others = linesNaming(recordKeysOf).filter((f) => !dismissedWith(record.id, f.id))
      const refused = this.keysMakeAgain(session, [record], [line], recordKeysOf, now.engine.pinned, keys, others)
      if (refused !== null) return refused
      rekeyed.push({ records: [record], lines: [line] })
      // The duplicate's item goes (its line is paired below, never put in the pool).
      released.set(found.item.key, found)
    }
    const rekeyedIds = new Set(rekeyed.flatMap(({ records, lines }) => [...records, ...lines].map((m) => m.id)))
    if (rekeyedIds.size !== rekeyed.reduce((n, { records, lines }) => n + records.length + lines.length, 0))
      return 'a member in two pairs of keys again'

    // The pool as the engine read it after the keys (without a pair they make again), then the freed and what is open from outside the period.
    const outside = this.outsideRecords(session, outsideIds)
    if (outside === null) return 'an outside record is gone from the cache'
    const freed = [...released.values()].map(({ item }) => item)
    const extended = pool.extend(
      [...freed.flatMap((item) => item.provider.filter((p) => !rekeyedIds.has(p.id)).map((p) => engineProvider(p, session))), ...outside],
      freed.flatMap((item) => item.file.filter((f) => !rekeyedIds.has(f.id)).map(engineFileRow))
    )
    if (!extended) return 'a freed or outside member the pool holds already'
    let made: ReconItem[]
    let outsideOpen: string[]
    let rematched: Rematched | null
    // The seqs of the pairings the rules made here (matched in the next round).
    const pairedAt = new Set<number>()
    try {
      const { records, lines } = pool
      this.setParties(session, pool, now.engine.learned)
      const fileNames = new Map<string, string>()
      for (const f of lines) if (f.carried) fileNames.set(f.fileId, f.carried.file ?? 'an earlier statement')
      for (const [id, name] of fileNamesOf(session)) fileNames.set(id, name)
      const filePages = filePagesOf(session)
      // Only what the decision can reach matched again, when it can be told (else all of the pool).
      const touched = new Set([
        ...releasedIds,
        ...[...pinsAdded, ...pinsRemoved].flatMap((pin) => [...pin.providerIds, ...pin.fileIds]),
        ...[...dismissedAdded, ...dismissedRemoved].flatMap(idsOfKey)
      ])
      rematched = pool.unknownPhases === 0 ? this.rematch(session, pool, now, touched, rekeyedIds, { fileNames, filePages }) : null
      const result =
        rematched?.result ??
        runMatch(
          rekeyedIds.size === 0 ? records : records.filter((r) => !rekeyedIds.has(r.id)),
          rekeyedIds.size === 0 ? lines : lines.filter((f) => !rekeyedIds.has(f.id)),
          session.settings,
          now.engine,
          { fileNames, filePages, keysSettled: true }
        )
      made = materialise(result, now, session, basis as FeeBasis).items
      outsideOpen = rematched?.outsideOpen ?? outsideLeftOpen(result)
      // The lines left open here that an enabled rule decides, decided so, each kept as its event (as a run keeps them).
      const applied =
        rules.length === 0
          ? []
          : pairing
            ? this.pairingApplications(mirrored, pool, rematched, released, made, rules, ruled)
            : ruleApplications(rules, made, ruled)
      for (const payload of applied) {
        const event = this.ctx.record(session.id, { kind: 'rule', payload })
        if (payload.action === 'pair') pairedAt.add(event.seq)
      }
      if (applied.length > 0)
        made = materialise(result, foldEvents(sessionEventsKept(this.ctx.db, session.id)), session, basis as FeeBasis).items
      // Each pair of keys again, as the keys phase makes it (before the pool, which no longer holds it).
      for (const { records, lines } of rekeyed) {
        const keyed = runMatch(
          records.map((p) => engineProvider(p, session)),
          lines.map(engineFileRow),
          session.settings,
          now.engine,
          { fileNames, filePages }
        )
        const items = materialise(keyed, now, session, basis as FeeBasis).items
        // One item of them all (a pair, a group); or, two lines naming one record, the pair and the other line a duplicate.
        const [paired, ...duplicate] = [...items].sort((a, b) => b.provider.length - a.provider.length)
        const pairedLines = lines.filter((l) => paired?.file.some((f) => f.id === l.id))
        const key = pairKey(
          records.map((p) => p.id),
          pairedLines.map((l) => l.id)
        )
        if (
          !paired ||
          paired.key !== key ||
          pairedLines.length !== 1 ||
          !KEY_MATCH_OUTCOMES.has(paired.outcome) ||
          duplicate.length !== lines.length - 1 ||
          duplicate.some((d) => d.outcome !== 'duplicate_in_file' || d.provider.length > 0 || d.file.length !== 1)
        )
          return 'a pair of keys again the keys would not make alone'
        made.push(...items)
      }
    } finally {
      // Before any change reaches the mirror (which the arrays follow).
      pool.trim()
    }

    // What changed: the items no longer made, and those made anew (an item made the same, to its JSON, is left as it is).
    const old = new Map<string, { position: number; data: string; item: ReconItem }>()
    if (rematched) for (const key of rematched.remade) old.set(key, (pool.slots.get(key) as Slot).stored)
    else for (const [key, slot] of pool.slots) old.set(key, slot.stored)
    for (const [key, r] of released) old.set(key, { ...r, data: JSON.stringify(r.item) })
    const same = new Set<string>()
    const added: ReconItem[] = []
    for (const item of made) {
      if (old.get(item.key)?.data === JSON.stringify(item)) same.add(item.key)
      else added.push(item)
    }
    const gone = [...old.values()].filter(({ item }) => !same.has(item.key))
    const next = new Totals(totalsBasis(session), stored.totals)
    for (const { item } of gone) next.add(item, -1)
    for (const item of added) next.add(item)
    const turned = next.basisNet() !== basis.net
    const placed = this.placeAll(session.id, gone, added)
    if (!placed) return 'no room in the order'
    // The statement's basis turned (net of fees or gross): every item read on it is read anew, as a run reads it.
    if (turned) this.restateOnTheBasis(session.id, next)
    this.items.storeTotals(session.id, session.settings, next.result())
    if (JSON.stringify(outsideOpen) !== JSON.stringify(outsideIds)) this.items.storeOutsideOpen(session.id, outsideOpen)
    if (pairedAt.size > 0) {
      PoolRuns.pairingRounds++
      // The rules' pairings matched, as a run matches them again: what they leave open is given the rules in that round.
      const events = sessionEventsKept(this.ctx.db, session.id)
      return this.applyRound(session, foldEvents(events.filter((e) => !pairedAt.has(e.seq))), foldEvents(events), true)
    }
    // The lines left open here were given the rules: none in force would decide an open line, until another change.
    if (rules.length > 0) markRulesSettled(mirrored, rules)
    return null
  }

  /**
   * What the enabled rules, a pairing rule among them, decide of the session's items as the pool's answer leaves them:
   * the items kept, and those made now (a pairing counts every free record of the session). Asked of the lines made now
   * and those whose count of free records the answer changes (PairingIndex), the other lines being settled under the
   * rules before (this round's first, rulesSettled; a later round's, by the round before).
   */
  private pairingApplications(
    mirrored: MirroredItems,
    pool: PoolArrays,
    rematched: Rematched | null,
    released: ReadonlyMap<string, { item: ReconItem }>,
    made: readonly ReconItem[],
    rules: readonly StoredRule[],
    ruled: ReadonlySet<string>
  ): AuditPayloads['rule'][] {
    const gone: ReconItem[] = [...released.values()].map(({ item }) => item)
    for (const key of rematched ? rematched.remade : pool.slots.keys()) {
      const kept = mirrored.items.get(key)
      if (kept && !released.has(key)) gone.push(kept.item)
    }
    return PairingIndex.of(mirrored, rules).applications(gone, made, ruled)
  }

  /**
   * After a change turned the statement's basis (net of fees or gross), every item read on it (a record alone, an item of a
   * line not read) read on the new one, as a run reads it: in place, and in the totals.
   */
  restateOnTheBasis(sessionId: string, next: Totals): void {
    const net = next.basisNet()
    if (net === null) return
    for (const { position, data, item } of this.items.readOnTheBasis(sessionId)) {
      const read = onTheBasis(item, net)
      if (JSON.stringify(read) === data) continue
      next.add(item, -1)
      next.add(read)
      this.items.replaceOne(sessionId, position, read)
    }
  }

  /**
   * Whether an item changed in place (a note, a resolution, an accept with nothing open near it) leaves nothing more for
   * the enabled rules to decide than they had: its own line not opened for a rule (ruleMayDecide), and with a pairing rule,
   * no record freed or taken that leaves exactly one for a line (the rules are then given every item as it would stand).
   */
  leavesRulesAlone(session: SessionInfo, item: ReconItem, replaced: ReconItem): boolean {
    const rules = sessionRules(this.ctx.db, session)
    if (rules.length === 0) return true
    const events = (): readonly AuditEntry[] => sessionEventsKept(this.ctx.db, session.id)
    const pairing = rules.some((r) => r.rule.action.type === 'pair')
    const freeMoved = pairing && item.provider.length > 0 && freeForPairing(item) !== freeForPairing(replaced)
    // Open to the rules as it was (a note, a reason), in items known to leave the rules nothing: still nothing.
    const mirror = this.items.keptMirror(session.id)
    const sameOpen = [true, false].every((pairs) => openForRule(item, pairs) === openForRule(replaced, pairs))
    if (!freeMoved && sameOpen && mirror !== null && rulesKnownSettled(mirror, rules)) return true
    const own = ruleMayDecide(rules, replaced, events)
    if (!own && !freeMoved) return true
    // A rule that decides a line by itself would decide this one; a pairing rule pairs it if exactly one free record has its part.
    if (!pairing) return false
    // Asked of the lines the change may reach when the others are known settled (PairingIndex), else of every item.
    if (mirror !== null && rulesKnownSettled(mirror, rules))
      return PairingIndex.of(mirror, rules).applications([item], [replaced], ruledLines(events())).length === 0
    const standing = [...this.items.mirrored(session.id).items.values()].map(({ item: it }) => (it.key === item.key ? replaced : it))
    return ruleApplications(rules, standing, ruledLines(events())).length === 0
  }

  /**
   * Makes a change to the session's items and totals that leaves no open line an enabled rule would decide (the caller
   * checked each item it changed: Decisions.replaceItem), keeping the open lines settled under the rules across it when
   * they were before (so the next pool decision need not read them all again).
   */
  keepingRulesSettled<T>(sessionId: string, change: () => T): T {
    return keepingSettled(this.items.keptMirror(sessionId), change)
  }

  /**
   * The pool matched again only where the decision reaches (match/rematch.ts), each member checked to be in one item
   * (kept, or made now); null when it cannot be told (the pool is then matched whole).
   */
  private rematch(
    session: SessionInfo,
    pool: PoolArrays,
    now: FoldedDecisions,
    touched: ReadonlySet<string>,
    keyed: ReadonlySet<string>,
    names: { fileNames: ReadonlyMap<string, string>; filePages: ReadonlyMap<string, readonly number[]> }
  ): Rematched | null {
    const { records, lines, pLast, fLast } = pool
    const rematched = rematchPool(records, lines, session.settings, now.engine, names, pLast, fLast, touched, keyed, pool)
    if (typeof rematched === 'string') return null
    const { remade, result } = rematched
    const { items } = result
    const pHeld = new Uint8Array(records.length)
    const fHeld = new Uint8Array(lines.length)
    for (let k = 0; k < items.length; k++) {
      for (const i of items.providers(k)) pHeld[i] = (pHeld[i] as number) + 1
      for (const i of items.files(k)) fHeld[i] = (fHeld[i] as number) + 1
    }
    const kept = (last: LastItem | null): boolean => last !== null && !remade.has(last.key)
    const outsideOpen = new Set(rematched.outsideOpen)
    // A record of an item made anew, or put after the pool's: in one item made now; or in none, when left open from
    // outside the period (then in none), or of another period or whose money failed.
    const recordHeld = (i: number): boolean => {
      const r = records[i] as EngineProvider
      const held = pHeld[i] as number
      return outsideOpen.has(r.id) || keyed.has(r.id)
        ? held === 0
        : held === 1 || (held === 0 && r.outsidePeriod !== true && moneyOf(r.status) === 2)
    }
    let heldOnce = true
    // Each member of an item made now is in no item kept, and in no other item made now.
    for (let k = 0; k < items.length && heldOnce; k++) {
      for (const i of items.providers(k)) if (pHeld[i] !== 1 || kept(pLast[i] as LastItem | null)) heldOnce = false
      for (const i of items.files(k)) if (fHeld[i] !== 1 || kept(fLast[i] as LastItem | null)) heldOnce = false
    }
    for (const key of remade) {
      const slot = pool.slots.get(key)
      if (!slot || !slot.ps.every(recordHeld) || !slot.fs.every((i) => fHeld[i] === (keyed.has((lines[i] as EngineFileRow).id) ? 0 : 1)))
        heldOnce = false
    }
    for (let i = pool.pooledRecords; i < records.length; i++) if (!recordHeld(i)) heldOnce = false
    for (let i = pool.pooledLines; i < lines.length; i++) if (fHeld[i] !== 1) heldOnce = false
    // And no record an item kept holds is left open from outside the period.
    if (outsideOpen.size > 0)
      for (let i = 0; i < pool.pooledRecords; i++)
        if (
          (records[i] as EngineProvider).outsidePeriod === true &&
          outsideOpen.has((records[i] as EngineProvider).id) &&
          kept(pLast[i] as LastItem | null)
        )
          heldOnce = false
    if (heldOnce) return rematched
    // Never so unless the replay is wrong: the pool is matched whole, and the tests count it.
    PoolRuns.replayMismatches++
    return null
  }

  /**
   * Whether no enabled rule would decide a line the stored items leave open (a run then decides nothing they do not
   * show): read again unless known since the last change under the same rules (rules/settled.ts: a run, this path, or a
   * change that checked what it changed; any other change, or a change of the rules, may leave one).
   */
  private rulesSettled(mirrored: MirroredItems, rules: readonly StoredRule[], ruled: ReadonlySet<string>, pairing: boolean): boolean {
    if (rules.length === 0 || rulesKnownSettled(mirrored, rules)) return true
    PoolRuns.openLinesRead++
    // A pairing rule counts the free records too: every item mirrored (the open pool's, and lines the keys made).
    const open = [...mirrored.items.values()].map((s) => s.item).filter((item) => pairing || item.outcome === 'only_in_file')
    return ruleApplications(rules, open, ruled).length === 0
  }

  /** How many times the open lines were read for a rule that would decide one (the tests count that a decision made otherwise spares it). */
  static openLinesRead = 0

  /** How many times pairings a rule made were matched in place (the property tests expect some). */
  static pairingRounds = 0

  /** How many replays were refused for a member held by no item or by two (the property tests expect none). */
  static replayMismatches = 0

  /** Sets each record's party under what was learned, or takes the parties off when nothing is learned. */
  private setParties(session: SessionInfo, pool: PoolArrays, learned: object | undefined): void {
    if (!learned && !pool.partied) return
    const parties = learned ? this.partiesOf(session, pool.records, learned) : new Map<string, Party>()
    for (const r of pool.records) {
      const party = parties.get(r.id)
      if (party) r.party = party
      else delete r.party
    }
    pool.partied = learned !== undefined
  }

  /** The records' parties (learned evidence is kept by them), read once for each state of what was learned (a sync changes it). */
  private partiesOf(session: SessionInfo, records: readonly EngineProvider[], learned: object): Map<string, Party> {
    let known = PARTIES.get(learned)
    if (!known || known.session !== session.id) PARTIES.set(learned, (known = { session: session.id, parties: new Map(), read: new Set() }))
    const unread = records.map((r) => r.id).filter((id) => !known.read.has(id))
    if (unread.length > 0) {
      for (const [id, party] of recordParties(this.ctx.db, session.profileId, session.source, unread)) known.parties.set(id, party)
      for (const id of unread) known.read.add(id)
    }
    return known.parties
  }

  /**
   * The record of the session's last run whose reference is `key` as the line writes it (its
   * reference column, or a word of its text), when exactly one such payment is in the cache and an
   * item of the session holds it (so the run read it); null otherwise, or for another source.
   */
  private recordByReference(session: SessionInfo, f: FileSide, key: string): string | null {
    if (session.source !== 'payments') return null
    const written = [f.reference ?? '', ...`${f.description ?? ''} ${f.reference ?? ''}`.split(/[\s,;|()[\]{}"']+/)]
      .map((w) => w.trim())
      .filter((w) => w !== '' && normaliseReference(w) === key)
    const ids = new Set<string>()
    const find = this.ctx.db.prepare('select id, reference from payments where profile_id = ? and reference = ?').raw(true)
    for (const w of new Set(written))
      for (const [id, reference] of find.all(session.profileId, w) as [string, string][])
        if (normaliseReference(reference) === key) ids.add(id)
    const [id] = ids
    if (ids.size !== 1 || id === undefined) return null
    return this.items.holdsRecord(session.id, id) ? id : null
  }

  /**
   * The records a line names by its keys (a freed record holding the key, else the one payment of that reference an item
   * holds), or why the keys must decide: a key two records hold, or one its filter cannot rule out that no one record answers.
   */
  private recordsNamed(
    session: SessionInfo,
    f: FileSide,
    recordKeys: RecordKeys,
    freed: readonly ProviderSide[]
  ): Set<string> | PoolRunRefusal {
    const records = new Set<string>()
    for (const k of lineKeys(f)) {
      // Surely no record of the run holds it; or two do (the key is no one's, or the first's by content): the keys decide.
      if (!mayHoldKey(recordKeys.filter, k)) continue
      if (recordKeys.twice.has(k)) return 'a freed line names a key two records hold'
      const held = freed.find((p) => keysOf(p).includes(k))?.id ?? this.recordByReference(session, f, k)
      if (held === null) return 'a freed line names a record by its key'
      records.add(held)
    }
    return records
  }

  /**
   * Why the keys might not make `records` (one, or a group its line names in its words) and `lines` (one; or two naming one
   * record, which the keys settle) items again on their own (null: they would): a pin holds one, a line names another record
   * (or a key two records hold, or one its filter cannot rule out), or another line names one of the records.
   */
  private keysMakeAgain(
    session: SessionInfo,
    records: readonly ProviderSide[],
    lines: readonly FileSide[],
    keys: readonly string[],
    pinned: readonly PinnedMatch[],
    recordKeys: RecordKeys,
    otherLines: Iterable<FileSide>
  ): PoolRunRefusal | null {
    if (lines.some((line) => line.notRead)) return 'a pair of keys again with a line not read'
    if (pinned.some((pin) => records.some((p) => pin.providerIds.includes(p.id)) || lines.some((l) => pin.fileIds.includes(l.id))))
      return 'a pair of keys again a pin holds'
    for (const line of lines)
      for (const k of lineKeys(line)) {
        if (keys.includes(k)) {
          if (recordKeys.twice.has(k)) return 'a pair of keys again whose key two records hold'
          continue
        }
        if (!mayHoldKey(recordKeys.filter, k)) continue
        // One record's line may name it by a key its filter cannot tell from its own; a group's names no other.
        if (recordKeys.twice.has(k) || records.length > 1 || this.recordByReference(session, line, k) !== records[0]?.id)
          return 'a pair of keys again whose line names another record'
      }
    for (const f of otherLines)
      if (!lines.some((l) => l.id === f.id) && [...lineKeys(f)].some((k) => keys.includes(k)))
        return 'another line names the record of a pair of keys again'
    return null
  }

  /** Takes the gone items out and puts the new ones in their places, all or nothing (false: no room between two neighbours). */
  private placeAll(sessionId: string, gone: readonly { position: number }[], added: readonly ReconItem[]): boolean {
    try {
      this.ctx.db.transaction(() => {
        for (const { position } of gone) this.items.remove(sessionId, position)
        for (const item of added) if (!this.items.insertInOrder(sessionId, item)) throw new NoRoom()
      })()
      return true
    } catch (error) {
      if (error instanceof NoRoom) return false
      throw error
    }
  }

  /**
   * The records from just outside the period that the last run left to no item, read as a run reads
   * them (from the session's snapshot when it has one): null when one of them is no longer there.
   */
  private outsideRecords(session: SessionInfo, ids: readonly string[]): EngineProvider[] | null {
    if (ids.length === 0) return []
    const wanted = new Set(ids)
    const snapshot = this.ctx.db.prepare('select side from recon_provider_snapshots where session_id = ?').pluck().get(session.id) as
      string | undefined
    let found: EngineProvider[]
    if (snapshot !== undefined) found = (JSON.parse(snapshot) as { records: EngineProvider[] }).records.filter((r) => wanted.has(r.id))
    else {
      const read = (from: string, to: string): EngineProvider[] =>
        from > to
          ? []
          : loadProviderSide(this.ctx.db, {
              profileId: session.profileId,
              source: session.source,
              filter: session.filter,
              from,
              to,
              timeZone: session.timeZone
            }).records
      // The days a run reads past the period (sessionProviderSide): daysAfter before it, daysBefore after it.
      const { daysAfter, daysBefore } = session.settings
      found = [
        ...read(shiftDay(session.from, -daysAfter), shiftDay(session.from, -1)),
        ...read(shiftDay(session.to, 1), shiftDay(session.to, daysBefore))
      ].filter((r) => wanted.has(r.id))
    }
    for (const r of found) r.outsidePeriod = outsideThePeriod(session.source, r.day, session)
    return found.length === ids.length && found.every((r) => r.outsidePeriod) ? found : null
  }
}

class NoRoom extends Error {}

/** The parties read for a session's records, by the state of what was learned they were read under. */
const PARTIES = new WeakMap<object, { session: string; parties: Map<string, Party>; read: Set<string> }>()

function byPair(pins: readonly PinnedMatch[]): Map<string, PinnedMatch> {
  return new Map(pins.map((p) => [pairKey(p.providerIds, p.fileIds), p]))
}

function memberIds(item: ReconItem): string[] {
  return [...item.provider.map((p) => p.id), ...item.file.map((f) => f.id)]
}

/** The record and line ids a pair key names (pairKey: records joined by '+', '|', then lines). */
/** An item key's records and lines (pairKey). */
function membersOfKey(key: string): [string[], string[]] {
  const [ps = '', fs = ''] = key.split('|')
  return [ps === '' ? [] : ps.split('+'), fs === '' ? [] : fs.split('+')]
}

function idsOfKey(key: string): string[] {
  return key.split(/[|+]/).filter((id) => id !== '')
}

/** A record's keys as the exact keys compare them. */
function keysOf(p: { reference: string | null; serviceReference: string | null }): string[] {
  return [p.reference, p.serviceReference].flatMap((r) => (r ? [normaliseReference(r)] : [])).filter((k) => k !== '')
}

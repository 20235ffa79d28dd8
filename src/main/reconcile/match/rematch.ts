// The open pool matched again after a decision without matching all of it: suggestions scored only among what the decision reaches through candidate pairs, groups searched again only where a candidate's claim changed, every other item kept as the last run made it.
import type { ReconSettings } from '../../../shared/reconcile'
import type { MatchResult } from '../engine'
import { MatchItems } from '../match-items'
import { claimDecided } from './decided'
import { findGroups, type GroupReplay } from './groups'
import { leaveOver } from './leftovers'
import { inContentOrder } from './order'
import { MatchState, type KnownMembers } from './state'
import { suggestPairs } from './suggestions'
import type { EngineDecisions, EngineFileRow, EngineProvider, MatchOptions } from './types'

/**
 * The phase of the engine that made an item of the open pool: a scored 1:1 suggestion (or its ambiguity), a line found
 * the sum of records (1:N), a record paid as several lines (N:1), or a member alone.
 */
export type PoolPhase = 'suggestions' | 'line-sum' | 'record-sum' | 'alone'

/** An item of the last run's open pool, as the replay reads it: its members as indexes into the records and lines matched. */
export interface LastItem {
  key: string
  phase: PoolPhase
  ps: number[]
  fs: number[]
}

/** The phase that made an item of the open pool, told by its shape (null: no phase makes such an item). */
export function phaseOf(item: {
  outcome: string
  score: number | null
  provider: readonly unknown[]
  file: readonly unknown[]
}): PoolPhase | null {
  const ps = item.provider.length
  const fs = item.file.length
  switch (item.outcome) {
    case 'only_in_provider':
    case 'pending_at_provider':
      return ps === 1 && fs === 0 ? 'alone' : null
    case 'only_in_file':
      return ps === 0 && fs === 1 ? 'alone' : null
    case 'suggested':
    case 'ambiguous': {
      const several = item.outcome === 'suggested'
      // A scored suggestion, or the ambiguity among scored candidates.
      if (item.score !== null) return ps >= 1 && fs >= 1 ? 'suggestions' : null
      // A sum: its members (or, when several sets add up, the one it was searched for alone).
      if (fs === 1 && (several ? ps >= 2 : ps === 0)) return 'line-sum'
      if (ps === 1 && (several ? fs >= 2 : fs === 0)) return 'record-sum'
      return null
    }
    default:
      return null
  }
}

/** What matching the pool again made: the items made anew, the keys of the last run's items made anew (the others stand), and the records from outside the period left open. */
export interface Rematched {
  result: MatchResult
  remade: Set<string>
  outsideOpen: string[]
}

/** Why the pool is matched whole instead (a refusal, never a wrong answer). */
class Whole extends Error {}

/**
 * Matches the open pool (`provider` and `file`: every record and line of it, and what the decision frees) after a
 * decision, as the engine's later phases would over all of it, making anew only what may come out otherwise:
 * - the suggestions among the records and lines `touched` (freed, pinned, a pair dismissed or no longer) reaches
 *   through candidate pairs (a currency, an amount within the tolerance, a day within the window): nothing outside
 *   that closure is a candidate of anything in it, so the greedy pairing outside it is as it was;
 * - a group search whose window holds a record (1:N) or line (N:1) claimed otherwise so far; any other comes out as
 *   it did, so what it claimed is claimed again;
 * - a member alone that was not alone before.
 * `pLast` and `fLast`: the last run's item of each record and line (none for one it did not hold: freed now, or from
 * outside the period and left open). `keyed`: records and lines of the pool the exact keys take again (an unmatch of a
 * match by key undone): out of the pool as if never in it, their items made anew, in no item made here. A string: why
 * the pool must be matched whole (a suggestion half inside the closure, a candidate window too full to tell).
 */
export function rematchPool(
  provider: readonly EngineProvider[],
  file: readonly EngineFileRow[],
  settings: ReconSettings,
  decisions: EngineDecisions,
  options: Pick<MatchOptions, 'fileNames' | 'filePages'>,
  pLast: readonly (LastItem | null)[],
  fLast: readonly (LastItem | null)[],
  touched: ReadonlySet<string>,
  keyed: ReadonlySet<string>,
  known: KnownMembers
): Rematched | string {
  try {
    return rematch(provider, file, settings, decisions, options, pLast, fLast, touched, keyed, known)
  } catch (error) {
    if (error instanceof Whole) return error.message
    throw error
  }
}

function rematch(
  provider: readonly EngineProvider[],
  file: readonly EngineFileRow[],
  settings: ReconSettings,
  decisions: EngineDecisions,
  options: Pick<MatchOptions, 'fileNames' | 'filePages'>,
  pLast: readonly (LastItem | null)[],
  fLast: readonly (LastItem | null)[],
  touched: ReadonlySet<string>,
  keyed: ReadonlySet<string>,
  known: KnownMembers
): Rematched {
  const s = new MatchState(provider, file, settings, decisions, options.fileNames, options.filePages, known)
  drain(s.load())
  claimDecided(s)
  // What the keys take again is claimed before the pool is ranked: the pool is then as the keys leave it.
  const placesOf = (ids: ReadonlySet<string>, where: (id: string) => number | undefined): number[] =>
    [...ids].map(where).filter((i): i is number => i !== undefined)
  const keyedP = placesOf(keyed, (id) => known.recordAt(id))
  const keyedF = placesOf(keyed, (id) => known.lineAt(id))
  if (keyed.size > 0) {
    if (keyedP.some((i) => s.pClaimed[i] === 1) || keyedF.some((i) => s.fClaimed[i] === 1))
      throw new Whole('a pair of keys again a pin holds')
    for (const i of keyedP) s.pClaimed[i] = 1
    for (const i of keyedF) s.fClaimed[i] = 1
  }
  s.rankOpen()
  const { pDay, fDay, fAmount, pClaimed, fClaimed, pCurrency, fCurrency } = s

  // The closure: what the touched members reach through candidate pairs (a currency, an amount within the tolerance of
  // a reading of the record's, a day within the window), found by looking through the open pool from each member
  // reached (few are: no index of the whole pool is built).
  const tolOf = new Map<number, number>()
  const tolerance = (currency: number, code: string): number => {
    let t = tolOf.get(currency)
    if (t === undefined) tolOf.set(currency, (t = s.tol(code)))
    return t
  }
  const inP = new Uint8Array(provider.length)
  const inF = new Uint8Array(file.length)
  const queue: number[] = []
  const reachP = (i: number): void => {
    if (inP[i] === 1) return
    inP[i] = 1
    queue.push(-1 - i)
  }
  const reachF = (i: number): void => {
    if (inF[i] === 1) return
    inF[i] = 1
    queue.push(i)
  }
  // The decision's own members, and those new to the pool (freed): their searches are made again whatever else holds.
  const seedP = new Uint8Array(provider.length)
  const seedF = new Uint8Array(file.length)
  const seed = (i: number, seeds: Uint8Array, reach: (i: number) => void): void => {
    seeds[i] = 1
    reach(i)
  }
  for (const i of [...placesOf(touched, (id) => known.recordAt(id)), ...keyedP]) seed(i, seedP, reachP)
  for (const i of [...placesOf(touched, (id) => known.lineAt(id)), ...keyedF]) seed(i, seedF, reachF)
  for (let i = 0; i < provider.length; i++)
    if (pLast[i] === null && (provider[i] as EngineProvider).outsidePeriod !== true) seed(i, seedP, reachP)
  for (let i = 0; i < file.length; i++) if (fLast[i] === null) seed(i, seedF, reachF)
  const { openP, openF } = s
  while (queue.length > 0) {
    const at = queue.pop() as number
    if (at >= 0) {
      const currency = fCurrency[at] as number
      const tol = tolerance(currency, (file[at] as EngineFileRow).currency)
      const amount = fAmount[at] as number
      const lo = (fDay[at] as number) - settings.daysAfter
      const hi = (fDay[at] as number) + settings.daysBefore
      const bucket = Math.floor(amount / (tol + 1))
      // The suggestions read at most 5,000 records of the line's buckets in its window: more, and which they read is not told here.
      let inBuckets = 0
      for (const pi of openP) {
        if (pCurrency[pi] !== currency) continue
        const d = pDay[pi] as number
        if (d < lo || d > hi) continue
        const gross = s.expected(pi)
        const net = s.hasNetReading(pi) ? s.net(pi) : gross
        if (Math.abs(Math.floor(gross / (tol + 1)) - bucket) <= 1 || Math.abs(Math.floor(net / (tol + 1)) - bucket) <= 1) inBuckets++
        if (Math.abs(amount - gross) <= tol || Math.abs(amount - net) <= tol) reachP(pi)
      }
      if (inBuckets >= 5_000) throw new Whole('a line with too many candidates in its window')
    } else {
      const pi = -1 - at
      const currency = pCurrency[pi] as number
      const tol = tolerance(currency, (provider[pi] as EngineProvider).currency)
      const lo = (pDay[pi] as number) - settings.daysBefore
      const hi = (pDay[pi] as number) + settings.daysAfter
      const gross = s.expected(pi)
      const net = s.hasNetReading(pi) ? s.net(pi) : gross
      for (const fi of openF) {
        if (fCurrency[fi] !== currency) continue
        const d = fDay[fi] as number
        if (d < lo || d > hi) continue
        const amount = fAmount[fi] as number
        if (Math.abs(amount - gross) <= tol || Math.abs(amount - net) <= tol) reachF(fi)
      }
    }
  }
  // A suggestion of the last run lies wholly inside the closure or wholly outside it (its members are each other's candidates).
  const halfInside = (item: LastItem | null): boolean =>
    item?.phase === 'suggestions' && (item.ps.some((i) => inP[i] !== 1) || item.fs.some((i) => inF[i] !== 1))
  for (let i = 0; i < provider.length; i++)
    if (inP[i] === 1 && halfInside(pLast[i] as LastItem | null)) throw new Whole('a suggestion half inside')
  for (let i = 0; i < file.length; i++)
    if (inF[i] === 1 && halfInside(fLast[i] as LastItem | null)) throw new Whole('a suggestion half inside')

  // Outside the closure the suggestions stand: their members are claimed before the groups, as the last run claimed them.
  for (let i = 0; i < provider.length; i++) if (inP[i] === 0 && pLast[i]?.phase === 'suggestions') pClaimed[i] = 1
  for (let i = 0; i < file.length; i++) if (inF[i] === 0 && fLast[i]?.phase === 'suggestions') fClaimed[i] = 1
  drain(suggestPairs(s, undefined, { p: inP, f: inF }))

  // Into the groups: a record or line the suggestions now claim otherwise than then (or the decision's own) changes the
  // candidates of every search whose window holds it; one claimed then by the suggestions and open now was not searched.
  const otherwiseP = new Uint8Array(provider.length)
  const otherwiseF = new Uint8Array(file.length)
  const searchP = seedP.slice()
  const searchF = seedF.slice()
  // And a record or line claimed now that a search of the last run's claimed with others (which are not claimed so now).
  for (let i = 0; i < provider.length; i++) {
    if (inP[i] === 0) continue
    const last = pLast[i]
    const then = last?.phase === 'suggestions'
    if (seedP[i] === 1 || (pClaimed[i] === 1) !== then) otherwiseP[i] = 1
    if (then) searchP[i] = 1
    if (pClaimed[i] === 1 && last?.phase === 'record-sum') for (const f of last.fs) otherwiseF[f] = 1
  }
  for (let i = 0; i < file.length; i++) {
    if (inF[i] === 0) continue
    const last = fLast[i]
    const then = last?.phase === 'suggestions'
    if (seedF[i] === 1 || (fClaimed[i] === 1) !== then) otherwiseF[i] = 1
    if (then) searchF[i] = 1
    if (fClaimed[i] === 1 && last?.phase === 'line-sum') for (const p of last.ps) otherwiseP[p] = 1
  }
  drain(findGroups(s, undefined, new Replay(s, { p: otherwiseP, f: otherwiseF }, { p: searchP, f: searchF }, pLast, fLast)))

  // Alone before and alone now: the item stands.
  const kept = { p: new Uint8Array(provider.length), f: new Uint8Array(file.length) }
  pLast.forEach((item, i) => {
    if (item?.phase === 'alone') kept.p[i] = 1
  })
  fLast.forEach((item, i) => {
    if (item?.phase === 'alone') kept.f[i] = 1
  })
  const left = drain(leaveOver(s, kept))

  const order = inContentOrder(s.items.count, s.leads, fDay, fAmount, pDay, s.pAmount, (lead) =>
    lead >= 0 ? (file[lead] as EngineFileRow).id : (provider[-1 - lead] as EngineProvider).id
  )
  const items = new MatchItems(s.items, order)
  // The last run's items made anew: each holding a member of an item made now, or a record now in none (of another
  // period, or whose money failed, that nothing claims now). The others stand.
  const remade = new Set<string>()
  for (let k = 0; k < items.length; k++) {
    for (const i of items.providers(k)) if (pLast[i]) remade.add((pLast[i] as LastItem).key)
    for (const i of items.files(k)) if (fLast[i]) remade.add((fLast[i] as LastItem).key)
  }
  pLast.forEach((item, i) => {
    if (item && pClaimed[i] === 0 && item.phase !== 'alone') remade.add(item.key)
  })
  // The items that held what the keys take again.
  for (const i of keyedP) if (pLast[i]) remade.add((pLast[i] as LastItem).key)
  for (const i of keyedF) if (fLast[i]) remade.add((fLast[i] as LastItem).key)
  const outsideOpen = provider
    .filter((p, i) => p.outsidePeriod === true && pClaimed[i] === 0)
    .map((p) => p.id)
    .sort()
  return {
    result: {
      provider,
      file,
      items,
      leftOutFailed: left.failed,
      leftOutOutsidePeriod: left.outsidePeriod,
      netOfFees: settings.netOfFees
    },
    remade,
    outsideOpen
  }
}

/**
 * The groups' replay over one state: which records (1:N) and lines (N:1) have been claimed otherwise than in the last
 * run so far, by lane and day, so a search whose window holds none of them is not made again.
 */
class Replay implements GroupReplay {
  /**
   * Per lane, the days of the lines (records) whose search's window holds a record (line) claimed otherwise so far: a
   * search is then one look-up, not one per day of its window.
   */
  private readonly linesReaching = new Map<number, Set<number>>()
  private readonly recordsReaching = new Map<number, Set<number>>()
  private readonly pOtherwise: Uint8Array
  private readonly fOtherwise: Uint8Array

  /**
   * `otherwise`: the records and lines claimed otherwise than in the last run as the groups begin; `search`: those whose
   * searches are made whatever their windows hold (the decision's own, and those the last run's suggestions claimed).
   */
  constructor(
    private readonly s: MatchState,
    otherwise: { p: Uint8Array; f: Uint8Array },
    private readonly search: { p: Uint8Array; f: Uint8Array },
    private readonly pLast: readonly (LastItem | null)[],
    private readonly fLast: readonly (LastItem | null)[]
  ) {
    this.pOtherwise = new Uint8Array(s.provider.length)
    this.fOtherwise = new Uint8Array(s.file.length)
    otherwise.p.forEach((v, i) => v === 1 && this.recordOtherwise(i))
    otherwise.f.forEach((v, i) => v === 1 && this.lineOtherwise(i))
  }

  private recordOtherwise(i: number): void {
    if (this.pOtherwise[i] === 1) return
    this.pOtherwise[i] = 1
    // A line's search reads the records from daysAfter before its day to daysBefore after it.
    const { daysBefore, daysAfter } = this.s.settings
    const day = this.s.pDay[i] as number
    cover(this.linesReaching, this.s.pLane(i), day - daysBefore, day + daysAfter)
  }

  private lineOtherwise(i: number): void {
    if (this.fOtherwise[i] === 1) return
    this.fOtherwise[i] = 1
    // A record's search reads the lines from daysBefore before its day to daysAfter after it.
    const { daysBefore, daysAfter } = this.s.settings
    const day = this.s.fDay[i] as number
    cover(this.recordsReaching, this.s.fLane(i), day - daysAfter, day + daysBefore)
  }

  lineMayDiffer(fi: number): boolean {
    if (this.search.f[fi] === 1) return true
    const { s } = this
    const day = s.fDay[fi] as number
    return this.linesReaching.get(s.fLane(fi))?.has(day) === true
  }

  lineKept(fi: number): void {
    const item = this.fLast[fi]
    if (item?.phase !== 'line-sum') return
    for (const i of item.ps) this.s.pClaimed[i] = 1
    this.s.fClaimed[fi] = 1
  }

  lineSearched(fi: number, records: readonly number[], lineClaimed: boolean): void {
    const item = this.fLast[fi]
    const before = item?.phase === 'line-sum' ? item.ps : []
    if (before.length > 0 || records.length > 0)
      for (const i of differing(before, records)) {
        this.recordOtherwise(i)
        // Claimed now, that record will not be searched as it was: the lines its search claimed then are free.
        const its = this.pLast[i]
        if (records.includes(i) && its?.phase === 'record-sum') for (const f of its.fs) this.lineOtherwise(f)
      }
    if (lineClaimed !== (item?.phase === 'line-sum')) this.lineOtherwise(fi)
  }

  recordMayDiffer(pi: number): boolean {
    if (this.search.p[pi] === 1 || this.pOtherwise[pi] === 1) return true
    const { s } = this
    const day = s.pDay[pi] as number
    return this.recordsReaching.get(s.pLane(pi))?.has(day) === true
  }

  recordKept(pi: number): void {
    const item = this.pLast[pi]
    if (item?.phase !== 'record-sum') return
    for (const i of item.fs) this.s.fClaimed[i] = 1
    this.s.pClaimed[pi] = 1
  }

  recordSearched(pi: number, lines: readonly number[], recordClaimed: boolean): void {
    const item = this.pLast[pi]
    const before = item?.phase === 'record-sum' ? item.fs : []
    if (before.length > 0 || lines.length > 0) for (const i of differing(before, lines)) this.lineOtherwise(i)
    if (recordClaimed !== (item?.phase === 'record-sum')) this.recordOtherwise(pi)
  }
}

/** Marks the days from `from` to `to` in the lane's set. */
function cover(byLane: Map<number, Set<number>>, lane: number, from: number, to: number): void {
  let days = byLane.get(lane)
  if (!days) byLane.set(lane, (days = new Set()))
  for (let day = from; day <= to; day++) days.add(day)
}

/** The members in one list and not the other. */
function differing(a: readonly number[], b: readonly number[]): number[] {
  const inA = new Set(a)
  const inB = new Set(b)
  return [...a.filter((i) => !inB.has(i)), ...b.filter((i) => !inA.has(i))]
}

/** Runs a phase's steps to the end (a pool is small: nothing to let the event loop run between). */
function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

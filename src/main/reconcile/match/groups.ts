// Phase 4 of a match: groups by sum. One line equal to the sum of several open records (a settlement, a bulk payout), or one record paid as several lines; found by whole day-and-channel groups first, then a bounded subset-sum search.
import { moneyText } from '../../../shared/money'
import type { EngineFileRow, EngineProvider, MatchOptions } from './types'
import { pushTo, windowStart } from './lanes'
import type { MatchState } from './state'

/**
 * How a pool matched again (match/rematch.ts) replays the groups: a line's or record's search that cannot come out
 * otherwise than in the last run (no candidate of its window claimed otherwise so far) is not made again; what it
 * claimed then is claimed again, its item kept as stored.
 */
export interface GroupReplay {
  /** Whether the search for line `fi` (1:N) may find otherwise than the last run's. */
  lineMayDiffer(fi: number): boolean
  /** Claims again what the last run's search for line `fi` claimed. */
  lineKept(fi: number): void
  /** What the search for line `fi` claimed now: its records (none for an ambiguity or nothing found), and whether the line. */
  lineSearched(fi: number, records: readonly number[], lineClaimed: boolean): void
  recordMayDiffer(pi: number): boolean
  recordKept(pi: number): void
  recordSearched(pi: number, lines: readonly number[], recordClaimed: boolean): void
}

export function* findGroups(s: MatchState, onProgress: MatchOptions['onProgress'], replay?: GroupReplay): Generator<void> {
  const { provider, file, settings, openP, openF, pDay, fDay, fAmount, pClaimed, fClaimed, pMoney, pRank, fRank } = s
  onProgress?.('groups', 0, openF.length)
  // Open records by currency and direction, in day order.
  const lanes = new Map<number, number[]>()
  for (const i of openP) pushTo(lanes, s.pLane(i), i)
  // Each open record's group (its day and channel) as a small number, named when first asked for: by channel, then by
  // day (no text made per record).
  const pGroup = new Int32Array(provider.length).fill(-1)
  const byChannel = new Map<string, Map<number, number>>()
  let groups = 0
  const groupOf = (i: number): number => {
    let g = pGroup[i] as number
    if (g >= 0) return g
    const channel = (provider[i] as EngineProvider).channel ?? ''
    let days = byChannel.get(channel)
    if (!days) byChannel.set(channel, (days = new Map()))
    g = days.get(pDay[i] as number) ?? groups
    if (g === groups) days.set(pDay[i] as number, groups++)
    pGroup[i] = g
    return g
  }
  const pSums = new GroupSums(openP.length)
  const candidates: number[] = []
  for (const fi of openF) {
    if (((fRank[fi] as number) & 0xff) === 0xff) yield
    if (fClaimed[fi]) continue
    if (replay && !replay.lineMayDiffer(fi)) {
      replay.lineKept(fi)
      continue
    }
    const claimed = searchLine(fi)
    replay?.lineSearched(fi, claimed ?? [], claimed !== null)
  }
  /** The records the line is found the sum of (none for an ambiguity), claimed with it; null when nothing is found. */
  function searchLine(fi: number): number[] | null {
    const row = file[fi] as EngineFileRow
    const day = fDay[fi] as number
    const lane = lanes.get(s.fLane(fi)) ?? []
    const sign = Math.sign(row.amountMinor)
    candidates.length = 0
    for (let k = windowStart(lane, pDay, day - settings.daysAfter), end = Math.min(lane.length, k + 5_000); k < end; k++) {
      const pi = lane[k] as number
      if ((pDay[pi] as number) > day + settings.daysBefore) break
      // Only money that moved is settled: a pending record is never part of a settlement line.
      if (!pClaimed[pi] && pMoney[pi] === 1 && Math.sign(s.expected(pi)) === sign && !s.pairDismissed(pi, fi)) candidates.push(pi)
    }
    if (candidates.length < 2) return null
    const search = (amountOf: (i: number) => number): ReturnType<typeof findGroup> =>
      findGroup(
        candidates,
        amountOf,
        row.amountMinor,
        s.tol(row.currency),
        groupOf,
        pSums,
        (i) => Math.abs((pDay[i] as number) - day),
        settings.groupSearchLimit
      )
    // As the records are, then (unless the session says how to read them) net of fees: a settlement arrives net.
    let found = search(s.expected)
    let net = !s.bothReadings
    if (!found && s.bothReadings && candidates.some((i) => s.hasNetReading(i))) {
      found = search(s.net)
      net = found !== null
    }
    if (!found) return null
    const ids = found.members.map((i) => (provider[i] as EngineProvider).id)
    if (s.isDismissed(ids, [row.id])) return null
    if (found.ambiguous) {
      s.claimOne('ambiguous', -1, fi, null, [
        `the line equals the sum of more than one set of provider records (${found.how})`,
        'none is picked'
      ])
      return []
    }
    const members = [...found.members].sort(s.byPRank)
    const fees = members.reduce((sum, i) => sum + (s.pAmount[i] as number) - s.net(i), 0)
    const read = net ? `, net of fees ${moneyText(Math.abs(fees), row.currency)}` : ''
    s.marked(
      s.claim('suggested', members, [fi], null, [`the line is the sum of ${members.length} provider records${read} (${found.how})`]),
      net
    )
    return members
  }
  // N:1: one provider record paid out or in as several lines. Open lines by currency and direction, in day order.
  const fileLanes = new Map<number, number[]>()
  let fMinDay = Infinity
  let fMaxDay = -Infinity
  for (const i of openF) {
    if (fClaimed[i]) continue
    pushTo(fileLanes, s.fLane(i), i)
    fMinDay = Math.min(fMinDay, fDay[i] as number)
    fMaxDay = Math.max(fMaxDay, fDay[i] as number)
  }
  // A line's group is its day.
  const fSums = new GroupSums(fMaxDay >= fMinDay ? fMaxDay - fMinDay + 1 : 0)
  for (const pi of openP) {
    if (((pRank[pi] as number) & 0xff) === 0xff) yield
    if (pClaimed[pi]) continue
    if (replay && !replay.recordMayDiffer(pi)) {
      replay.recordKept(pi)
      continue
    }
    const claimed = searchRecord(pi)
    replay?.recordSearched(pi, claimed ?? [], claimed !== null)
  }
  /** The lines the record was paid as (none for an ambiguity), claimed with it; null when nothing is found. */
  function searchRecord(pi: number): number[] | null {
    const p = provider[pi] as EngineProvider
    const lane = fileLanes.get(s.pLane(pi)) ?? []
    const day = pDay[pi] as number
    candidates.length = 0
    for (let k = windowStart(lane, fDay, day - settings.daysBefore), end = Math.min(lane.length, k + 5_000); k < end; k++) {
      const fi = lane[k] as number
      if ((fDay[fi] as number) > day + settings.daysAfter) break
      if (!fClaimed[fi] && !s.pairDismissed(pi, fi)) candidates.push(fi)
    }
    if (candidates.length < 2) return null
    const search = (target: number): ReturnType<typeof findGroup> =>
      findGroup(
        candidates,
        (i) => fAmount[i] as number,
        target,
        s.tol(p.currency),
        (i) => (fDay[i] as number) - fMinDay,
        fSums,
        (i) => Math.abs((fDay[i] as number) - day),
        settings.groupSearchLimit
      )
    let found = search(s.expected(pi))
    let net = !s.bothReadings
    if (!found && s.hasNetReading(pi)) {
      found = search(s.net(pi))
      net = found !== null
    }
    if (!found) return null
    const members = [...found.members].sort(s.byFRank)
    if (
      s.isDismissed(
        [p.id],
        members.map((i) => (file[i] as EngineFileRow).id)
      )
    )
      return null
    if (found.ambiguous) {
      s.claimOne('ambiguous', pi, -1, null, [
        `the record equals the sum of more than one set of file lines (${found.how})`,
        'none is picked'
      ])
      return []
    }
    const read = net ? `, net of fees ${moneyText(Math.abs((s.pAmount[pi] as number) - s.net(pi)), p.currency)}` : ''
    s.marked(
      s.claim('suggested', [pi], members, null, [
        `the record ${s.recordName(pi)} was paid in ${members.length} lines${read}: ${s.linesName(members)} (${found.how})`
      ]),
      net
    )
    return members
  }
}

/** Sums and counts per group for findGroup, kept across its calls: a call resets only the groups it touched. */
export class GroupSums {
  readonly sum: Float64Array
  readonly count: Int32Array
  readonly touched: number[] = []
  /** `groups`: how many groups there are; a group is a number below it. */
  constructor(groups: number) {
    this.sum = new Float64Array(groups)
    this.count = new Int32Array(groups)
  }
}

/**
 * A set of two or more candidates whose amounts sum to `target` (within `tolerance`): first whole
 * groups sharing a grouping key (same day and channel), then a bounded subset-sum search over the
 * `limit` candidates nearest in time. Ambiguous when more than one set qualifies. `candidates` come
 * in rank order, which breaks ties.
 */
export function findGroup(
  candidates: readonly number[],
  amountOf: (i: number) => number,
  target: number,
  tolerance: number,
  groupOf: (i: number) => number,
  sums: GroupSums,
  distanceOf: (i: number) => number,
  limit: number
): { members: number[]; ambiguous: boolean; how: string } | null {
  const fits = (sum: number): boolean => Math.abs(sum - target) <= tolerance
  const { sum, count, touched } = sums
  let maxDistance = 0
  let magnitude = 0
  for (const i of candidates) {
    const g = groupOf(i)
    const amount = amountOf(i)
    if ((count[g] as number) === 0) touched.push(g)
    count[g] = (count[g] as number) + 1
    sum[g] = (sum[g] as number) + amount
    magnitude += Math.abs(amount)
    maxDistance = Math.max(maxDistance, distanceOf(i))
  }
  const whole: number[] = []
  for (const g of touched) {
    if ((count[g] as number) >= 2 && fits(sum[g] as number)) whole.push(g)
    count[g] = 0
    sum[g] = 0
  }
  touched.length = 0
  if (whole.length === 1)
    return { members: candidates.filter((i) => groupOf(i) === whole[0]), ambiguous: false, how: 'all records of one day and channel' }
  if (whole.length > 1) return { members: [], ambiguous: true, how: `${whole.length} days and channels each add up to it` }
  // All of them together fall short: no set of the nearest reaches it (the search below would stop at its first step).
  if (magnitude + tolerance < Math.abs(target)) return null
  if (candidates.length === 2) {
    // The one set of two or more is both: what the search below finds of them (nearest first, then by magnitude), without its arrays.
    let [x, y] = candidates as [number, number]
    if (distanceOf(y) < distanceOf(x)) [x, y] = [y, x]
    const ax = Math.abs(amountOf(x))
    const ay = Math.abs(amountOf(y))
    if (Math.abs(ax + ay - Math.abs(target)) > tolerance) return null
    return { members: ay > ax ? [y, x] : [x, y], ambiguous: false, how: 'found among the 2 nearest in time of 2 candidates' }
  }
  return searchNearest(candidates, amountOf, target, tolerance, distanceOf, limit, maxDistance)
}

/**
 * The bounded subset-sum search of findGroup: among the `limit` candidates nearest in time (`maxDistance`: the farthest
 * one's distance), a set of two or more summing to `target`. Exported for its tests.
 */
export function searchNearest(
  candidates: readonly number[],
  amountOf: (i: number) => number,
  target: number,
  tolerance: number,
  distanceOf: (i: number) => number,
  limit: number,
  maxDistance: number
): { members: number[]; ambiguous: boolean; how: string } | null {
  // The `limit` nearest in time, ties in rank order: the distance that fills the limit, then a stable sort of the few chosen.
  const perDistance = new Int32Array(maxDistance + 1)
  for (const i of candidates) perDistance[distanceOf(i)] = (perDistance[distanceOf(i)] as number) + 1
  let cutoff = 0
  let below = 0
  while (cutoff < maxDistance && below + (perDistance[cutoff] as number) < limit) below += perDistance[cutoff++] as number
  let atCutoff = limit - below
  const nearest = candidates.filter((i) => {
    const d = distanceOf(i)
    return d < cutoff || (d === cutoff && atCutoff-- > 0)
  })
  nearest.sort((a, b) => distanceOf(a) - distanceOf(b))
  const amounts = nearest.map(amountOf)
  // Search by magnitude, largest first, with the rest's sum as the bound.
  const order = nearest.map((_, k) => k).sort((a, b) => Math.abs(amounts[b] as number) - Math.abs(amounts[a] as number) || a - b)
  const values = order.map((k) => Math.abs(amounts[k] as number))
  const walked = subsetsSumming(values, Math.abs(target), tolerance)
  const how = `found among the ${nearest.length} nearest in time of ${candidates.length} candidates`
  // A search cut short cannot show the set is the only one: nothing is offered.
  const { solutions } = walked
  if (solutions.length === 0 || (walked.cut && solutions.length < 2)) return null
  if (solutions.length > 1) return { members: [], ambiguous: true, how }
  return { members: (solutions[0] as readonly number[]).map((k) => nearest[order[k] as number] as number), ambiguous: false, how }
}

/** What a subset-sum search found: up to two sets (indexes into the values searched), and whether it was cut short. */
interface Walked {
  readonly solutions: readonly (readonly number[])[]
  readonly cut: boolean
}

/**
 * The searches of many values, by what they searched (values, goal and tolerance): a search is a function of those
 * alone, and a decision matched again asks most of its lines' searches again (match/rematch.ts). Emptied when full.
 */
const WALKED = new Map<string, Walked>()
const WALKED_KEPT = 4_096

/**
 * Up to two sets of two or more of `values` (magnitudes, largest first) that sum to `goal` within `tolerance`, found
 * by a depth-first search with the rest's sum as the bound, cut short after 200,000 steps.
 */
function subsetsSumming(values: readonly number[], goal: number, tolerance: number): Walked {
  // Fewer than a dozen values take at most a few thousand steps: not worth a key.
  const key = values.length >= 12 ? `${goal} ${tolerance} ${values.join(' ')}` : null
  const known = key === null ? undefined : WALKED.get(key)
  if (known) return known
  const suffix = new Array<number>(values.length + 1).fill(0)
  for (let k = values.length - 1; k >= 0; k--) suffix[k] = (suffix[k + 1] as number) + (values[k] as number)
  const solutions: number[][] = []
  let budget = 200_000
  const chosen: number[] = []
  const walk = (k: number, sum: number): void => {
    if (solutions.length >= 2 || budget-- <= 0) return
    if (chosen.length >= 2 && Math.abs(sum - goal) <= tolerance) {
      solutions.push([...chosen])
      return
    }
    if (k >= values.length || sum - tolerance > goal || sum + (suffix[k] as number) + tolerance < goal) return
    chosen.push(k)
    walk(k + 1, sum + (values[k] as number))
    chosen.pop()
    walk(k + 1, sum)
  }
  walk(0, 0)
  const walked = { solutions, cut: budget <= 0 }
  if (key !== null) {
    if (WALKED.size >= WALKED_KEPT) WALKED.clear()
    WALKED.set(key, walked)
  }
  return walked
}

// The matching engine: decisions first, exact keys over the whole batch, then scored 1:1 suggestions, then 1:N / N:1 groups by sum; deterministic whatever the input order.
import { parseMajor } from '../../shared/money'
import type { Outcome, ReconSettings } from '../../shared/reconcile'
import { dayNumber } from './import/dates'
import { normaliseReference, referenceTokens, similarity, words } from './references'

/** A provider record as the engine sees it: amounts signed as the money shows in the file (payouts negative). */
export interface EngineProvider {
  id: string
  reference: string | null
  serviceReference: string | null
  /** Calendar day in the business time zone, YYYY-MM-DD. */
  day: string
  amountMinor: number
  feesMinor: number
  currency: string
  /** Normalised: successful, pending, failed, cancelled, expected (a charge or an account that should bring money), unknown. */
  status: string
  channel: string | null
  /** Names, emails, account numbers: the words text similarity reads. */
  text: string | null
  /** Further exact keys, e.g. a virtual account's number. */
  keys?: string[]
}

export interface EngineFileRow {
  id: string
  fileId: string
  line: number
  date: string
  amountMinor: number
  currency: string
  reference: string | null
  description: string | null
  counterparty: string | null
}

export interface PinnedMatch {
  kind: 'accepted' | 'manual'
  providerIds: string[]
  fileIds: string[]
}

export interface EngineDecisions {
  pinned: PinnedMatch[]
  /** pairKey(providerIds, fileIds) of suggestions the user rejected: never suggested again. */
  dismissed: ReadonlySet<string>
}

/** One item or group: indexes into the sorted provider and file arrays the result carries. */
export interface MatchItem {
  outcome: Outcome
  p: number[]
  f: number[]
  score: number | null
  reasons: string[]
  decision: 'accepted' | 'manual' | null
}

export interface MatchResult {
  provider: EngineProvider[]
  file: EngineFileRow[]
  items: MatchItem[]
  /** Failed or cancelled provider records nothing in the file points at: no money moved, so no item. */
  leftOutFailed: number
  netOfFees: boolean
}

export interface MatchOptions {
  signal?: AbortSignal
  onProgress?: (phase: string, done: number, total: number) => void
}

export const NO_DECISIONS: EngineDecisions = { pinned: [], dismissed: new Set() }

/** The key a suggestion or match is remembered by: its members, sorted. */
export function pairKey(providerIds: readonly string[], fileIds: readonly string[]): string {
  return `${[...providerIds].sort().join('+')}|${[...fileIds].sort().join('+')}`
}

/** The stable key of an item: its members, so a decision about it survives any re-run. */
export function itemKey(providerIds: readonly string[], fileIds: readonly string[]): string {
  return pairKey(providerIds, fileIds)
}

/** What the file should show for a provider record: its amount, less its fees when the session nets them (fees always reduce what arrives and add to what leaves). */
export function expectedAmount(p: { amountMinor: number; feesMinor: number }, netOfFees: boolean): number {
  return netOfFees ? p.amountMinor - Math.abs(p.feesMinor) : p.amountMinor
}

const MONEY_MOVED = new Set(['successful', 'expected'])
const NO_MONEY = new Set(['failed', 'cancelled'])

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

function checkCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DOMException('The matching was cancelled.', 'AbortError')
}

export function runMatch(providerIn: readonly EngineProvider[], fileIn: readonly EngineFileRow[], settings: ReconSettings, decisions: EngineDecisions = NO_DECISIONS, options: MatchOptions = {}): MatchResult {
  const { signal, onProgress } = options
  // Content order, never input order: providers by id, file rows by day, amount, then content id.
  const provider = [...providerIn].sort((a, b) => compareText(a.id, b.id))
  const file = [...fileIn].sort((a, b) => compareText(a.date, b.date) || a.amountMinor - b.amountMinor || compareText(a.id, b.id))
  const pDay = provider.map((p) => dayNumber(p.day))
  const fDay = file.map((f) => dayNumber(f.date))
  const expected = (i: number): number => expectedAmount(provider[i] as EngineProvider, settings.netOfFees)
  const tolerance = (currency: string): number => {
    try {
      return Math.abs(parseMajor(settings.amountTolerance, currency))
    } catch {
      return 0
    }
  }
  const toleranceCache = new Map<string, number>()
  const tol = (currency: string): number => {
    let t = toleranceCache.get(currency)
    if (t === undefined) toleranceCache.set(currency, (t = tolerance(currency)))
    return t
  }
  const pClaimed = new Uint8Array(provider.length)
  const fClaimed = new Uint8Array(file.length)
  const items: MatchItem[] = []
  const pIndex = new Map(provider.map((p, i) => [p.id, i]))
  const fIndex = new Map(file.map((f, i) => [f.id, i]))

  const compare = (ps: number[], fs: number[], via: string[]): MatchItem => {
    const reasons = [...via]
    const pCur = new Set(ps.map((i) => (provider[i] as EngineProvider).currency))
    const fCur = new Set(fs.map((i) => (file[i] as EngineFileRow).currency))
    const fileSum = fs.reduce((s, i) => s + (file[i] as EngineFileRow).amountMinor, 0)
    const expectedSum = ps.reduce((s, i) => s + expected(i), 0)
    if (pCur.size !== 1 || fCur.size !== 1 || [...pCur][0] !== [...fCur][0]) {
      reasons.push(`currency: provider ${[...pCur].join('/')} against file ${[...fCur].join('/')}`)
      return { outcome: 'currency_differs', p: ps, f: fs, score: null, reasons, decision: null }
    }
    const statuses = ps.map((i) => (provider[i] as EngineProvider).status)
    const sign = Math.sign(expectedSum) || Math.sign(ps.reduce((s, i) => s + (provider[i] as EngineProvider).amountMinor, 0))
    const fileShowsMoney = fileSum !== 0 && Math.sign(fileSum) === sign
    const notMoved = statuses.filter((s) => !MONEY_MOVED.has(s))
    if (notMoved.length > 0 && fileShowsMoney) {
      reasons.push(`status: the provider says ${[...new Set(notMoved)].join('/')} but the file shows the money`)
      return { outcome: 'status_differs', p: ps, f: fs, score: null, reasons, decision: null }
    }
    if (notMoved.length === 0 && !fileShowsMoney) {
      reasons.push('status: the provider says successful but the file shows no money in that direction')
      return { outcome: 'status_differs', p: ps, f: fs, score: null, reasons, decision: null }
    }
    const difference = fileSum - expectedSum
    if (Math.abs(difference) <= tol([...pCur][0] as string)) {
      reasons.push(difference === 0 ? (settings.netOfFees ? 'amount: equal, net of fees' : 'amount: equal') : 'amount: within the tolerance')
      return { outcome: 'matched', p: ps, f: fs, score: null, reasons, decision: null }
    }
    reasons.push(`amount: the file differs by ${difference} minor units${settings.netOfFees ? ' (net of fees)' : ''}`)
    return { outcome: 'amount_differs', p: ps, f: fs, score: null, reasons, decision: null }
  }
  const claim = (item: MatchItem): void => {
    for (const i of item.p) pClaimed[i] = 1
    for (const i of item.f) fClaimed[i] = 1
    items.push(item)
  }

  // 1. What the user decided holds first.
  const pinned = [...decisions.pinned].sort((a, b) => compareText(pairKey(a.providerIds, a.fileIds), pairKey(b.providerIds, b.fileIds)))
  for (const pin of pinned) {
    const ps = pin.providerIds.map((id) => pIndex.get(id))
    const fs = pin.fileIds.map((id) => fIndex.get(id))
    if (ps.some((i) => i === undefined || pClaimed[i] === 1) || fs.some((i) => i === undefined || fClaimed[i] === 1)) continue
    const item = compare(ps as number[], fs as number[], [pin.kind === 'manual' ? 'matched by hand' : 'suggestion accepted'])
    item.decision = pin.kind
    claim(item)
  }
  checkCancelled(signal)
  onProgress?.('keys', 0, file.length)

  // 2. Exact keys. A normalised key two different references share is trusted for neither.
  const byKey = new Map<string, number>()
  const collided = new Set<string>()
  const rawOf = new Map<string, string>()
  const duplicateOf = new Map<number, number>()
  const addKey = (key: string, raw: string, i: number): void => {
    if (key === '' || collided.has(key)) return
    const had = byKey.get(key)
    if (had === undefined) {
      byKey.set(key, i)
      rawOf.set(key, raw.trim().toUpperCase())
    } else if (had !== i) {
      if (rawOf.get(key) === raw.trim().toUpperCase() && (provider[had] as EngineProvider).reference?.trim().toUpperCase() === raw.trim().toUpperCase()) {
        // The same reference twice: the later record (by day, then id) is a duplicate of the first.
        const [keep, dup] = pDay[had] as number <= (pDay[i] as number) ? [had, i] : [i, had]
        byKey.set(key, keep)
        duplicateOf.set(dup, keep)
      } else {
        collided.add(key)
        byKey.delete(key)
      }
    }
  }
  provider.forEach((p, i) => {
    if (p.reference) addKey(normaliseReference(p.reference), p.reference, i)
    if (p.serviceReference) addKey(normaliseReference(p.serviceReference), p.serviceReference, i)
    for (const k of p.keys ?? []) addKey(normaliseReference(k), k, i)
  })
  for (const [dup] of duplicateOf) {
    if (pClaimed[dup]) continue
    pClaimed[dup] = 1
    const original = provider[duplicateOf.get(dup) as number] as EngineProvider
    items.push({ outcome: 'duplicate_in_provider', p: [dup], f: [], score: null, reasons: [`the provider has reference "${original.reference}" twice; the first is ${original.id}`], decision: null })
  }
  const hitsOf = new Map<number, { f: number; via: string }[]>()
  const groupsByDescription: { f: number; ps: number[]; keys: string[] }[] = []
  for (let fi = 0; fi < file.length; fi++) {
    if (fClaimed[fi]) continue
    const row = file[fi] as EngineFileRow
    let hit: number | undefined
    let via = ''
    if (row.reference) {
      const key = normaliseReference(row.reference)
      hit = key === '' ? undefined : byKey.get(key)
      if (hit !== undefined) via = `reference: "${row.reference}" is the provider's ${keyField(provider[hit] as EngineProvider, key)}`
    }
    if (hit === undefined) {
      const found = new Map<number, string>()
      for (const token of referenceTokens(`${row.description ?? ''} ${row.reference ?? ''}`)) {
        const i = byKey.get(token)
        if (i !== undefined && !found.has(i)) found.set(i, token)
      }
      if (found.size === 1) {
        const [[i, token]] = [...found] as [[number, string]]
        hit = i
        via = `reference: the description names the provider's ${keyField(provider[i] as EngineProvider, token)}`
      } else if (found.size > 1) {
        const ps = [...found.keys()].sort((a, b) => a - b)
        groupsByDescription.push({ f: fi, ps, keys: ps.map((i) => found.get(i) as string) })
        continue
      }
    }
    if (hit === undefined || decisions.dismissed.has(pairKey([(provider[hit] as EngineProvider).id], [row.id]))) continue
    const list = hitsOf.get(hit) ?? []
    list.push({ f: fi, via })
    hitsOf.set(hit, list)
    if ((fi & 0xffff) === 0) {
      checkCancelled(signal)
      onProgress?.('keys', fi, file.length)
    }
  }
  const pending: { p: number; hits: { f: number; via: string }[] }[] = [...hitsOf].map(([p, hits]) => ({ p, hits }))
  pending.sort((a, b) => a.p - b.p)
  for (const { p, hits } of pending) {
    const target = expected(p)
    hits.sort((a, b) => Math.abs((fDay[a.f] as number) - (pDay[p] as number)) - Math.abs((fDay[b.f] as number) - (pDay[p] as number)) || Math.abs((file[a.f] as EngineFileRow).amountMinor - target) - Math.abs((file[b.f] as EngineFileRow).amountMinor - target) || a.f - b.f)
    const [first, ...rest] = hits as [{ f: number; via: string }, ...{ f: number; via: string }[]]
    if (pClaimed[p]) {
      // Matched by a decision already: every line naming it again is a duplicate.
      for (const h of hits) {
        fClaimed[h.f] = 1
        items.push({ outcome: 'duplicate_in_file', p: [], f: [h.f], score: null, reasons: [h.via, `the provider record ${(provider[p] as EngineProvider).id} is already matched`], decision: null })
      }
      continue
    }
    claim(compare([p], [first.f], [first.via]))
    for (const h of rest) {
      fClaimed[h.f] = 1
      items.push({ outcome: 'duplicate_in_file', p: [], f: [h.f], score: null, reasons: [h.via, `the file has this reference again: line ${(file[first.f] as EngineFileRow).line} is matched to ${(provider[p] as EngineProvider).id}`], decision: null })
    }
  }
  for (const g of groupsByDescription) {
    if (fClaimed[g.f] || g.ps.some((i) => pClaimed[i])) continue
    claim(compare(g.ps, [g.f], [`reference: the description names ${g.ps.length} provider references (${g.keys.join(', ')})`]))
  }
  checkCancelled(signal)

  // 3. Scored 1:1 suggestions among what is left.
  onProgress?.('suggestions', 0, file.length)
  const pWords = new Map<number, string[]>()
  const wordsOfP = (i: number): string[] => {
    let w = pWords.get(i)
    if (!w) {
      const p = provider[i] as EngineProvider
      w = words([p.text, p.reference, p.serviceReference, ...(p.keys ?? [])].filter(Boolean).join(' '))
      pWords.set(i, w)
    }
    return w
  }
  const open = (i: number): boolean => !pClaimed[i] && !NO_MONEY.has((provider[i] as EngineProvider).status)
  // Open provider records by currency and direction, sorted by day: a window is a binary search away.
  const lanes = new Map<string, number[]>()
  provider.forEach((p, i) => {
    if (!open(i)) return
    const lane = `${p.currency}${Math.sign(expected(i)) >= 0 ? '+' : '-'}`
    const list = lanes.get(lane) ?? []
    list.push(i)
    lanes.set(lane, list)
  })
  for (const list of lanes.values()) list.sort((a, b) => (pDay[a] as number) - (pDay[b] as number) || a - b)
  const laneOf = (currency: string, amount: number): number[] => lanes.get(`${currency}${amount >= 0 ? '+' : '-'}`) ?? []
  /** Open provider records in a lane whose day lies in [lo, hi]. */
  const inWindow = (lane: number[], lo: number, hi: number, limit: number): number[] => between(lane, pDay, lo, hi, limit).filter((i) => !pClaimed[i])
  interface Edge {
    f: number
    p: number
    score: number
    dateDistance: number
    amountDifference: number
    reasons: string[]
  }
  const edges: Edge[] = []
  const edgesOfF = new Map<number, Edge[]>()
  const edgesOfP = new Map<number, Edge[]>()
  for (let fi = 0; fi < file.length; fi++) {
    if (fClaimed[fi]) continue
    const row = file[fi] as EngineFileRow
    const fw = words([row.description, row.counterparty, row.reference].filter(Boolean).join(' '))
    if (fw.length === 0) continue
    const day = fDay[fi] as number
    // The file's day lies between daysBefore before and daysAfter after the provider's: so the provider's lies in [day − after, day + before].
    for (const pi of inWindow(laneOf(row.currency, row.amountMinor), day - settings.daysAfter, day + settings.daysBefore, 5_000)) {
      const difference = Math.abs(row.amountMinor - expected(pi))
      if (difference > tol(row.currency)) continue
      if (decisions.dismissed.has(pairKey([(provider[pi] as EngineProvider).id], [row.id]))) continue
      const text = similarity(fw, wordsOfP(pi))
      if (text < 0.5) continue // amount and date alone never make a match
      const distance = day - (pDay[pi] as number)
      const amountScore = difference === 0 ? 3 : 2
      const dateScore = distance === 0 ? 3 : Math.abs(distance) <= 2 ? 2 : 1
      const textScore = Math.round(text * 40) / 10
      const edge: Edge = {
        f: fi,
        p: pi,
        score: amountScore + dateScore + textScore,
        dateDistance: Math.abs(distance),
        amountDifference: difference,
        reasons: [
          `amount ${difference === 0 ? 'equal' : `within the tolerance (${difference} minor units apart)`} +${amountScore}`,
          `date ${distance === 0 ? 'same day' : `${Math.abs(distance)} day(s) ${distance > 0 ? 'after' : 'before'} the provider's`} +${dateScore}`,
          `text ${Math.round(text * 100)}% alike +${textScore}`
        ]
      }
      edges.push(edge)
      pushTo(edgesOfF, fi, edge)
      pushTo(edgesOfP, pi, edge)
    }
    if ((fi & 0xfff) === 0) checkCancelled(signal)
  }
  const edgeOrder = (a: Edge, b: Edge): number => b.score - a.score || a.dateDistance - b.dateDistance || a.amountDifference - b.amountDifference || a.f - b.f || a.p - b.p
  edges.sort(edgeOrder)
  const margin = settings.ambiguityMargin
  for (const edge of edges) {
    if (fClaimed[edge.f] || pClaimed[edge.p]) continue
    const rivalsF = (edgesOfF.get(edge.f) ?? []).filter((e) => e !== edge && !pClaimed[e.p] && edge.score - e.score < margin)
    const rivalsP = (edgesOfP.get(edge.p) ?? []).filter((e) => e !== edge && !fClaimed[e.f] && edge.score - e.score < margin)
    if (rivalsF.length === 0 && rivalsP.length === 0) {
      claim({ outcome: 'suggested', p: [edge.p], f: [edge.f], score: edge.score, reasons: edge.reasons, decision: null })
      continue
    }
    const ps = [...new Set([edge.p, ...rivalsF.map((e) => e.p)])].sort((a, b) => a - b)
    const fs = [...new Set([edge.f, ...rivalsP.map((e) => e.f)])].sort((a, b) => a - b)
    const names = [...rivalsF.map((e) => `provider ${(provider[e.p] as EngineProvider).id} (score ${e.score})`), ...rivalsP.map((e) => `file line ${(file[e.f] as EngineFileRow).line} (score ${e.score})`)]
    claim({ outcome: 'ambiguous', p: ps, f: fs, score: edge.score, reasons: [`best candidate scores ${edge.score}; within ${margin} of it: ${names.join(', ')}`, 'none is picked'], decision: null })
  }
  checkCancelled(signal)

  // 4. Groups: one line equal to the sum of several records (a settlement, a bulk payout), or the reverse.
  onProgress?.('groups', 0, file.length)
  for (let fi = 0; fi < file.length; fi++) {
    if (fClaimed[fi]) continue
    const row = file[fi] as EngineFileRow
    const day = fDay[fi] as number
    const candidates = inWindow(laneOf(row.currency, row.amountMinor), day - settings.daysAfter, day + settings.daysBefore, 5_000)
      .filter((pi) => Math.sign(expected(pi)) === Math.sign(row.amountMinor) && !decisions.dismissed.has(pairKey([(provider[pi] as EngineProvider).id], [row.id])))
    if (candidates.length < 2) continue
    const found = findGroup(candidates, (i) => expected(i), row.amountMinor, tol(row.currency), (i) => `${provider[i]?.day}|${provider[i]?.channel ?? ''}`, (i) => Math.abs((pDay[i] as number) - day), settings.groupSearchLimit)
    if (!found) continue
    const ids = found.members.map((i) => (provider[i] as EngineProvider).id)
    if (decisions.dismissed.has(pairKey(ids, [row.id]))) continue
    if (found.ambiguous) {
      claim({ outcome: 'ambiguous', p: [], f: [fi], score: null, reasons: [`the line equals the sum of more than one set of provider records (${found.how})`, 'none is picked'], decision: null })
      continue
    }
    const net = settings.netOfFees ? ' net of fees' : ''
    claim({ outcome: 'suggested', p: [...found.members].sort((a, b) => a - b), f: [fi], score: null, reasons: [`sum of ${found.members.length} provider records${net} equals the line (${found.how})`, `members: ${ids.join(', ')}`], decision: null })
  }
  // N:1: one provider record paid out or in as several lines.
  // Open file lines by currency and direction, in day order (the file array is sorted by day).
  const fileLanes = new Map<string, number[]>()
  file.forEach((f, i) => {
    if (!fClaimed[i]) pushTo(fileLanes, `${f.currency}${f.amountMinor >= 0 ? '+' : '-'}`, i)
  })
  for (let pi = 0; pi < provider.length; pi++) {
    if (!open(pi)) continue
    const p = provider[pi] as EngineProvider
    const lane = fileLanes.get(`${p.currency}${expected(pi) >= 0 ? '+' : '-'}`) ?? []
    const day = pDay[pi] as number
    const candidates = between(lane, fDay, day - settings.daysBefore, day + settings.daysAfter, 5_000).filter((fi) => !fClaimed[fi] && !decisions.dismissed.has(pairKey([p.id], [(file[fi] as EngineFileRow).id])))
    if (candidates.length < 2) continue
    const found = findGroup(candidates, (i) => (file[i] as EngineFileRow).amountMinor, expected(pi), tol(p.currency), (i) => file[i]?.date ?? '', (i) => Math.abs((fDay[i] as number) - day), settings.groupSearchLimit)
    if (!found) continue
    if (decisions.dismissed.has(pairKey([p.id], found.members.map((i) => (file[i] as EngineFileRow).id)))) continue
    if (found.ambiguous) {
      claim({ outcome: 'ambiguous', p: [pi], f: [], score: null, reasons: [`the record equals the sum of more than one set of file lines (${found.how})`, 'none is picked'], decision: null })
      continue
    }
    claim({ outcome: 'suggested', p: [pi], f: [...found.members].sort((a, b) => a - b), score: null, reasons: [`sum of ${found.members.length} file lines equals the record (${found.how})`, `lines: ${found.members.map((i) => (file[i] as EngineFileRow).line).join(', ')}`], decision: null })
  }
  checkCancelled(signal)

  // 5. Whatever is left is on one side only.
  let leftOutFailed = 0
  provider.forEach((p, i) => {
    if (pClaimed[i]) return
    if (NO_MONEY.has(p.status)) {
      leftOutFailed++
      return
    }
    items.push({ outcome: 'only_in_provider', p: [i], f: [], score: null, reasons: [p.status === 'pending' ? 'pending at the provider; not in the file' : 'not in the file'], decision: null })
  })
  file.forEach((_, i) => {
    if (!fClaimed[i]) items.push({ outcome: 'only_in_file', p: [], f: [i], score: null, reasons: ['no provider record matches'], decision: null })
  })

  // Stable order: by the earliest day of the item, then its key.
  const firstDay = (item: MatchItem): string => {
    let day = '9999-99-99'
    for (const i of item.p) if ((provider[i] as EngineProvider).day < day) day = (provider[i] as EngineProvider).day
    for (const i of item.f) if ((file[i] as EngineFileRow).date < day) day = (file[i] as EngineFileRow).date
    return day
  }
  const keyed = items.map((item) => ({ item, day: firstDay(item), key: itemKey(item.p.map((i) => (provider[i] as EngineProvider).id), item.f.map((i) => (file[i] as EngineFileRow).id)) }))
  keyed.sort((a, b) => compareText(a.day, b.day) || compareText(a.key, b.key))
  onProgress?.('done', file.length, file.length)
  return { provider, file, items: keyed.map((k) => k.item), leftOutFailed, netOfFees: settings.netOfFees }
}

function keyField(p: EngineProvider, key: string): string {
  if (p.reference && normaliseReference(p.reference) === key) return `reference "${p.reference}"`
  if (p.serviceReference && normaliseReference(p.serviceReference) === key) return `service reference "${p.serviceReference}"`
  return `key "${key}"`
}

/**
 * A set of two or more candidates whose amounts sum to `target` (within `tolerance`): first whole
 * groups sharing a grouping key (same day and channel), then a bounded subset-sum search over the
 * `limit` candidates nearest in time. Ambiguous when more than one set qualifies.
 */
export function findGroup(
  candidates: number[],
  amountOf: (i: number) => number,
  target: number,
  tolerance: number,
  groupOf: (i: number) => string,
  distanceOf: (i: number) => number,
  limit: number
): { members: number[]; ambiguous: boolean; how: string } | null {
  const groups = new Map<string, number[]>()
  for (const i of candidates) pushTo(groups, groupOf(i), i)
  const fits = (sum: number): boolean => Math.abs(sum - target) <= tolerance
  const whole = [...groups.values()].filter((members) => members.length >= 2 && fits(members.reduce((s, i) => s + amountOf(i), 0)))
  if (whole.length === 1) return { members: whole[0] as number[], ambiguous: false, how: 'all records of one day and channel' }
  if (whole.length > 1) return { members: [], ambiguous: true, how: `${whole.length} day-and-channel groups have that sum` }
  const nearest = [...candidates].sort((a, b) => distanceOf(a) - distanceOf(b) || a - b).slice(0, limit)
  const amounts = nearest.map(amountOf)
  // Search by magnitude, largest first, with the rest's sum as the bound.
  const order = nearest.map((_, k) => k).sort((a, b) => Math.abs(amounts[b] as number) - Math.abs(amounts[a] as number) || a - b)
  const values = order.map((k) => Math.abs(amounts[k] as number))
  const goal = Math.abs(target)
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
  const how = `searched ${nearest.length} of ${candidates.length} candidates`
  // A search cut short cannot show the set is the only one: nothing is offered.
  if (solutions.length === 0 || (budget <= 0 && solutions.length < 2)) return null
  if (solutions.length > 1) return { members: [], ambiguous: true, how }
  return { members: (solutions[0] as number[]).map((k) => nearest[order[k] as number] as number), ambiguous: false, how }
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

/** Entries of `lane` (sorted by `day`) whose day lies in [lo, hi], at most `limit`. */
function between(lane: readonly number[], day: ArrayLike<number>, lo: number, hi: number, limit: number): number[] {
  let a = 0
  let b = lane.length
  while (a < b) {
    const m = (a + b) >> 1
    if ((day[lane[m] as number] as number) < lo) a = m + 1
    else b = m
  }
  const out: number[] = []
  for (let k = a; k < lane.length && out.length < limit; k++) {
    const i = lane[k] as number
    if ((day[i] as number) > hi) break
    out.push(i)
  }
  return out
}

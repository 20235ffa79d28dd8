// The matching engine: decisions first, exact keys over the whole batch, then scored 1:1 suggestions, then 1:N / N:1 groups by sum; deterministic whatever the input order.
import { parseMajor } from '../../shared/money'
import { expectedAmount, pairKey, type Outcome, type ReconSettings } from '../../shared/reconcile'
import { dayNumber } from './import/dates'
import { KeyIndex } from './key-index'
import { ItemColumns, MatchItems } from './match-items'
import { normaliseReference, referenceCandidates, referenceTokens, similarity, words } from './references'

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
  /** Dated just outside the session's period (within the match window's reach): an item only when a line claims it. */
  outsidePeriod?: boolean
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

export type { MatchItem } from './match-items'

export interface MatchResult {
  provider: readonly EngineProvider[]
  file: readonly EngineFileRow[]
  /** Items in content order (see matchSteps). */
  items: MatchItems
  /** Failed or cancelled provider records nothing in the file points at: no money moved, so no item. */
  leftOutFailed: number
  /** Records from just outside the period that no line claims: another period's, so no item. */
  leftOutOutsidePeriod: number
  netOfFees: boolean
}

export interface MatchOptions {
  signal?: AbortSignal
  onProgress?: (phase: string, done: number, total: number) => void
}

export const NO_DECISIONS: EngineDecisions = { pinned: [], dismissed: new Set() }

/** What a status says of the money: 1 moved (successful, expected), 2 none moved (failed, cancelled), 0 not yet known (pending, unknown). */
function moneyOf(status: string): number {
  return status === 'successful' || status === 'expected' ? 1 : status === 'failed' || status === 'cancelled' ? 2 : 0
}

const NOT_IN_FILE: readonly string[] = Object.freeze(['not in the file'])
const PENDING_NOT_IN_FILE: readonly string[] = Object.freeze(['pending at the provider; not in the file'])
const NO_RECORD_MATCHES: readonly string[] = Object.freeze(['no provider record matches'])

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

function checkCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DOMException('The matching was cancelled.', 'AbortError')
}

/** Matches synchronously (tests, the CLI); cancellation is checked at every step. */
export function runMatch(
  provider: readonly EngineProvider[],
  file: readonly EngineFileRow[],
  settings: ReconSettings,
  decisions: EngineDecisions = NO_DECISIONS,
  options: MatchOptions = {}
): MatchResult {
  const steps = matchSteps(provider, file, settings, decisions, options)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    checkCancelled(options.signal)
  }
}

/**
 * Matches in steps of at most about 65,000 records, letting the host's event loop run between
 * them: calls are answered, progress goes out, and a cancel stops the job at the next step.
 */
export async function runMatchAsync(
  provider: readonly EngineProvider[],
  file: readonly EngineFileRow[],
  settings: ReconSettings,
  decisions: EngineDecisions = NO_DECISIONS,
  options: MatchOptions = {}
): Promise<MatchResult> {
  const steps = matchSteps(provider, file, settings, decisions, options)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    await new Promise((resolve) => setImmediate(resolve))
    checkCancelled(options.signal)
  }
}

/** Why an exact key matched, by how it was found: the file's reference column or its description, and the provider's field. */
const KEY_REASONS = [
  "reference: the file's reference is the provider's reference",
  "reference: the file's reference is the provider's service reference",
  "reference: the file's reference is the provider's own key (account number or id)",
  '',
  "reference: the description names the provider's reference",
  "reference: the description names the provider's service reference",
  "reference: the description names the provider's own key (account number or id)"
]

/**
 * Matches provider records with file rows. Nothing depends on the order of either input: where an
 * order matters (tie-breaks, the greedy passes, the result), records and rows are ranked by their
 * content — day, amount, then id (a file row's id is its content).
 */
function* matchSteps(
  provider: readonly EngineProvider[],
  file: readonly EngineFileRow[],
  settings: ReconSettings,
  decisions: EngineDecisions,
  options: MatchOptions
): Generator<void, MatchResult> {
  const { onProgress } = options
  // What the passes read most, in typed arrays: a record's or line's day, amount and currency without
  // touching its object (a million objects scattered in memory are slow to visit out of order).
  const currencies = new Map<string, number>()
  // Most rows share one currency: the last one is compared before any look-up.
  let lastCode = ''
  let lastId = -1
  const currencyId = (code: string): number => {
    if (code === lastCode) return lastId
    let id = currencies.get(code)
    if (id === undefined) currencies.set(code, (id = currencies.size))
    lastCode = code
    lastId = id
    return id
  }
  const pDay = new Int32Array(provider.length)
  const pAmount = new Float64Array(provider.length)
  const pExpected = new Float64Array(provider.length)
  const pCurrency = new Uint16Array(provider.length)
  /** moneyOf each record's status. */
  const pMoney = new Uint8Array(provider.length)
  /** Records with further keys (a virtual account's number). */
  const withKeys: number[] = []
  yield* slices(provider.length, (from, to) => {
    for (let i = from; i < to; i++) {
      const p = provider[i] as EngineProvider
      if (p.keys && p.keys.length > 0) withKeys.push(i)
      pDay[i] = dayNumber(p.day)
      pAmount[i] = p.amountMinor
      pExpected[i] = expectedAmount(p, settings.netOfFees)
      pCurrency[i] = currencyId(p.currency)
      pMoney[i] = moneyOf(p.status)
    }
  })
  const fDay = new Int32Array(file.length)
  const fAmount = new Float64Array(file.length)
  const fCurrency = new Uint16Array(file.length)
  yield* slices(file.length, (from, to) => {
    for (let i = from; i < to; i++) {
      const f = file[i] as EngineFileRow
      fDay[i] = dayNumber(f.date)
      fAmount[i] = f.amountMinor
      fCurrency[i] = currencyId(f.currency)
    }
  })
  /** Content order of two provider records / two file rows: day, amount, id. */
  /** 1 for a record from just outside the period (read because the window reaches past it), else 0. */
  const outside = (i: number): number => ((provider[i] as EngineProvider).outsidePeriod === true ? 1 : 0)
  const pOrder = (a: number, b: number): number =>
    (pDay[a] as number) - (pDay[b] as number) ||
    (pAmount[a] as number) - (pAmount[b] as number) ||
    compareText((provider[a] as EngineProvider).id, (provider[b] as EngineProvider).id)
  const fOrder = (a: number, b: number): number =>
    (fDay[a] as number) - (fDay[b] as number) ||
    (fAmount[a] as number) - (fAmount[b] as number) ||
    compareText((file[a] as EngineFileRow).id, (file[b] as EngineFileRow).id)
  const expected = (i: number): number => pExpected[i] as number
  const toleranceCache = new Map<string, number>()
  const tol = (currency: string): number => {
    let t = toleranceCache.get(currency)
    if (t === undefined) {
      try {
        t = Math.abs(parseMajor(settings.amountTolerance, currency))
      } catch {
        t = 0
      }
      toleranceCache.set(currency, t)
    }
    return t
  }
  const pClaimed = new Uint8Array(provider.length)
  const fClaimed = new Uint8Array(file.length)
  /** A rejected pair; most sessions have none, so the key is only built when some exist. */
  const anyDismissed = decisions.dismissed.size > 0
  const isDismissed = (ps: readonly string[], fs: readonly string[]): boolean => anyDismissed && decisions.dismissed.has(pairKey(ps, fs))
  /** One record and one line: the ids are only looked at when something was rejected at all. */
  const pairDismissed = (p: number, f: number): boolean =>
    anyDismissed && decisions.dismissed.has(pairKey([(provider[p] as EngineProvider).id], [(file[f] as EngineFileRow).id]))

  /** The outcome of records and rows that belong together (by key, decision or accepted group), and why. */
  const judge = (ps: readonly number[], fs: readonly number[]): { outcome: Outcome; reason: string } => {
    const currency = (provider[ps[0] as number] as EngineProvider).currency
    let oneCurrency = true
    let fileSum = 0
    let expectedSum = 0
    let amountSum = 0
    let moved = true
    for (const i of fs) {
      const f = file[i] as EngineFileRow
      fileSum += f.amountMinor
      if (f.currency !== currency) oneCurrency = false
    }
    for (const i of ps) {
      const p = provider[i] as EngineProvider
      expectedSum += expected(i)
      amountSum += p.amountMinor
      if (p.currency !== currency) oneCurrency = false
      if (pMoney[i] !== 1) moved = false
    }
    const sign = Math.sign(expectedSum) || Math.sign(amountSum)
    const fileShowsMoney = fileSum !== 0 && Math.sign(fileSum) === sign
    const difference = fileSum - expectedSum
    if (!oneCurrency) {
      const pCur = [...new Set(ps.map((i) => (provider[i] as EngineProvider).currency))]
      const fCur = [...new Set(fs.map((i) => (file[i] as EngineFileRow).currency))]
      return { outcome: 'currency_differs', reason: `currency: provider ${pCur.join('/')} against file ${fCur.join('/')}` }
    }
    if (!moved && fileShowsMoney) {
      const notMoved = [...new Set(ps.map((i) => (provider[i] as EngineProvider).status).filter((s) => moneyOf(s) !== 1))]
      return { outcome: 'status_differs', reason: `status: the provider says ${notMoved.join('/')} but the file shows the money` }
    }
    if (moved && !fileShowsMoney)
      return { outcome: 'status_differs', reason: 'status: the provider says successful but the file shows no money in that direction' }
    if (difference === 0) return { outcome: 'matched', reason: equalReason }
    if (Math.abs(difference) <= tol(currency)) return { outcome: 'matched', reason: 'amount: within the tolerance' }
    return {
      outcome: 'amount_differs',
      reason: `amount: the file differs by ${difference} minor units${settings.netOfFees ? ' (net of fees)' : ''}`
    }
  }
  // The common reason pairs are shared, not built per item (a million matches, a handful of texts).
  const sharedReasons = new Map<string, Map<string, string[]>>()
  const reasonsOf = (via: string, reason: string): string[] => {
    if (reason.startsWith('amount: the file differs')) return [via, reason]
    let byReason = sharedReasons.get(via)
    if (!byReason) sharedReasons.set(via, (byReason = new Map()))
    let shared = byReason.get(reason)
    if (!shared) byReason.set(reason, (shared = Object.freeze([via, reason]) as string[]))
    return shared
  }
  const equalReason = settings.netOfFees ? 'amount: equal, net of fees' : 'amount: equal'
  /**
   * Each item's lead, what orders the result: its first file line by content (a line's index), else
   * its first record (−1 − the record's index); noted as the item is made, while its members are at hand.
   */
  const items = new ItemColumns(provider.length, file.length)
  const leads = new Int32Array(provider.length + file.length)
  /** An item of at most one record and one line (−1 for none), made without arrays: most items. */
  const emitOne = (outcome: Outcome, p: number, f: number, score: number | null, reasons: readonly string[]): number => {
    const k = items.addOne(outcome, p, f, score, reasons)
    leads[k] = f >= 0 ? f : -1 - p
    return k
  }
  const emit = (
    outcome: Outcome,
    ps: readonly number[],
    fs: readonly number[],
    score: number | null,
    reasons: readonly string[]
  ): number => {
    const k = items.add(outcome, ps, fs, score, reasons)
    if (fs.length > 0) leads[k] = fs.reduce((best, i) => (fOrder(i, best) < 0 ? i : best))
    else leads[k] = -1 - ps.reduce((best, i) => (pOrder(i, best) < 0 ? i : best))
    return k
  }
  const claimOne = (outcome: Outcome, p: number, f: number, score: number | null, reasons: readonly string[]): number => {
    if (p >= 0) pClaimed[p] = 1
    if (f >= 0) fClaimed[f] = 1
    return emitOne(outcome, p, f, score, reasons)
  }
  const claim = (
    outcome: Outcome,
    ps: readonly number[],
    fs: readonly number[],
    score: number | null,
    reasons: readonly string[]
  ): number => {
    for (const i of ps) pClaimed[i] = 1
    for (const i of fs) fClaimed[i] = 1
    return emit(outcome, ps, fs, score, reasons)
  }
  // The reasons of the last key match made (most items share them): no look-up per item.
  let matchedVia = ''
  let matchedReasons: readonly string[] = []
  /** Claims one record and one line that belong together: the common case, the same money, is decided without the sums of judge. */
  const claimPair = (p: number, f: number, via: string): number => {
    const target = pExpected[p] as number
    if (target !== 0 && fAmount[f] === target && fCurrency[f] === pCurrency[p] && pMoney[p] === 1) {
      if (via !== matchedVia) matchedReasons = reasonsOf((matchedVia = via), equalReason)
      return claimOne('matched', p, f, null, matchedReasons)
    }
    const { outcome, reason } = judge([p], [f])
    return claimOne(outcome, p, f, null, reasonsOf(via, reason))
  }
  /** Claims records and lines that belong together (by key, decision or accepted group). */
  const claimTogether = (ps: readonly number[], fs: readonly number[], via: string): number => {
    if (ps.length === 1 && fs.length === 1) return claimPair(ps[0] as number, fs[0] as number, via)
    const { outcome, reason } = judge(ps, fs)
    return claim(outcome, ps, fs, null, reasonsOf(via, reason))
  }

  // 1. What the user decided holds first.
  const pinned = [...decisions.pinned].sort((a, b) => compareText(pairKey(a.providerIds, a.fileIds), pairKey(b.providerIds, b.fileIds)))
  if (pinned.length > 0) {
    const pIndex = new Map(provider.map((p, i) => [p.id, i]))
    const fIndex = new Map(file.map((f, i) => [f.id, i]))
    for (const pin of pinned) {
      const ps = pin.providerIds.map((id) => pIndex.get(id))
      const fs = pin.fileIds.map((id) => fIndex.get(id))
      if (ps.length === 0 || ps.some((i) => i === undefined || pClaimed[i] === 1) || fs.some((i) => i === undefined || fClaimed[i] === 1))
        continue
      items.setDecision(
        claimTogether(ps as number[], fs as number[], pin.kind === 'manual' ? 'matched by hand' : 'suggestion accepted'),
        pin.kind
      )
    }
  }
  yield
  onProgress?.('keys', 0, file.length)

  // 2. Exact keys. Each key maps to its record and the field it came from (index × 4 + 0 reference,
  // 1 service reference, 2 another key). A key two different references share is trusted for
  // neither: it stays in the map as COLLIDED, so it is never added again.
  const COLLIDED = -1
  const MISSING = KeyIndex.MISSING
  const keyed = new KeyIndex(provider.length * 2)
  const duplicates = new Map<string, { raw: string; others: number[] }>()
  /** Record i's key `raw` from `field` was there already, with the value `found`. */
  const keyTaken = (raw: string, i: number, field: number, found: number): void => {
    if (found === MISSING || found === COLLIDED) return
    const had = found >> 2
    if (had === i) return
    const same = raw.trim().toUpperCase()
    if (field === 0 && (found & 3) === 0 && (provider[had] as EngineProvider).reference?.trim().toUpperCase() === same) {
      // The same reference twice: the first by content keeps the key, the others are duplicates.
      const key = normaliseReference(raw)
      const entry = duplicates.get(key)
      if (entry) entry.others.push(i)
      else duplicates.set(key, { raw, others: [i] })
      return
    }
    keyed.set(raw, COLLIDED)
  }
  // Every reference and service reference at once (key j: record j >> 1, field j & 1), then other
  // keys. The order of adds across keys does not change the outcome: a key two records share ends
  // COLLIDED, or the same reference twice lists both, whichever came first.
  const keyText = (j: number): string => {
    const p = provider[j >> 1] as EngineProvider
    return ((j & 1) === 0 ? p.reference : p.serviceReference) ?? ''
  }
  yield* keyed.addAll(
    provider.length * 2,
    keyText,
    (j) => (j >> 1) * 4 + (j & 1),
    (j, found) => keyTaken(keyText(j), j >> 1, j & 1, found)
  )
  for (const i of withKeys) for (const k of (provider[i] as EngineProvider).keys as string[]) keyTaken(k, i, 2, keyed.add(k, i * 4 + 2))
  for (const { raw, others } of duplicates.values()) {
    const found = keyed.find(raw)
    if (found === MISSING || found === COLLIDED) continue
    // The period's own record keeps the key before one from just outside it; those outside are no duplicates of this period.
    const all = [found >> 2, ...others].sort((a, b) => outside(a) - outside(b) || pOrder(a, b))
    const keep = all[0] as number
    keyed.set(raw, keep * 4)
    for (const dup of all.slice(1)) {
      if (pClaimed[dup] || outside(dup) === 1) continue
      pClaimed[dup] = 1
      emitOne('duplicate_in_provider', dup, -1, null, [
        `the provider has reference "${(provider[keep] as EngineProvider).reference}" more than once; the first is ${(provider[keep] as EngineProvider).id}`
      ])
    }
  }
  // Each line's hit (the record its key names) and how it was found; how many lines name each record (2: two or more).
  const lineHit = new Int32Array(file.length).fill(-1)
  const hitHow = new Uint8Array(file.length)
  const hitCount = new Uint8Array(provider.length)
  const groupsByDescription: { f: number; ps: number[]; keys: string[] }[] = []
  const lookUpLine = (fi: number): void => {
    if (fClaimed[fi]) return
    const row = file[fi] as EngineFileRow
    let hit = -1
    if (row.reference) {
      // As written first (the common case, one look-up), then without a bank's prefix.
      let found = keyed.find(row.reference)
      if (found === MISSING || found === COLLIDED) {
        const candidates = referenceCandidates(row.reference)
        found = candidates.length > 1 ? keyed.find(candidates[1] as string) : MISSING
      }
      if (found !== MISSING && found !== COLLIDED) {
        hit = found >> 2
        hitHow[fi] = found & 3
      }
    }
    if (hit < 0) {
      const found = new Map<number, { token: string; how: number }>()
      for (const token of referenceTokens(row.reference ? `${row.description ?? ''} ${row.reference}` : row.description)) {
        const k = keyed.find(token)
        if (k !== MISSING && k !== COLLIDED && !found.has(k >> 2)) found.set(k >> 2, { token, how: 4 + (k & 3) })
      }
      if (found.size === 1) {
        const [[i, only]] = [...found] as [[number, { token: string; how: number }]]
        hit = i
        hitHow[fi] = only.how
      } else if (found.size > 1) {
        const ps = [...found.keys()].sort(pOrder)
        groupsByDescription.push({ f: fi, ps, keys: ps.map((i) => found.get(i)?.token as string) })
        return
      }
    }
    if (hit < 0 || pairDismissed(hit, fi)) return
    lineHit[fi] = hit
    if ((hitCount[hit] as number) < 2) hitCount[hit] = (hitCount[hit] as number) + 1
  }
  yield* slices(
    file.length,
    (from, to) => {
      for (let fi = from; fi < to; fi++) lookUpLine(fi)
    },
    (done) => onProgress?.('keys', done, file.length)
  )
  // A record one line names is paired with it, in line order (most records). A record several lines
  // name, or one a decision matched already, is settled after, in record order.
  const contested = new Map<number, number[]>()
  const pairLine = (fi: number): void => {
    const p = lineHit[fi] as number
    if (p < 0) return
    if (hitCount[p] === 1 && !pClaimed[p]) claimPair(p, fi, KEY_REASONS[hitHow[fi] as number] as string)
    else pushTo(contested, p, fi)
  }
  yield* slices(file.length, (from, to) => {
    for (let fi = from; fi < to; fi++) pairLine(fi)
  })
  /** A record named by several lines (in line order), or matched by a decision already. */
  const settleContested = (p: number, hits: number[]): void => {
    // Several lines name one record: the nearest in time, then in amount, then by content is the match.
    const target = expected(p)
    const distance = (f: number): number => Math.abs((fDay[f] as number) - (pDay[p] as number))
    const gap = (f: number): number => Math.abs((file[f] as EngineFileRow).amountMinor - target)
    hits.sort((a, b) => distance(a) - distance(b) || gap(a) - gap(b) || fOrder(a, b))
    const [first, ...rest] = hits as [number, ...number[]]
    const id = (provider[p] as EngineProvider).id
    if (pClaimed[p]) {
      // Matched by a decision already: every line naming it again is a duplicate.
      for (const f of hits) {
        fClaimed[f] = 1
        emitOne('duplicate_in_file', -1, f, null, [
          KEY_REASONS[hitHow[f] as number] as string,
          `the provider record ${id} is already matched`
        ])
      }
      return
    }
    claimPair(p, first, KEY_REASONS[hitHow[first] as number] as string)
    for (const f of rest) {
      fClaimed[f] = 1
      emitOne('duplicate_in_file', -1, f, null, [
        KEY_REASONS[hitHow[f] as number] as string,
        `the file has this reference again: line ${(file[first] as EngineFileRow).line} is matched to ${id}`
      ])
    }
  }
  for (const p of [...contested.keys()].sort((a, b) => a - b)) settleContested(p, contested.get(p) as number[])
  groupsByDescription.sort((a, b) => fOrder(a.f, b.f))
  for (const g of groupsByDescription) {
    if (fClaimed[g.f] || g.ps.some((i) => pClaimed[i])) continue
    claimTogether(g.ps, [g.f], `reference: the description names ${g.ps.length} provider references (${g.keys.join(', ')})`)
  }
  yield

  // What is left, in content order; ranks stand in for it in every tie-break below.
  const openP: number[] = []
  const openF: number[] = []
  const pRank = new Int32Array(provider.length)
  const fRank = new Int32Array(file.length)
  const rankOpen = (): void => {
    for (let i = 0; i < provider.length; i++) if (!pClaimed[i] && pMoney[i] !== 2) openP.push(i)
    openP.sort(pOrder)
    for (let i = 0; i < file.length; i++) if (!fClaimed[i]) openF.push(i)
    openF.sort(fOrder)
    openP.forEach((i, r) => (pRank[i] = r))
    openF.forEach((i, r) => (fRank[i] = r))
  }
  rankOpen()
  const byPRank = (a: number, b: number): number => (pRank[a] as number) - (pRank[b] as number)
  const byFRank = (a: number, b: number): number => (fRank[a] as number) - (fRank[b] as number)

  // 3. Scored 1:1 suggestions among what is left.
  onProgress?.('suggestions', 0, openF.length)
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
  // Open records by currency and direction (in day order: a window is a binary search away), and by
  // amount: within the tolerance t, amounts share a bucket of width t + 1 or sit in a neighbouring one.
  const lanes = new Map<string, number[]>()
  const buckets = new Map<string, number[]>()
  const bucketKey = (currency: string, amount: number, shift: number): string =>
    `${currency}|${Math.floor(amount / (tol(currency) + 1)) + shift}`
  for (const i of openP) {
    const p = provider[i] as EngineProvider
    pushTo(lanes, laneKey(p.currency, expected(i)), i)
    pushTo(buckets, bucketKey(p.currency, expected(i), 0), i)
  }
  const laneOf = (currency: string, amount: number): number[] => lanes.get(laneKey(currency, amount)) ?? []
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
  for (const fi of openF) {
    const row = file[fi] as EngineFileRow
    const fw = words([row.description, row.counterparty, row.reference].filter(Boolean).join(' '))
    if (fw.length === 0) continue
    const day = fDay[fi] as number
    const candidates: number[] = []
    // The file's day lies between daysBefore before and daysAfter after the provider's: so the provider's lies in [day − after, day + before].
    for (const shift of [-1, 0, 1])
      candidates.push(
        ...between(
          buckets.get(bucketKey(row.currency, row.amountMinor, shift)) ?? [],
          pDay,
          day - settings.daysAfter,
          day + settings.daysBefore,
          5_000
        )
      )
    for (const pi of candidates) {
      const exp = expected(pi)
      if (Math.sign(exp) !== Math.sign(row.amountMinor)) continue
      const difference = Math.abs(row.amountMinor - exp)
      if (difference > tol(row.currency)) continue
      if (pairDismissed(pi, fi)) continue
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
    if ((fRank[fi] as number) % 4096 === 4095) yield
  }
  edges.sort(
    (a, b) =>
      b.score - a.score ||
      a.dateDistance - b.dateDistance ||
      a.amountDifference - b.amountDifference ||
      byFRank(a.f, b.f) ||
      byPRank(a.p, b.p)
  )
  const margin = settings.ambiguityMargin
  for (const edge of edges) {
    if (fClaimed[edge.f] || pClaimed[edge.p]) continue
    const rivalsF = (edgesOfF.get(edge.f) ?? []).filter((e) => e !== edge && !pClaimed[e.p] && edge.score - e.score < margin)
    const rivalsP = (edgesOfP.get(edge.p) ?? []).filter((e) => e !== edge && !fClaimed[e.f] && edge.score - e.score < margin)
    if (rivalsF.length === 0 && rivalsP.length === 0) {
      claimOne('suggested', edge.p, edge.f, edge.score, edge.reasons)
      continue
    }
    const ps = [...new Set([edge.p, ...rivalsF.map((e) => e.p)])].sort(byPRank)
    const fs = [...new Set([edge.f, ...rivalsP.map((e) => e.f)])].sort(byFRank)
    const names = [
      ...rivalsF.map((e) => `provider ${(provider[e.p] as EngineProvider).id} (score ${e.score})`),
      ...rivalsP.map((e) => `file line ${(file[e.f] as EngineFileRow).line} (score ${e.score})`)
    ]
    claim('ambiguous', ps, fs, edge.score, [
      `best candidate scores ${edge.score}; within ${margin} of it: ${names.join(', ')}`,
      'none is picked'
    ])
  }
  yield

  // 4. Groups: one line equal to the sum of several records (a settlement, a bulk payout), or the reverse.
  onProgress?.('groups', 0, openF.length)
  // Each open record's group (its day and channel) as a small number.
  const pGroup = new Int32Array(provider.length)
  const groupIds = new Map<string, number>()
  for (const i of openP) {
    const key = `${pDay[i]}|${(provider[i] as EngineProvider).channel ?? ''}`
    let g = groupIds.get(key)
    if (g === undefined) groupIds.set(key, (g = groupIds.size))
    pGroup[i] = g
  }
  const pSums = new GroupSums(groupIds.size)
  const candidates: number[] = []
  for (const fi of openF) {
    if (((fRank[fi] as number) & 0xff) === 0xff) yield
    if (fClaimed[fi]) continue
    const row = file[fi] as EngineFileRow
    const day = fDay[fi] as number
    const lane = laneOf(row.currency, row.amountMinor)
    const sign = Math.sign(row.amountMinor)
    candidates.length = 0
    for (let k = windowStart(lane, pDay, day - settings.daysAfter), end = Math.min(lane.length, k + 5_000); k < end; k++) {
      const pi = lane[k] as number
      if ((pDay[pi] as number) > day + settings.daysBefore) break
      // Only money that moved is settled: a pending record is never part of a settlement line.
      if (!pClaimed[pi] && pMoney[pi] === 1 && Math.sign(expected(pi)) === sign && !pairDismissed(pi, fi)) candidates.push(pi)
    }
    if (candidates.length < 2) continue
    const found = findGroup(
      candidates,
      expected,
      row.amountMinor,
      tol(row.currency),
      (i) => pGroup[i] as number,
      pSums,
      (i) => Math.abs((pDay[i] as number) - day),
      settings.groupSearchLimit
    )
    if (!found) continue
    const ids = found.members.map((i) => (provider[i] as EngineProvider).id)
    if (isDismissed(ids, [row.id])) continue
    if (found.ambiguous) {
      claimOne('ambiguous', -1, fi, null, [
        `the line equals the sum of more than one set of provider records (${found.how})`,
        'none is picked'
      ])
      continue
    }
    const members = [...found.members].sort(byPRank)
    const net = settings.netOfFees ? ' net of fees' : ''
    claim('suggested', members, [fi], null, [
      `sum of ${members.length} provider records${net} equals the line (${found.how})`,
      `members: ${members.map((i) => (provider[i] as EngineProvider).id).join(', ')}`
    ])
  }
  // N:1: one provider record paid out or in as several lines. Open lines by currency and direction, in day order.
  const fileLanes = new Map<string, number[]>()
  let fMinDay = Infinity
  let fMaxDay = -Infinity
  for (const i of openF) {
    if (fClaimed[i]) continue
    pushTo(fileLanes, laneKey((file[i] as EngineFileRow).currency, (file[i] as EngineFileRow).amountMinor), i)
    fMinDay = Math.min(fMinDay, fDay[i] as number)
    fMaxDay = Math.max(fMaxDay, fDay[i] as number)
  }
  // A line's group is its day.
  const fSums = new GroupSums(fMaxDay >= fMinDay ? fMaxDay - fMinDay + 1 : 0)
  for (const pi of openP) {
    if (((pRank[pi] as number) & 0xff) === 0xff) yield
    if (pClaimed[pi]) continue
    const p = provider[pi] as EngineProvider
    const lane = fileLanes.get(laneKey(p.currency, expected(pi))) ?? []
    const day = pDay[pi] as number
    candidates.length = 0
    for (let k = windowStart(lane, fDay, day - settings.daysBefore), end = Math.min(lane.length, k + 5_000); k < end; k++) {
      const fi = lane[k] as number
      if ((fDay[fi] as number) > day + settings.daysAfter) break
      if (!fClaimed[fi] && !pairDismissed(pi, fi)) candidates.push(fi)
    }
    if (candidates.length < 2) continue
    const found = findGroup(
      candidates,
      (i) => fAmount[i] as number,
      expected(pi),
      tol(p.currency),
      (i) => (fDay[i] as number) - fMinDay,
      fSums,
      (i) => Math.abs((fDay[i] as number) - day),
      settings.groupSearchLimit
    )
    if (!found) continue
    const members = [...found.members].sort(byFRank)
    if (
      isDismissed(
        [p.id],
        members.map((i) => (file[i] as EngineFileRow).id)
      )
    )
      continue
    if (found.ambiguous) {
      claimOne('ambiguous', pi, -1, null, [`the record equals the sum of more than one set of file lines (${found.how})`, 'none is picked'])
      continue
    }
    claim('suggested', [pi], members, null, [
      `sum of ${members.length} file lines equals the record (${found.how})`,
      `lines: ${members.map((i) => (file[i] as EngineFileRow).line).join(', ')}`
    ])
  }
  yield

  // 5. Whatever is left is on one side only.
  let leftOutFailed = 0
  let leftOutOutsidePeriod = 0
  const leaveOver = (i: number): void => {
    if (pClaimed[i]) return
    if (outside(i) === 1) {
      leftOutOutsidePeriod++
      return
    }
    if (pMoney[i] === 2) {
      leftOutFailed++
      return
    }
    emitOne('only_in_provider', i, -1, null, (provider[i] as EngineProvider).status === 'pending' ? PENDING_NOT_IN_FILE : NOT_IN_FILE)
  }
  yield* slices(provider.length, (from, to) => {
    for (let i = from; i < to; i++) leaveOver(i)
  })
  for (const i of openF) if (!fClaimed[i]) emitOne('only_in_file', -1, i, null, NO_RECORD_MATCHES)

  // The result in content order: by each item's first file line, else its first record.
  yield
  onProgress?.('ordering', 0, items.count)
  const order = inContentOrder(items.count, leads, fDay, fAmount, pDay, pAmount, (lead) =>
    lead >= 0 ? (file[lead] as EngineFileRow).id : (provider[-1 - lead] as EngineProvider).id
  )
  onProgress?.('done', file.length, file.length)
  return { provider, file, items: new MatchItems(items, order), leftOutFailed, leftOutOutsidePeriod, netOfFees: settings.netOfFees }
}

/**
 * The order of `count` items by their leads (a line's index, or −1 − a record's index): by the lead's
 * day, then lines before records, then amount, then id. Items are counted into days first, then each
 * day is sorted on typed arrays (a million items sort in well under a second).
 */
function inContentOrder(
  count: number,
  leads: Int32Array,
  fDay: Int32Array,
  fAmount: Float64Array,
  pDay: Int32Array,
  pAmount: Float64Array,
  idOf: (lead: number) => string
): Int32Array {
  const order = new Int32Array(count)
  if (count === 0) return order
  const leadDay = new Int32Array(count)
  const leadAmount = new Float64Array(count)
  const leadIsFile = new Uint8Array(count)
  let minDay = Infinity
  let maxDay = -Infinity
  for (let k = 0; k < count; k++) {
    const lead = leads[k] as number
    let day: number
    if (lead >= 0) {
      leadIsFile[k] = 1
      day = fDay[lead] as number
      leadAmount[k] = fAmount[lead] as number
    } else {
      day = pDay[-1 - lead] as number
      leadAmount[k] = pAmount[-1 - lead] as number
    }
    leadDay[k] = day
    if (day < minDay) minDay = day
    if (day > maxDay) maxDay = day
  }
  const withinDay = (a: number, b: number): number =>
    (leadIsFile[b] as number) - (leadIsFile[a] as number) ||
    (leadAmount[a] as number) - (leadAmount[b] as number) ||
    compareText(idOf(leads[a] as number), idOf(leads[b] as number))
  const span = maxDay - minDay + 1
  const starts = new Int32Array(span + 1)
  for (let k = 0; k < count; k++) (starts[(leadDay[k] as number) - minDay + 1] as number)++
  for (let d = 0; d < span; d++) starts[d + 1] = (starts[d + 1] as number) + (starts[d] as number)
  const fill = starts.slice()
  for (let k = 0; k < count; k++) order[(fill[(leadDay[k] as number) - minDay] as number)++] = k
  for (let d = 0; d < span; d++) sortDay(order.subarray(starts[d] as number, starts[d + 1] as number), leadIsFile, leadAmount, withinDay)
  return order
}

/**
 * Sorts one day's items in place: lines before records, then amount, then id. Amounts within ±2^31
 * minor units (nearly every statement) are sorted as packed numbers by the native typed-array sort,
 * and only runs of equal amounts are ordered by id; anything larger goes through the general comparator.
 */
function sortDay(day: Int32Array, isFile: Uint8Array, amount: Float64Array, general: (a: number, b: number) => number): void {
  const n = day.length
  if (n < 2) return
  let fits = n < 1 << 20
  for (let j = 0; fits && j < n; j++) fits = Math.abs(amount[day[j] as number] as number) < 2 ** 31
  if (!fits) {
    day.set(Array.from(day).sort(general))
    return
  }
  // key = (group, amount) in the high bits, position in `day` in the low 20: exact below 2^53.
  const keys = new Float64Array(n)
  for (let j = 0; j < n; j++) {
    const k = day[j] as number
    keys[j] = ((isFile[k] ? 0 : 2 ** 32) + (amount[k] as number) + 2 ** 31) * 2 ** 20 + j
  }
  keys.sort()
  const unsorted = day.slice()
  for (let j = 0; j < n; j++) day[j] = unsorted[(keys[j] as number) % 2 ** 20] as number
  // Equal amounts: by id (the general comparator), run by run.
  for (let start = 0; start < n;) {
    let end = start + 1
    while (end < n && Math.floor((keys[end] as number) / 2 ** 20) === Math.floor((keys[start] as number) / 2 ** 20)) end++
    if (end - start > 1) day.subarray(start, end).sort(general)
    start = end
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
  for (const i of candidates) {
    const g = groupOf(i)
    if ((count[g] as number) === 0) touched.push(g)
    count[g] = (count[g] as number) + 1
    sum[g] = (sum[g] as number) + amountOf(i)
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
  if (whole.length > 1) return { members: [], ambiguous: true, how: `${whole.length} day-and-channel groups have that sum` }
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

/**
 * Runs `body` over [0, n) in slices, yielding between them. The hot loops live in plain functions
 * rather than in the generator's own body, which V8 optimises less well (measured ~7% on a million).
 */
function* slices(n: number, body: (from: number, to: number) => void, progress?: (done: number) => void): Generator<void> {
  const step = 65_536
  for (let from = 0; from < n; from += step) {
    body(from, Math.min(n, from + step))
    if (from + step < n) {
      yield
      progress?.(from + step)
    }
  }
}

/** Money of one currency moving one way: only such records and lines are ever compared. */
function laneKey(currency: string, amount: number): string {
  return `${currency}${amount >= 0 ? '+' : '-'}`
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

/** The first position in `lane` (sorted by `day`) whose day is `lo` or later. */
function windowStart(lane: readonly number[], day: ArrayLike<number>, lo: number): number {
  let a = 0
  let b = lane.length
  while (a < b) {
    const m = (a + b) >> 1
    if ((day[lane[m] as number] as number) < lo) a = m + 1
    else b = m
  }
  return a
}

/** Entries of `lane` (sorted by `day`) whose day lies in [lo, hi], at most `limit`. */
function between(lane: readonly number[], day: ArrayLike<number>, lo: number, hi: number, limit: number): number[] {
  const out: number[] = []
  for (let k = windowStart(lane, day, lo); k < lane.length && out.length < limit; k++) {
    const i = lane[k] as number
    if ((day[i] as number) > hi) break
    out.push(i)
  }
  return out
}

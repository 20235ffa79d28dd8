// Phase 2 of a match: exact keys over the whole batch. Each line's reference (or a key its description names) finds its record; the same reference twice at the provider, or named by several lines, is a duplicate.
import type { EngineFileRow, EngineProvider, MatchOptions } from './types'
import { KeyIndex } from '../key-index'
import { normaliseReference, referenceCandidates, referenceTokens } from '../references'
import { pushTo } from './lanes'
import { slices } from './slices'
import type { MatchState } from './state'

/** Why an exact key matched, by how it was found: the file's reference column or its description, and the provider's field. */
const KEY_REASONS = [
  "the line's reference is the provider's reference",
  "the line's reference is the provider's service reference",
  "the line's reference is the provider's account number",
  '',
  "the line's description names the provider's reference",
  "the line's description names the provider's service reference",
  "the line's description names the provider's account number"
]

/** A key two different references share is trusted for neither (see matchKeys). */
const COLLIDED = -1

export function* matchKeys(s: MatchState, onProgress: MatchOptions['onProgress']): Generator<void> {
  const { provider, file, pClaimed, fClaimed, fDay, pDay } = s
  onProgress?.('keys', 0, file.length)
  // Each key maps to its record and the field it came from (index × 4 + 0 reference, 1 service
  // reference, 2 another key). A key two different references share stays in the map as COLLIDED,
  // so it is never added again.
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
  for (const i of s.withKeys) for (const k of (provider[i] as EngineProvider).keys as string[]) keyTaken(k, i, 2, keyed.add(k, i * 4 + 2))
  for (const { raw, others } of duplicates.values()) {
    const found = keyed.find(raw)
    if (found === MISSING || found === COLLIDED) continue
    // The period's own record keeps the key before one from just outside it; those outside are no duplicates of this period.
    const all = [found >> 2, ...others].sort((a, b) => s.outside(a) - s.outside(b) || s.pOrder(a, b))
    const keep = all[0] as number
    keyed.set(raw, keep * 4)
    for (const dup of all.slice(1)) {
      if (pClaimed[dup] || s.outside(dup) === 1) continue
      pClaimed[dup] = 1
      s.emitOne('duplicate_in_provider', dup, -1, null, [
        `the provider has reference "${(provider[keep] as EngineProvider).reference}" more than once; the one dated ${(provider[keep] as EngineProvider).day} is the one lines are matched to`
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
        const ps = [...found.keys()].sort(s.pOrder)
        groupsByDescription.push({ f: fi, ps, keys: ps.map((i) => found.get(i)?.token as string) })
        return
      }
    }
    if (hit < 0 || s.pairDismissed(hit, fi)) return
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
    if (hitCount[p] === 1 && !pClaimed[p]) s.claimPair(p, fi, KEY_REASONS[hitHow[fi] as number] as string)
    else pushTo(contested, p, fi)
  }
  yield* slices(file.length, (from, to) => {
    for (let fi = from; fi < to; fi++) pairLine(fi)
  })
  /** A record named by several lines (in line order), or matched by a decision already. */
  const settleContested = (p: number, hits: number[]): void => {
    // Several lines name one record: the nearest in time, then in amount, then by content is the match.
    const target = s.expected(p)
    const distance = (f: number): number => Math.abs((fDay[f] as number) - (pDay[p] as number))
    const gap = (f: number): number => Math.abs((file[f] as EngineFileRow).amountMinor - target)
    hits.sort((a, b) => distance(a) - distance(b) || gap(a) - gap(b) || s.fOrder(a, b))
    const [first, ...rest] = hits as [number, ...number[]]
    if (pClaimed[p]) {
      // Matched by a decision already: every line naming it again is a duplicate.
      for (const f of hits) {
        fClaimed[f] = 1
        s.emitOne('duplicate_in_file', -1, f, null, [
          KEY_REASONS[hitHow[f] as number] as string,
          `the provider's ${s.recordName(p)} is already matched by a decision`
        ])
      }
      return
    }
    s.claimPair(p, first, KEY_REASONS[hitHow[first] as number] as string)
    for (const f of rest) {
      fClaimed[f] = 1
      s.emitOne('duplicate_in_file', -1, f, null, [
        KEY_REASONS[hitHow[f] as number] as string,
        `the file has this reference again: ${s.lineName(first)} is matched to the provider's ${s.recordName(p)}`
      ])
    }
  }
  for (const p of [...contested.keys()].sort((a, b) => a - b)) settleContested(p, contested.get(p) as number[])
  // A line not read stays an item, with the records whose references it names (those no read line has taken).
  for (const fi of s.notRead) {
    const row = file[fi] as EngineFileRow
    const named = new Set<number>()
    // Its reference column as written (as a read line's is looked up), then reference-like words anywhere in its text.
    const keys = [...(row.reference ? referenceCandidates(row.reference) : []), ...referenceTokens(row.notRead?.text ?? '')]
    for (const key of keys) {
      const k = keyed.find(key)
      if (k !== MISSING && k !== COLLIDED && !pClaimed[k >> 2]) named.add(k >> 2)
    }
    const ps = [...named].sort(s.pOrder)
    const reasons = [`${s.lineName(fi)} could not be read: ${row.notRead?.reason ?? ''}`]
    if (ps.length > 0) reasons.push(`it names the provider's ${ps.map((i) => s.recordName(i)).join(', ')}`)
    s.claim('not_read', ps, [fi], null, reasons)
  }
  groupsByDescription.sort((a, b) => s.fOrder(a.f, b.f))
  for (const g of groupsByDescription) {
    if (fClaimed[g.f] || g.ps.some((i) => pClaimed[i])) continue
    // Unmatched by the user, the group stays apart: its line and records are open to what follows, as any pair's are.
    if (
      s.isDismissed(
        g.ps.map((i) => (provider[i] as EngineProvider).id),
        [(file[g.f] as EngineFileRow).id]
      )
    )
      continue
    s.claimTogether(
      g.ps,
      [g.f],
      `the line's description names ${g.ps.length} provider references (${g.ps.map((i) => s.recordName(i)).join(', ')})`
    )
  }
}

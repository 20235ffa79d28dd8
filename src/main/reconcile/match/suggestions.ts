// Phase 3 of a match: scored 1:1 suggestions among what the keys left open (amount within the tolerance, date within the window, text alike); close rivals make the item ambiguous.
import type { EngineFileRow, EngineProvider, MatchOptions } from '../engine'
import { similarity, words } from '../references'
import { between, pushTo } from './lanes'
import type { MatchState } from './state'

interface Edge {
  f: number
  p: number
  score: number
  dateDistance: number
  amountDifference: number
  reasons: string[]
}

export function* suggestPairs(s: MatchState, onProgress: MatchOptions['onProgress']): Generator<void> {
  const { provider, file, settings, openP, openF, pDay, fDay, fClaimed, pClaimed, fRank } = s
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
  // Open records by amount: within the tolerance t, amounts share a bucket of width t + 1 or sit in a neighbouring one.
  const buckets = new Map<string, number[]>()
  const bucketKey = (currency: string, amount: number, shift: number): string =>
    `${currency}|${Math.floor(amount / (s.tol(currency) + 1)) + shift}`
  for (const i of openP) pushTo(buckets, bucketKey((provider[i] as EngineProvider).currency, s.expected(i), 0), i)
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
      const exp = s.expected(pi)
      if (Math.sign(exp) !== Math.sign(row.amountMinor)) continue
      const difference = Math.abs(row.amountMinor - exp)
      if (difference > s.tol(row.currency)) continue
      if (s.pairDismissed(pi, fi)) continue
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
      s.byFRank(a.f, b.f) ||
      s.byPRank(a.p, b.p)
  )
  const margin = settings.ambiguityMargin
  for (const edge of edges) {
    if (fClaimed[edge.f] || pClaimed[edge.p]) continue
    const rivalsF = (edgesOfF.get(edge.f) ?? []).filter((e) => e !== edge && !pClaimed[e.p] && edge.score - e.score < margin)
    const rivalsP = (edgesOfP.get(edge.p) ?? []).filter((e) => e !== edge && !fClaimed[e.f] && edge.score - e.score < margin)
    if (rivalsF.length === 0 && rivalsP.length === 0) {
      s.claimOne('suggested', edge.p, edge.f, edge.score, edge.reasons)
      continue
    }
    const ps = [...new Set([edge.p, ...rivalsF.map((e) => e.p)])].sort(s.byPRank)
    const fs = [...new Set([edge.f, ...rivalsP.map((e) => e.f)])].sort(s.byFRank)
    const names = [
      ...rivalsF.map((e) => `provider ${(provider[e.p] as EngineProvider).id} (score ${e.score})`),
      ...rivalsP.map((e) => `file line ${(file[e.f] as EngineFileRow).line} (score ${e.score})`)
    ]
    s.claim('ambiguous', ps, fs, edge.score, [
      `best candidate scores ${edge.score}; within ${margin} of it: ${names.join(', ')}`,
      'none is picked'
    ])
  }
}

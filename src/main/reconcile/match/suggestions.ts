// Phase 3 of a match: scored 1:1 suggestions among what the keys left open (amount within the tolerance, date within the window, text alike); close rivals make the item ambiguous.
import { moneyText } from '../../../shared/money'
import type { EngineFileRow, EngineProvider, MatchOptions } from './types'
import { evidenceScore } from '../../../shared/learning'
import { lineWords, similarity, words } from '../references'
import { between, pushTo } from './lanes'
import type { MatchState } from './state'

interface Edge {
  f: number
  p: number
  score: number
  dateDistance: number
  amountDifference: number
  /** The record was read net of its fees. */
  net: boolean
  /** Learned evidence speaks against the pair: a candidate, never offered. */
  barred?: boolean
  reasons: string[]
}

/**
 * `scope`: when given, only the records and lines it marks (1) are scored (a pool matched again, match/rematch.ts: it
 * holds every candidate of its members, and no line's window there holds 5,000 records, so they are read as a whole
 * pool's matching reads them).
 */
export function* suggestPairs(
  s: MatchState,
  onProgress: MatchOptions['onProgress'],
  scope?: { p: Uint8Array; f: Uint8Array }
): Generator<void> {
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
  // Open records by amount: within the tolerance t, amounts share a bucket of width t + 1 or sit in a
  // neighbouring one. A record that reads otherwise net of fees is in that amount's bucket too.
  const buckets = new Map<string, number[]>()
  const bucketKey = (currency: string, amount: number, shift: number): string =>
    `${currency}|${Math.floor(amount / (s.tol(currency) + 1)) + shift}`
  for (const i of openP) {
    if (scope && scope.p[i] !== 1) continue
    const currency = (provider[i] as EngineProvider).currency
    const gross = bucketKey(currency, s.expected(i), 0)
    pushTo(buckets, gross, i)
    if (s.hasNetReading(i)) {
      const net = bucketKey(currency, s.net(i), 0)
      if (net !== gross) pushTo(buckets, net, i)
    }
  }
  const edges: Edge[] = []
  const edgesOfF = new Map<number, Edge[]>()
  const edgesOfP = new Map<number, Edge[]>()
  // Exactly the amount inside the window, but nothing in common to read: each line's and record's such candidates.
  const bareOfF = new Map<number, Edge[]>()
  const bareCountOfP = new Map<number, number>()
  // The line a record was last looked at for (a record can sit in two buckets, or in neighbouring ones).
  const seenFor = new Int32Array(provider.length).fill(-1)
  const learned = s.decisions.learned
  for (const fi of openF) {
    if (scope && scope.f[fi] !== 1) continue
    const row = file[fi] as EngineFileRow
    const fw = words([row.description, row.counterparty, row.reference].filter(Boolean).join(' '))
    const day = fDay[fi] as number
    // What the user decided elsewhere about lines worded as this one, by the record's party.
    const said = learned ? lineWords(row) : null
    const known = said === null ? undefined : learned?.get(said)
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
      if (seenFor[pi] === fi) continue
      seenFor[pi] = fi
      const gross = s.expected(pi)
      if (Math.sign(gross) !== Math.sign(row.amountMinor)) continue
      const grossDifference = Math.abs(row.amountMinor - gross)
      const netDifference = s.hasNetReading(pi) ? Math.abs(row.amountMinor - s.net(pi)) : Infinity
      const net = netDifference < grossDifference
      const difference = net ? netDifference : grossDifference
      if (difference > s.tol(row.currency)) continue
      if (s.pairDismissed(pi, fi)) continue
      const text = fw.length === 0 ? 0 : similarity(fw, wordsOfP(pi))
      const party = known ? (provider[pi] as EngineProvider).party : undefined
      const evidence = party ? known?.get(party.key) : undefined
      const taught = evidence ? evidenceScore(evidence, row.currency, row.amountMinor, Number(row.date.slice(8, 10))) : null
      const distance = day - (pDay[pi] as number)
      const dateScore = distance === 0 ? 3 : Math.abs(distance) <= 2 ? 2 : 1
      const dateReason = `date ${distance === 0 ? 'same day' : `${Math.abs(distance)} day(s) ${distance > 0 ? 'after' : 'before'} the provider's`}`
      const fees = net ? ` net of fees (${moneyText(Math.abs((s.pAmount[pi] as number) - s.net(pi)), row.currency)})` : ''
      if (text < 0.5 && !(taught && taught.score > 0)) {
        // Amount and date alone never make a match; an exact amount is offered only when it is the one candidate (below),
        // and never for a wording the user rejected with this party more than confirmed (it is still a candidate).
        if (difference !== 0) continue
        pushTo(bareOfF, fi, {
          f: fi,
          p: pi,
          net,
          barred: taught !== null,
          score: dateScore / 2,
          dateDistance: Math.abs(distance),
          amountDifference: 0,
          reasons: [BARE, `amount equal${fees}`, dateReason]
        })
        bareCountOfP.set(pi, (bareCountOfP.get(pi) ?? 0) + 1)
        continue
      }
      const amountScore = difference === 0 ? 3 : 2
      const textScore = Math.round(text * 40) / 10
      const edge: Edge = {
        f: fi,
        p: pi,
        net,
        score: amountScore + dateScore + textScore + (taught?.score ?? 0),
        dateDistance: Math.abs(distance),
        amountDifference: difference,
        reasons: [
          `amount ${difference === 0 ? 'equal' : `within the tolerance (${moneyText(difference, row.currency)} apart)`}${fees} +${amountScore}`,
          `${dateReason} +${dateScore}`,
          `text ${Math.round(text * 100)}% alike +${textScore}`,
          ...(taught?.reasons ?? [])
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
      s.marked(s.claimOne('suggested', edge.p, edge.f, edge.score, edge.reasons), edge.net)
      continue
    }
    const ps = [...new Set([edge.p, ...rivalsF.map((e) => e.p)])].sort(s.byPRank)
    const fs = [...new Set([edge.f, ...rivalsP.map((e) => e.f)])].sort(s.byFRank)
    const names = [
      ...rivalsF.map((e) => `the provider's ${s.recordName(e.p)} (score ${e.score})`),
      ...rivalsP.map((e) => `${s.lineName(e.f)} (score ${e.score})`)
    ]
    s.claim('ambiguous', ps, fs, edge.score, [
      `best candidate scores ${edge.score}; within ${margin} of it: ${names.join(', ')}`,
      'none is picked'
    ])
  }
  // A line with exactly one candidate of exactly its amount inside the window, and nothing in common:
  // a low suggestion, never made when a second candidate qualifies on either side.
  for (const fi of openF) {
    const bare = bareOfF.get(fi)
    if (!bare || bare.length !== 1 || fClaimed[fi]) continue
    const edge = bare[0] as Edge
    if (edge.barred || pClaimed[edge.p] || bareCountOfP.get(edge.p) !== 1 || edgesOfF.has(fi) || edgesOfP.has(edge.p)) continue
    s.marked(s.claimOne('suggested', edge.p, fi, edge.score, edge.reasons), edge.net)
  }
}

/** Why a suggestion made of the amount and the date alone is only a suggestion. */
const BARE = 'amount and date only, no reference or name in common'

// Phase 1 of a match: what the user decided (an accepted suggestion, a match by hand) holds before anything else.
import { pairKey } from '../../../shared/reconcile'
import { compareText, type MatchState } from './state'

export function claimDecided(s: MatchState): void {
  const pinned = [...s.decisions.pinned].sort((a, b) => compareText(pairKey(a.providerIds, a.fileIds), pairKey(b.providerIds, b.fileIds)))
  if (pinned.length === 0) return
  // Only the members pins name are looked up (a pool matched again holds few of them among many records and lines).
  const named = new Set(pinned.flatMap((pin) => [...pin.providerIds, ...pin.fileIds]))
  const pIndex = new Map<string, number>()
  const fIndex = new Map<string, number>()
  const { known } = s
  if (!known) {
    s.provider.forEach((p, i) => named.has(p.id) && pIndex.set(p.id, i))
    s.file.forEach((f, i) => named.has(f.id) && fIndex.set(f.id, i))
  }
  const recordAt = known ? (id: string): number | undefined => known.recordAt(id) : (id: string): number | undefined => pIndex.get(id)
  const lineAt = known ? (id: string): number | undefined => known.lineAt(id) : (id: string): number | undefined => fIndex.get(id)
  for (const pin of pinned) {
    const ps = pin.providerIds.map(recordAt)
    const fs = pin.fileIds.map(lineAt)
    if (ps.length === 0 || ps.some((i) => i === undefined || s.pClaimed[i] === 1) || fs.some((i) => i === undefined || s.fClaimed[i] === 1))
      continue
    s.items.setDecision(
      s.claimTogether(ps as number[], fs as number[], pin.kind === 'manual' ? 'matched by hand' : 'suggestion accepted'),
      pin.kind
    )
  }
}

// Phase 5 of a match: whatever is left is on one side only (records of another period, or whose money failed, are left out and counted).
import type { EngineProvider } from './types'
import { slices } from './slices'
import type { MatchState } from './state'

const NOT_IN_FILE: readonly string[] = Object.freeze(['not in the file'])
const PENDING_NOT_IN_FILE: readonly string[] = Object.freeze(['still pending at the provider, so not due at the bank yet'])
const NO_RECORD_MATCHES: readonly string[] = Object.freeze(['no provider record matches'])

/** The records left out and why: their counts go in the result, not as items. */
export interface LeftOut {
  /** Failed or cancelled records nothing in the file points at: no money moved. */
  failed: number
  /** Records from just outside the period that no line claims: another period's. */
  outsidePeriod: number
}

/** `kept`: records and lines (1) whose item alone, as the last run made it, stands (a pool matched again, match/rematch.ts): none is made. */
export function* leaveOver(s: MatchState, kept?: { p: Uint8Array; f: Uint8Array }): Generator<void, LeftOut> {
  const { provider, pClaimed, fClaimed, pMoney } = s
  const left: LeftOut = { failed: 0, outsidePeriod: 0 }
  const leave = (i: number): void => {
    if (pClaimed[i]) return
    if (s.outside(i) === 1) {
      left.outsidePeriod++
      return
    }
    if (pMoney[i] === 2) {
      left.failed++
      return
    }
    if (kept?.p[i] === 1) return
    if ((provider[i] as EngineProvider).status === 'pending') s.emitOne('pending_at_provider', i, -1, null, PENDING_NOT_IN_FILE)
    else s.emitOne('only_in_provider', i, -1, null, NOT_IN_FILE)
  }
  yield* slices(provider.length, (from, to) => {
    for (let i = from; i < to; i++) leave(i)
  })
  for (const i of s.openF) if (!fClaimed[i] && kept?.f[i] !== 1) s.emitOne('only_in_file', -1, i, null, NO_RECORD_MATCHES)
  return left
}

// Items as a run stores them, for tests that build them by hand: the sides and outcome given, nothing decided about them.
import type { ReconItem } from '../../src/shared/reconcile'

export const reconItem = (fields: Pick<ReconItem, 'key' | 'outcome' | 'provider' | 'file'> & Partial<ReconItem>): ReconItem => ({
  differenceMinor: null,
  score: null,
  reasons: [],
  decision: null,
  note: null,
  reasonCode: null,
  resolved: false,
  decidedBy: null,
  decidedAt: null,
  ...fields
})

// The matching engine: decisions first, exact keys over the whole batch, then scored 1:1 suggestions, then 1:N / N:1 groups by sum; deterministic whatever the input order. Each phase is a module of ./match over one MatchState.
import type { ReconSettings } from '../../shared/reconcile'
import { MatchItems } from './match-items'
import { claimDecided } from './match/decided'
import { findGroups } from './match/groups'
import { matchKeys } from './match/keys'
import { leaveOver } from './match/leftovers'
import { inContentOrder } from './match/order'
import { MatchState } from './match/state'
import { suggestPairs } from './match/suggestions'
import type { EngineDecisions, EngineFileRow, EngineProvider, MatchOptions } from './match/types'

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

export const NO_DECISIONS: EngineDecisions = { pinned: [], dismissed: new Set() }

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
  const s = new MatchState(provider, file, settings, decisions, options.fileNames, options.filePages)
  yield* s.load()
  // 1. What the user decided holds first.
  claimDecided(s)
  yield
  // 2. Exact keys (unless a full run settled them, and these are what they left open).
  if (options.keysSettled !== true) {
    yield* matchKeys(s, onProgress)
    yield
  }
  // What is left, in content order; ranks stand in for it in every tie-break below.
  s.rankOpen()
  // 3. Scored 1:1 suggestions among what is left.
  yield* suggestPairs(s, onProgress)
  yield
  // 4. Groups: one line equal to the sum of several records (a settlement, a bulk payout), or the reverse.
  yield* findGroups(s, onProgress)
  yield
  // 5. Whatever is left is on one side only.
  const left = yield* leaveOver(s)
  // The result in content order: by each item's first file line, else its first record.
  yield
  onProgress?.('ordering', 0, s.items.count)
  const order = inContentOrder(s.items.count, s.leads, s.fDay, s.fAmount, s.pDay, s.pAmount, (lead) =>
    lead >= 0 ? (file[lead] as EngineFileRow).id : (provider[-1 - lead] as EngineProvider).id
  )
  onProgress?.('done', file.length, file.length)
  return {
    provider,
    file,
    items: new MatchItems(s.items, order),
    leftOutFailed: left.failed,
    leftOutOutsidePeriod: left.outsidePeriod,
    netOfFees: settings.netOfFees
  }
}

// What the matching engine and each of its phases (the modules of ./) read: provider records, statement lines, decisions and options; engine.ts runs the phases over them.
import type { LearnedAliases } from '../../../shared/learning'
import type { CarriedFrom, NotReadLine } from '../../../shared/reconcile'

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
  /** Who the record is with (a customer's email, an account number), as learned aliases name it. */
  party?: Party
  /** Dated just outside the session's period (within the match window's reach): an item only when a line claims it. */
  outsidePeriod?: boolean
  /** Open when an earlier period of the account closed, brought forward: an item whether or not a line claims it. */
  carried?: CarriedFrom
}

/** A provider's party: the key learned evidence is kept by, and how a person reads it. */
export interface Party {
  key: string
  label: string
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
  /** A line that could not be read in full (its date and amount are what could be read, else placeholders), or one read by hand since. */
  notRead?: NotReadLine
  /** A line of an earlier period's statement, open when that period closed, brought forward. */
  carried?: CarriedFrom
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
  /** What the user confirmed and rejected in the profile's other sessions, by a line's steady words and a record's party. */
  learned?: LearnedAliases
}

export interface MatchOptions {
  /** Each statement's file name by its id: reasons name lines as "line 14 of statement.csv". */
  fileNames?: ReadonlyMap<string, string>
  filePages?: ReadonlyMap<string, readonly number[]>
  signal?: AbortSignal
  onProgress?: (phase: string, done: number, total: number) => void
  /**
   * The exact keys were settled by a full run and nothing given can be claimed by one: the records
   * and lines are the open pool a run's keys left (see pool-run.ts), so the phase is skipped.
   */
  keysSettled?: boolean
}

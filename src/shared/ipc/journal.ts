// The journal domain of the IPC contract: a closed session's journal previewed (with the profile's account map), the map saved, and the journal written in a ledger's format where the user chooses.
import { z } from 'zod'
import { accountMapSchema, JOURNAL_FORMATS, type AccountMap, type Journal } from '../journal'
import { call, id } from './define'
import type { JobInfo } from './jobs'

/** What the journal screen shows: the entries, what ties, and the map they were made with. */
export interface JournalPreview {
  journal: Journal
  map: AccountMap
  /** False while the profile has no map of its own (the accounts are named in words). */
  mapSaved: boolean
}

export const journalCalls = {
  /** A closed session's journal, checked against its summary (refused for a session not closed). */
  'journal:preview': call<JournalPreview>()(z.strictObject({ sessionId: id })),
  /** Saves the active profile's account map. */
  'journal:saveMap': call<AccountMap>()(accountMapSchema),
  /** Asks where to save, then writes the journal in the ledger's import format as a job; null when no file was chosen. */
  'journal:export': call<JobInfo | null>()(z.strictObject({ sessionId: id, format: z.enum(JOURNAL_FORMATS) }))
} as const

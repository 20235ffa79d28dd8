// What reconcile asks of a team workspace for a session shared there: team implements it, so reconcile never imports team.
import type { Decision, ItemFilter } from '../../shared/reconcile'
import type { SignOffSheet } from './totals'

/** A shared session's sign-off as its report carries it: a sheet of the workbook, and a CSV beside the items. */
export interface ReportSignOff {
  sheet: SignOffSheet
  /** Writes the sign-off as an Excel-safe CSV beside an items CSV (march.csv → march-sign-off.csv) and says where. */
  writeBeside(itemsFile: string): Promise<string>
}

/** A session replayed from a workspace changes only through it: its decisions go there, and its report carries its sign-off. */
export interface SharedSessions {
  /** Sends a decision through the workspace; how many of this computer's decisions still wait to be sent. */
  decide(sessionId: string, decision: Decision): Promise<{ waiting: number }>
  /** Accepts the suggestions the filter shows scoring at least minScore, each a decision through the workspace. */
  acceptAll(sessionId: string, filter: ItemFilter, minScore: number): Promise<{ accepted: number }>
  /** The sign-off a replayed session's report carries; null for a session not replayed from a workspace. */
  reportSignOff(sessionId: string): ReportSignOff | null
}

// A reconciliation session's audit trail: every event kind with its payload, one union that the writer, the fold, the reports and the screens share.
import { moneyText } from './money'
import type { Outcome, ReconSettings, ReconSource, SessionInfo } from './reconcile'

/** The records and lines a decision was about, and the item they made. */
export interface DecidedMembers {
  providerIds: string[]
  fileIds: string[]
  itemKey: string
}

/** One file of an evidence pack: its path in the pack, SHA-256 and size (a statement's size is its file's). */
export interface EvidenceFile {
  path: string
  sha256: string
  bytes: number | null
}

/** What a close binds: the profile its reports name, and every file of its evidence pack but the trail, its README and manifest. */
export interface ClosedEvidence {
  profile: { name: string; mode: string }
  files: EvidenceFile[]
  /** How the Ledgerline that closed it laid its reports out (REPORT_LAYOUT); closes before it was kept have none. */
  layout?: string
  /** The locale its reports for people were written in (shared/locale.ts); none: ISO days. A pack written later writes them in it again. */
  locale?: string
}

/** Each event kind's payload, as it is hashed and stored. A stored payload never changes shape: a new shape is a new kind. */
export interface AuditPayloads {
  session_created: {
    name: string
    source: ReconSource
    filter: SessionInfo['filter']
    from: string
    to: string
    timeZone: string
    settings: ReconSettings
    fileIds: string[]
  }
  files_added: { fileIds: string[] }
  settings_changed: { settings: ReconSettings }
  run: {
    ruleVersion: string
    providerRecords: number
    fileRows: number
    counts: Record<Outcome, number>
    leftOutFailed: number
    leftOutOutsidePeriod: number
    unreadable: number
  }
  accept: DecidedMembers
  reject: DecidedMembers
  unmatch: DecidedMembers
  /** A match by hand; `replaces` names the items its members were in before. */
  match: DecidedMembers & { replaces: string[] }
  note: { itemKey: string; note: string }
  reason: { itemKey: string; code: string }
  resolve: { itemKey: string; resolved: boolean }
  /** `amount` as the user typed it, `amountMinor` as it counts. */
  adjust: { currency: string; amountMinor: number; amount: string; reason: string; itemKey?: string }
  /** Takes back event `undoes` (of kind `kind`); the event stays in the trail and the fold skips it. */
  undo: { undoes: number; kind: AuditEventKind; itemKey?: string }
  /** A line not read, read by hand: `lineId` is the line's id in the session, `amount` as typed, `amountMinor` as it counts. */
  fix: {
    itemKey: string
    lineId: string
    fileId: string
    line: number
    date: string
    amount: string
    amountMinor: number
    currency: string
  }
  /** A line not read, left out on purpose. */
  exclude: { itemKey: string; fileId: string; line: number; reason: string }
  /**
   * An enabled rule applied in a run (version `version` of rule `name`): `classify` resolves the line's
   * item with the rule's reason code, `leave_out` resolves it as left out with the rule's reason (`note`),
   * `pair` pairs the line with the record it names (`providerIds`, `fileIds`), as a match by hand would.
   */
  rule: {
    itemKey: string
    providerIds: string[]
    fileIds: string[]
    name: string
    version: number
    action: 'classify' | 'leave_out' | 'pair'
    reasonCode: string
    note: string
  }
  /** `evidence`: the files of the session's evidence pack as of this close, by SHA-256 (closes before the pack was bound have none). */
  close: { counts: Record<Outcome, number>; evidence?: ClosedEvidence }
  reopen: { reason: string; closedAt: string | null; closedBy: string | null }
}

export type AuditEventKind = keyof AuditPayloads

/** What an event says: its kind and that kind's payload. */
export type AuditEventBody = { [K in AuditEventKind]: { kind: K; payload: AuditPayloads[K] } }[AuditEventKind]

/** An event as the trail holds it: numbered in its session, when and by whom. */
export type AuditEntry = AuditEventBody & { seq: number; at: string; user: string }

/** Decisions an undo can take back (not runs, closes, reopens or undos themselves). */
export const UNDOABLE_KINDS: readonly AuditEventKind[] = [
  'accept',
  'reject',
  'match',
  'unmatch',
  'note',
  'reason',
  'resolve',
  'adjust',
  'fix',
  'exclude',
  'rule'
]

/** What the session's history shows: how it was set up, run, adjusted, closed and reopened (decisions show on their items). */
export const SESSION_HISTORY_KINDS: readonly AuditEventKind[] = [
  'session_created',
  'files_added',
  'settings_changed',
  'run',
  'adjust',
  'close',
  'reopen'
]

/** Who decided what a rule decided: the rule and its version, as items and the trail name it. */
export const ruleMark = (rule: { name: string; version: number }): string => `rule "${rule.name}" (version ${rule.version})`

/** The item an event names by key, and the provider records and file lines it names by id. */
export function eventSubjects(event: AuditEventBody): { itemKey: string | null; ids: string[] } {
  const payload = event.payload
  const itemKey = 'itemKey' in payload && typeof payload.itemKey === 'string' ? payload.itemKey : null
  const ids = 'providerIds' in payload ? [...payload.providerIds, ...payload.fileIds] : []
  return { itemKey, ids }
}

/** An event as the history and the discrepancy log say it, in an accountant's words (amounts with their currency, lines by number). */
export function describeEvent(event: AuditEventBody): string {
  switch (event.kind) {
    case 'session_created':
      return `Session created: ${event.payload.source} from ${event.payload.from} to ${event.payload.to} (${event.payload.timeZone}), ${event.payload.fileIds.length} statement(s)`
    case 'files_added':
      return `${event.payload.fileIds.length} statement(s) added`
    case 'settings_changed':
      return `Settings changed: tolerance ${event.payload.settings.amountTolerance}, ${event.payload.settings.daysBefore} day(s) before and ${event.payload.settings.daysAfter} after${event.payload.settings.netOfFees ? ', every record read net of fees' : ''}`
    case 'run':
      return `Matched ${event.payload.providerRecords.toLocaleString('en-US')} provider record(s) against ${event.payload.fileRows.toLocaleString('en-US')} line(s) (${event.payload.ruleVersion})`
    case 'accept':
      return 'Suggestion accepted'
    case 'reject':
      return 'Suggestion rejected: it is not offered again'
    case 'unmatch':
      return 'Match undone'
    case 'match':
      return `Matched by hand: ${event.payload.providerIds.length} record(s) with ${event.payload.fileIds.length} line(s)`
    case 'note':
      return event.payload.note ? `Note: "${event.payload.note}"` : 'Note removed'
    case 'reason':
      return event.payload.code ? `Reason code: ${event.payload.code}` : 'Reason code removed'
    case 'resolve':
      return event.payload.resolved ? 'Marked resolved' : 'Marked unresolved'
    case 'adjust':
      return `Adjustment of ${moneyText(event.payload.amountMinor, event.payload.currency)}: ${event.payload.reason}`
    case 'undo':
      return `Undid the last decision (${event.payload.kind})`
    case 'fix':
      return `Line ${event.payload.line} read by hand: ${event.payload.date}, ${moneyText(event.payload.amountMinor, event.payload.currency)}`
    case 'exclude':
      return `Line ${event.payload.line} left out: ${event.payload.reason}`
    case 'rule':
      return `${ruleMark(event.payload)}: ${
        event.payload.action === 'pair'
          ? `paired ${event.payload.fileIds.length} line(s) with ${event.payload.providerIds.length} record(s)`
          : event.payload.action === 'classify'
            ? `classified as ${event.payload.reasonCode}`
            : `left out: ${event.payload.note}`
      }`
    case 'close':
      return 'Session closed'
    case 'reopen':
      return `Session reopened: ${event.payload.reason}`
  }
}

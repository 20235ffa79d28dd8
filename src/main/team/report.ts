// A shared session's history in words and its report for the auditor: the items as every member replays them, and who shared, submitted, returned, approved and reopened it when (an approval later reopened kept, marked superseded), with the comments.
import { writeSync } from 'node:fs'
import { toExcelCsv, type CsvCell } from '../../shared/csv/excel-safe'
import type { TeamEventView } from '../../shared/ipc/team'
import { describeEvent, type AuditEventBody } from '../../shared/reconcile-events'
import { writeFileSafely } from '../files/safe-file'
import type { ReportSignOff } from '../reconcile/shared-sessions'
import type { SignOffSheet } from '../reconcile/totals'
import type { SessionEvent } from './server-sessions'
import { digestOf, type ItemsDigest } from './sign-off'

export const SIGN_OFF_COLUMNS = [
  'event',
  'what',
  'by',
  'at_utc',
  'item_key',
  'comment',
  'standing',
  'items',
  'items_sha256',
  'event_hash'
] as const

/** The sign-off steps and comments, in words; decisions and runs are said by what they decided. */
const WHAT: Record<string, string> = {
  shared: 'shared for preparation',
  submit: 'submitted for review',
  approve: 'approved',
  return: 'returned to its preparers',
  reopen: 'reopened',
  note: 'comment'
}

/** What a decision event decided, in words; one this Ledgerline cannot read is named as such (the server's rows are not trusted blindly). */
export function decisionInWords(payload: unknown): string {
  try {
    return describeEvent((payload as { body: AuditEventBody }).body)
  } catch {
    return 'a decision this Ledgerline cannot read'
  }
}

/**
 * Every event of a shared session in words, in the server's order; a submission or an approval says
 * whether a later return or reopening superseded it, the items it was of, and (given this computer's
 * items digest) whether one in force is of exactly the items replayed here.
 */
export function teamEventViews(events: readonly SessionEvent[], here?: ItemsDigest): TeamEventView[] {
  return events.map((e, i) => {
    let payload: { reason?: unknown; text?: unknown } = {}
    try {
      payload = JSON.parse(e.payload) as typeof payload
    } catch {
      // Shown without its text: the chain check says whether the row was changed.
    }
    let standing: string | null = null
    if (e.kind === 'approve' || e.kind === 'submit') {
      const later = events.slice(i + 1).find((x) => x.kind === (e.kind === 'approve' ? 'reopen' : 'return'))
      standing = later ? `superseded: ${WHAT[later.kind]} by ${later.author} (event ${later.seq})` : 'in force'
    }
    const said = typeof payload.reason === 'string' ? payload.reason : typeof payload.text === 'string' ? payload.text : null
    const items = standing === null ? null : digestOf(e.payload)
    return {
      seq: e.seq,
      kind: e.kind,
      what: WHAT[e.kind] ?? (e.kind === 'decision' ? decisionInWords(payload) : e.kind),
      author: e.author,
      at: e.at,
      itemKey: e.itemKey,
      text: said,
      standing,
      items,
      sameHere: items && here && standing === 'in force' ? items.sha256 === here.sha256 : null,
      hash: e.hash
    }
  })
}

/** The sign-off rows: every event but decisions and runs (decisions show on their items), in the server's order. */
export function signOffRows(events: readonly SessionEvent[]): CsvCell[][] {
  return teamEventViews(events)
    .filter((v) => v.kind in WHAT)
    .map((v) => [
      { kind: 'integer', value: v.seq },
      { kind: 'text', value: v.what },
      { kind: 'text', value: v.author },
      { kind: 'text', value: v.at },
      v.itemKey ? { kind: 'identifier', value: v.itemKey } : null,
      v.text ? { kind: 'text', value: v.text } : null,
      v.standing ? { kind: 'text', value: v.standing } : null,
      v.items ? { kind: 'integer', value: v.items.count } : null,
      v.items ? { kind: 'identifier', value: v.items.sha256 } : null,
      { kind: 'identifier', value: v.hash }
    ])
}

/** The sign-off as the report carries it (a sheet of the workbook), with the submission and approval in force for the statement's sign-off block. */
function signOffOf(events: readonly SessionEvent[]): SignOffSheet {
  const views = teamEventViews(events)
  const inForce = (kind: string): { by: string; at: string } | null => {
    const step = views.findLast((v) => v.kind === kind && v.standing === 'in force')
    return step ? { by: step.author, at: step.at } : null
  }
  return { columns: SIGN_OFF_COLUMNS, rows: signOffRows(events), submitted: inForce('submit'), approved: inForce('approve') }
}

/** Where the sign-off CSV goes beside an items CSV: march.csv → march-sign-off.csv. */
const signOffFileBeside = (itemsFile: string): string => itemsFile.replace(/(\.csv)?$/i, '-sign-off.csv')

/** Writes the sign-off as an Excel-safe CSV. */
async function writeSignOffCsv(file: string, events: readonly SessionEvent[]): Promise<void> {
  await writeFileSafely(file, (fd) => {
    writeSync(fd, toExcelCsv(SIGN_OFF_COLUMNS, signOffRows(events), 'excel'))
  })
}

/** A shared session's sign-off for its report (reconcile's ReportSignOff), from its events as last pulled. */
export function reportSignOff(events: readonly SessionEvent[]): ReportSignOff {
  return {
    sheet: signOffOf(events),
    writeBeside: async (itemsFile) => {
      const file = signOffFileBeside(itemsFile)
      await writeSignOffCsv(file, events)
      return file
    }
  }
}

// A shared session's report for its auditor: the items as every member replays them, and who shared, submitted, returned, approved and reopened it when (an approval later reopened kept, marked superseded), with the comments.
import type { CsvCell } from '../../shared/csv/excel-safe'
import type { SessionEvent } from './sessions'

export const SIGN_OFF_COLUMNS = ['event', 'what', 'by', 'at_utc', 'item_key', 'comment', 'standing', 'event_hash'] as const

const WHAT: Record<string, string> = {
  shared: 'shared for preparation',
  submit: 'submitted for review',
  approve: 'approved',
  return: 'returned to its preparers',
  reopen: 'reopened',
  note: 'comment'
}

/** The sign-off rows: every event but decisions and runs (decisions show on their items), in the server's order. */
export function signOffRows(events: readonly SessionEvent[]): CsvCell[][] {
  const rows: CsvCell[][] = []
  events.forEach((e, i) => {
    const what = WHAT[e.kind]
    if (!what) return
    const payload = JSON.parse(e.payload) as { reason?: string; text?: string }
    let standing = ''
    if (e.kind === 'approve' || e.kind === 'submit') {
      const later = events.slice(i + 1).find((x) => x.kind === (e.kind === 'approve' ? 'reopen' : 'return'))
      standing = later ? `superseded: ${WHAT[later.kind]} by ${later.author} (event ${later.seq})` : 'in force'
    }
    rows.push([
      { kind: 'integer', value: e.seq },
      { kind: 'text', value: what },
      { kind: 'text', value: e.author },
      { kind: 'text', value: e.at },
      e.itemKey ? { kind: 'identifier', value: e.itemKey } : null,
      (payload.reason ?? payload.text) ? { kind: 'text', value: (payload.reason ?? payload.text) as string } : null,
      standing ? { kind: 'text', value: standing } : null,
      { kind: 'identifier', value: e.hash }
    ])
  })
  return rows
}

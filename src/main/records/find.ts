// Ctrl+K: one box over everything cached (references, service references, names, emails, account numbers, plan titles, banks), a few matches per table, newest first.
import type Database from 'better-sqlite3'
import { FIND_LIMIT, type FoundGroup, type RecordResource } from '../../shared/records'
import { likeText, toFtsQuery } from '../cache/text-match'
import { listed, RECORD_LINES, type LineRow } from './detail'

/** Per table: how a match is found (its FTS5 index, or LIKE) and in which order; each is shown as RECORD_LINES says. */
const FINDERS: { resource: RecordResource; fts: boolean; where?: string; order: string }[] = [
  { resource: 'payments', fts: true, order: 'f.rowid desc' },
  { resource: 'transfers', fts: true, order: 'f.rowid desc' },
  { resource: 'subscriptions', fts: true, order: 'f.rowid desc' },
  { resource: 'plans', fts: true, order: 'f.rowid desc' },
  {
    resource: 'virtual_accounts',
    fts: false,
    order: 't.rowid desc',
    where: "(t.account_number like @like escape '\\' or lower(t.account_name) like @like escape '\\' or t.id like @like escape '\\')"
  },
  {
    resource: 'banks',
    fts: false,
    order: 't.bank_name',
    where: "(lower(t.bank_name) like @like escape '\\' or t.bank_code like @like escape '\\')"
  }
]

/**
 * Up to FIND_LIMIT matches per table, groups with none left out. Text tables go through their FTS5
 * index in rowid order (a prefix over a million payments stops after the first few), the small ones
 * (virtual accounts, banks) by LIKE.
 */
export function findRecords(db: Database.Database, profileId: string, text: string): FoundGroup[] {
  const fts = toFtsQuery(text)
  const trimmed = text.trim().toLowerCase().slice(0, 200)
  if (fts === null || trimmed === '') return []
  const like = likeText(trimmed)
  const groups: FoundGroup[] = []
  for (const finder of FINDERS) {
    const from = finder.fts ? `${finder.resource}_fts f JOIN ${finder.resource} t ON t.rowid = f.rowid` : `${finder.resource} t`
    const where = finder.fts ? `${finder.resource}_fts MATCH @fts` : (finder.where as string)
    const rows = db
      .prepare(
        `SELECT ${RECORD_LINES[finder.resource]} FROM ${from} WHERE t.profile_id = @profile AND ${where} ORDER BY ${finder.order} LIMIT ${FIND_LIMIT + 1}`
      )
      .all({ profile: profileId, ...(finder.fts ? { fts } : { like }) }) as LineRow[]
    if (rows.length === 0) continue
    groups.push({ resource: finder.resource, records: listed(finder.resource, rows.slice(0, FIND_LIMIT)), more: rows.length > FIND_LIMIT })
  }
  return groups
}

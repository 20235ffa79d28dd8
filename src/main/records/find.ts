// Ctrl+K: one box over everything cached (references, service references, names, emails, account numbers, plan titles, banks), a few matches per table, newest first.
import type Database from 'better-sqlite3'
import { FIND_LIMIT, type FoundGroup, type RecordResource, type RelatedRecord } from '../../shared/records'
import { likeText, toFtsQuery } from '../search/search'

/** Per table: how a match is found (FTS5 index or LIKE) and the line it is shown as. */
const FINDERS: { resource: RecordResource; fts: boolean; select: string; where?: string; order: string }[] = [
  {
    resource: 'payments', fts: true, order: 'f.rowid desc',
    select: "t.id as key, coalesce(t.reference, t.id) as label, t.amount_raw || ' ' || t.currency || ' · ' || coalesce(t.customer_name, t.customer_email, '') || ' · ' || t.status_raw as detail"
  },
  {
    resource: 'transfers', fts: true, order: 'f.rowid desc',
    select: "t.reference as key, t.reference as label, t.amount_raw || ' ' || t.currency || ' · ' || coalesce(t.account_name, t.account_number, '') || ' · ' || t.status_raw as detail"
  },
  {
    resource: 'subscriptions', fts: true, order: 'f.rowid desc',
    select: "t.id as key, coalesce(t.customer_name, t.customer_email, t.id) as label, coalesce(t.customer_email, '') || ' · ' || t.status_raw as detail"
  },
  {
    resource: 'plans', fts: true, order: 'f.rowid desc',
    select: "t.id as key, t.title as label, t.amount_raw || ' ' || t.currency || ' · ' || coalesce(t.frequency, '') || ' · ' || t.status_raw as detail"
  },
  {
    resource: 'virtual_accounts', fts: false, order: 't.rowid desc',
    select: "t.id as key, t.account_number as label, coalesce(t.account_name, '') || ' · ' || coalesce(t.bank_name, '') as detail",
    where: "(t.account_number like @like escape '\\' or lower(t.account_name) like @like escape '\\' or t.id like @like escape '\\')"
  },
  {
    resource: 'banks', fts: false, order: 't.bank_name',
    select: "t.currency || ':' || t.bank_code as key, t.bank_name as label, t.currency || ' · ' || t.bank_code as detail",
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
      .prepare(`SELECT ${finder.select} FROM ${from} WHERE t.profile_id = @profile AND ${where} ORDER BY ${finder.order} LIMIT ${FIND_LIMIT + 1}`)
      .all({ profile: profileId, ...(finder.fts ? { fts } : { like }) }) as { key: string; label: string | null; detail: string | null }[]
    if (rows.length === 0) continue
    const records: RelatedRecord[] = rows.slice(0, FIND_LIMIT).map((r) => ({ resource: finder.resource, key: r.key, label: r.label ?? r.key, detail: r.detail ?? '' }))
    groups.push({ resource: finder.resource, records, more: rows.length > FIND_LIMIT })
  }
  return groups
}

// Offline search over the cache: FTS5 for text, SQL filters, sorting and paging done in SQLite, never in JS.
import type Database from 'better-sqlite3'
import { COUNT_LIMIT, MAX_PAGE_SIZE, type SearchItem, type SearchQuery, type SearchResult, type SearchResource } from '../../shared/search'
import { MoneyError, parseMajor } from '../../shared/money'
import { AppError } from '../errors'

interface ResourceColumns {
  key: string
  reference: string
  name: string
  email: string
  amount: string
  amountRaw: string
  currency: string
  channel: string
  /** Sortable date expression and the text shown. */
  dateSort: string
  dateText: string
  /** Epoch ms expression for date-range filters (null: the resource has no dates). */
  dateMs: string | null
}

const COLUMNS: Record<SearchResource, ResourceColumns> = {
  // Payment rowids are time-ordered (see PAYMENT_ROWID_SLOTS): sorting by rowid is sorting by date, and streams.
  payments: {
    key: 'id', reference: 'reference', name: 'customer_name', email: 'customer_email', amount: 'amount_minor', amountRaw: 'amount_raw',
    currency: 'currency', channel: 'channel', dateSort: 'rowid', dateText: 'created_at', dateMs: 'created_at_ms'
  },
  transfers: {
    key: 'reference', reference: 'reference', name: 'account_name', email: 'NULL', amount: 'amount_minor', amountRaw: 'amount_raw',
    currency: 'currency', channel: 'NULL', dateSort: 'rowid', dateText: 'NULL', dateMs: null
  },
  subscriptions: {
    key: 'id', reference: 'id', name: 'customer_name', email: 'customer_email', amount: 'amount_minor', amountRaw: 'amount_raw',
    currency: 'currency', channel: 'NULL', dateSort: 'created_at_ms', dateText: 'created_at', dateMs: 'created_at_ms'
  },
  plans: {
    key: 'id', reference: 'internal_reference', name: 'title', email: 'NULL', amount: 'amount_minor', amountRaw: 'amount_raw',
    currency: 'currency', channel: 'NULL', dateSort: 'created_at', dateText: 'created_at', dateMs: null
  }
}

/**
 * Turns whatever the user typed into a safe FTS5 query: every run of letters or digits becomes a
 * quoted term, all terms must match, and terms of two or more characters match as prefixes (a lone
 * letter would match almost everything). Quotes, operators, brackets and stars are never passed
 * through, so no input can be a syntax error. Returns null when nothing searchable is left.
 */
export function toFtsQuery(text: string): string | null {
  const terms = text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu)
  if (!terms || terms.length === 0) return null
  return terms
    .slice(0, 16)
    .map((term) => (term.length >= 2 ? `"${term.slice(0, 64)}"*` : `"${term}"`))
    .join(' ')
}

function dayBound(value: string, end: boolean, field: string): number {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value)
  const ms = Date.parse(dateOnly ? `${value}T00:00:00Z` : value)
  if (Number.isNaN(ms)) throw new AppError('invalid_filter', `${field}: "${value.slice(0, 40)}" is not a date (use YYYY-MM-DD).`)
  return dateOnly && end ? ms + 86_400_000 : ms
}

function minorBound(value: string, currency: string | undefined, field: string): number {
  if (!currency) throw new AppError('invalid_filter', `${field}: choose a currency to filter by amount (amounts differ per currency).`)
  try {
    return parseMajor(value, currency)
  } catch (error) {
    throw new AppError('invalid_filter', `${field}: ${error instanceof MoneyError ? error.message : 'not an amount'}`)
  }
}

export interface CompiledQuery {
  table: SearchResource
  columns: ResourceColumns
  /** FROM clause: the table as t, joined from its FTS index as f when there is text. */
  from: string
  where: string
  params: Record<string, string | number>
  order: string
  /** Free text held nothing searchable: the answer is no rows. */
  empty: boolean
}

/** Turns a query into SQL pieces shared by search (paged) and export (streamed). */
export function compileQuery(profileId: string, query: SearchQuery): CompiledQuery {
  const c = COLUMNS[query.resource]
  if (!c) throw new AppError('invalid_filter', `Unknown resource "${String(query.resource)}".`)
  const table = query.resource
  const where: string[] = ['t.profile_id = @profile']
  const params: Record<string, string | number> = { profile: profileId }
  let empty = false

  let from = `${table} t`
  let text = false
  if (query.text !== undefined && query.text.trim() !== '') {
    const fts = toFtsQuery(query.text)
    if (fts === null) empty = true
    else {
      // Driven from the index: the text match picks the rows, the join fetches them by rowid.
      from = `${table}_fts f JOIN ${table} t ON t.rowid = f.rowid`
      where.push(`${table}_fts MATCH @fts`)
      params['fts'] = fts
      text = true
    }
  }
  if (query.status) {
    where.push('t.status = @status')
    params['status'] = query.status.toLowerCase()
  }
  if (query.channel && c.channel !== 'NULL') {
    where.push(`t.${c.channel} = @channel`)
    params['channel'] = query.channel
  }
  if (query.currency) {
    where.push(`t.${c.currency} = @currency`)
    params['currency'] = query.currency.toUpperCase()
  }
  const currency = query.currency?.toUpperCase()
  if (query.minAmount) {
    where.push(`t.${c.amount} >= @minAmount`)
    params['minAmount'] = minorBound(query.minAmount, currency, 'minimum amount')
  }
  if (query.maxAmount) {
    where.push(`t.${c.amount} <= @maxAmount`)
    params['maxAmount'] = minorBound(query.maxAmount, currency, 'maximum amount')
  }
  if ((query.from || query.to) && !c.dateMs) throw new AppError('invalid_filter', `${table} have no dates to filter by.`)
  if (query.from) {
    where.push(`t.${c.dateMs} >= @from`)
    params['from'] = dayBound(query.from, false, 'from')
  }
  if (query.to) {
    where.push(`t.${c.dateMs} < @to`)
    params['to'] = dayBound(query.to, true, 'to')
  }

  // With a text match, ordering by the FTS rowid lets FTS5 hand rows over already in order.
  const rowid = text ? 'f.rowid' : 't.rowid'
  const date = c.dateSort === 'rowid' ? rowid : `t.${c.dateSort}`
  const order =
    query.sort === 'oldest'
      ? c.dateSort === 'rowid' ? `${rowid} ASC` : `${date} ASC, ${rowid} ASC`
      : query.sort === 'amount_desc'
        ? `t.${c.amount} DESC, ${rowid} DESC`
        : query.sort === 'amount_asc'
          ? `t.${c.amount} ASC, ${rowid} ASC`
          : c.dateSort === 'rowid' ? `${rowid} DESC` : `${date} DESC, ${rowid} DESC`
  return { table, columns: c, from, where: where.join(' AND '), params, order, empty }
}

export function search(db: Database.Database, profileId: string, query: SearchQuery): SearchResult {
  const page = Math.max(0, Math.floor(query.page ?? 0))
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(query.pageSize ?? 50)))
  const q = compileQuery(profileId, query)
  if (q.empty) return { items: [], total: 0, totalCapped: false, page, pageSize }
  const c = q.columns
  const col = (expr: string): string => (expr === 'NULL' ? 'NULL' : `t.${expr}`)
  const counted = (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${q.from} WHERE ${q.where} LIMIT ${COUNT_LIMIT + 1})`).get(q.params) as { n: number }).n
  const rows = db
    .prepare(
      `SELECT ${col(c.key)} AS key, ${col(c.reference)} AS reference, ${col(c.name)} AS name, ${col(c.email)} AS email,
              ${col(c.amount)} AS amountMinor, ${col(c.amountRaw)} AS amountRaw, ${col(c.currency)} AS currency,
              t.status AS status, t.status_raw AS statusRaw, ${col(c.channel)} AS channel, ${col(c.dateText)} AS date
       FROM ${q.from} WHERE ${q.where} ORDER BY ${q.order} LIMIT @limit OFFSET @offset`
    )
    .all({ ...q.params, limit: pageSize, offset: page * pageSize }) as Omit<SearchItem, 'resource'>[]
  return { items: rows.map((r) => ({ resource: query.resource, ...r })), total: Math.min(counted, COUNT_LIMIT), totalCapped: counted > COUNT_LIMIT, page, pageSize }
}

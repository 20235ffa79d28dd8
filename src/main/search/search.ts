// Offline search over the cache: FTS5 for text, SQL filters, sorting and paging done in SQLite, never in JS.
import type Database from 'better-sqlite3'
import { normalizePaymentStatus, normalizeStatusWord, normalizeTransferStatus } from '../../shared/api/assumptions'
import { COUNT_LIMIT, MAX_PAGE_SIZE, type SearchItem, type SearchQuery, type SearchResult, type SearchResource } from '../../shared/search'
import { MoneyError, parseMajor } from '../../shared/money'
import { dayBoundary } from '../../shared/time'
import { cursorOfRow, orderBy, pastCursor, sortValueColumns, type SortKey } from '../cache/keyset'
import { toFtsQuery } from '../cache/text-match'
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
  /** Sortable date expression (over t) and the text shown; 'seq' means the row's own time-ordered key. */
  dateSort: string
  dateText: string
  /** Epoch ms expression for date-range filters (null: the resource has no dates). */
  dateMs: string | null
  /** Reads a typed status into the stored normalised form ('unknown' when it is not one the app knows). */
  status: (typed: string) => string
}

const COLUMNS: Record<SearchResource, ResourceColumns> = {
  // Payment seqs are time-ordered (see PAYMENT_ROWID_SLOTS): sorting by seq is sorting by date, and streams.
  payments: {
    key: 'id',
    reference: 'reference',
    name: 'customer_name',
    email: 'customer_email',
    amount: 'amount_minor',
    amountRaw: 'amount_raw',
    currency: 'currency',
    channel: 'channel',
    dateSort: 'seq',
    dateText: 'created_at',
    dateMs: 'created_at_ms',
    status: normalizePaymentStatus
  },
  transfers: {
    key: 'reference',
    reference: 'reference',
    name: 'account_name',
    email: 'NULL',
    amount: 'amount_minor',
    amountRaw: 'amount_raw',
    currency: 'currency',
    channel: 'NULL',
    dateSort: 'seq',
    dateText: 'NULL',
    dateMs: null,
    status: normalizeTransferStatus
  },
  subscriptions: {
    key: 'id',
    reference: 'id',
    name: 'customer_name',
    email: 'customer_email',
    amount: 'amount_minor',
    amountRaw: 'amount_raw',
    currency: 'currency',
    channel: 'NULL',
    dateSort: 'coalesce(t.created_at_ms, -1)',
    dateText: 'created_at',
    dateMs: 'created_at_ms',
    status: normalizeStatusWord
  },
  plans: {
    key: 'id',
    reference: 'internal_reference',
    name: 'title',
    email: 'NULL',
    amount: 'amount_minor',
    amountRaw: 'amount_raw',
    currency: 'currency',
    channel: 'NULL',
    dateSort: "coalesce(t.created_at, '')",
    dateText: 'created_at',
    dateMs: null,
    status: normalizeStatusWord
  }
}

/** A date filter's bound: a date alone is that whole day in the business time zone. */
function dayBound(value: string, end: boolean, field: string, zone: string): number {
  const ms = dayBoundary(value, zone, end)
  if (ms === null) throw new AppError('invalid_filter', `${field}: "${value.slice(0, 40)}" is not a date (use YYYY-MM-DD).`)
  return ms
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
  params: Record<string, string | number | bigint>
  /** The sort, ending in the row's key so it is total (keyset paging needs that). */
  keys: SortKey[]
  order: string
  /** Free text held nothing searchable: the answer is no rows. */
  empty: boolean
}

/** What a table can be filtered by, as SQL over `t` (null: the table has no such thing). */
export interface FilterColumns {
  /** How its records are named in messages, e.g. "transfers". */
  name: string
  /** Reads a typed status into the stored normalised form ('unknown' when it is not one the app knows). */
  status: ((typed: string) => string) | null
  channel: string | null
  currency: string | null
  amount: string | null
  /** Epoch ms, for date filters. */
  dateMs: string | null
  /** Transfers belong to bulk files. */
  bulkFile: boolean
}

export type FilterValues = Pick<SearchQuery, 'status' | 'channel' | 'currency' | 'minAmount' | 'maxAmount' | 'from' | 'to' | 'bulkFile'>

/**
 * The filters search, export and the record tables share, added as WHERE terms with their
 * parameters (free text is each caller's own: an FTS5 match, or LIKE where there is no index). A
 * filter the table cannot take is refused with a message, never ignored.
 */
export function filterTerms(
  f: FilterColumns,
  query: FilterValues,
  timeZone: string,
  where: string[],
  params: Record<string, string | number | bigint>
): void {
  const lacks = (what: string): never => {
    throw new AppError('invalid_filter', `${f.name.replace(/_/g, ' ')} have no ${what} to filter by.`)
  }
  const status = query.status?.trim()
  if (status) {
    if (!f.status) lacks('status')
    // Read the way statuses are stored: SUCCESS finds successful payments. A status the app does not
    // know (stored as unknown) is matched on the value as the provider sent it.
    const normalised = (f.status as (typed: string) => string)(status)
    if (normalised !== 'unknown' || status.toLowerCase() === 'unknown') {
      where.push('t.status = @status')
      params['status'] = normalised
    } else {
      where.push('lower(t.status_raw) = @statusRaw')
      params['statusRaw'] = status.toLowerCase()
    }
  }
  if (query.channel) {
    if (!f.channel) lacks('channel')
    where.push(`${f.channel as string} = @channel`)
    params['channel'] = query.channel
  }
  const currency = query.currency?.toUpperCase()
  if (currency) {
    if (!f.currency) lacks('currency')
    where.push(`${f.currency as string} = @currency`)
    params['currency'] = currency
  }
  if (query.minAmount || query.maxAmount) {
    if (!f.amount) lacks('amounts')
    if (query.minAmount) {
      where.push(`${f.amount as string} >= @minAmount`)
      params['minAmount'] = minorBound(query.minAmount, currency, 'minimum amount')
    }
    if (query.maxAmount) {
      where.push(`${f.amount as string} <= @maxAmount`)
      params['maxAmount'] = minorBound(query.maxAmount, currency, 'maximum amount')
    }
  }
  if (query.from || query.to) {
    if (!f.dateMs) lacks('dates')
    if (query.from) {
      where.push(`${f.dateMs as string} >= @from`)
      params['from'] = dayBound(query.from, false, 'from', timeZone)
    }
    if (query.to) {
      where.push(`${f.dateMs as string} < @to`)
      params['to'] = dayBound(query.to, true, 'to', timeZone)
    }
  }
  if (query.bulkFile !== undefined) {
    if (!f.bulkFile) throw new AppError('invalid_filter', 'Only transfers belong to bulk files.')
    if (query.bulkFile === '') where.push('t.bulk_file_id is null')
    else {
      where.push('t.bulk_file_id = @bulkFile')
      params['bulkFile'] = query.bulkFile
    }
  }
}

/** Turns a query into SQL pieces shared by search (paged) and export (streamed). */
export function compileQuery(profileId: string, query: SearchQuery, timeZone = 'UTC'): CompiledQuery {
  const c = COLUMNS[query.resource]
  if (!c) throw new AppError('invalid_filter', `Unknown resource "${String(query.resource)}".`)
  const table = query.resource
  const where: string[] = ['t.profile_id = @profile']
  const params: Record<string, string | number | bigint> = { profile: profileId }
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
  const col = (name: string): string | null => (name === 'NULL' ? null : `t.${name}`)
  // A channel given for a table without one is ignored here, as the CLI has always done.
  filterTerms(
    {
      name: table,
      status: c.status,
      channel: col(c.channel),
      currency: `t.${c.currency}`,
      amount: `t.${c.amount}`,
      dateMs: c.dateMs ? `t.${c.dateMs}` : null,
      bulkFile: table === 'transfers'
    },
    { ...query, channel: c.channel === 'NULL' ? undefined : query.channel },
    timeZone,
    where,
    params
  )

  // With a text match, ordering by the FTS rowid lets FTS5 hand rows over already in order.
  const rowid = text ? 'f.rowid' : 't.rowid'
  const date = c.dateSort === 'seq' ? rowid : c.dateSort
  // Amounts are only compared within a currency: the currency comes first, then the amount; amounts
  // that could not be converted exactly come last either way.
  const amountKeys = (desc: boolean): SortKey[] => [
    { expr: `coalesce(t.${c.currency}, '')`, desc: false },
    { expr: `coalesce(t.${c.amount}, ${desc ? '-9223372036854775808' : '9223372036854775807'})`, desc },
    { expr: rowid, desc }
  ]
  const keys: SortKey[] =
    query.sort === 'amount_desc'
      ? amountKeys(true)
      : query.sort === 'amount_asc'
        ? amountKeys(false)
        : c.dateSort === 'seq'
          ? [{ expr: rowid, desc: query.sort !== 'oldest' }]
          : [
              { expr: date, desc: query.sort !== 'oldest' },
              { expr: rowid, desc: query.sort !== 'oldest' }
            ]
  const order = orderBy(keys, false)
  return { table, columns: c, from, where: where.join(' AND '), params, keys, order, empty }
}

const rowCursor = (query: SearchQuery, q: CompiledQuery, row: Record<string, unknown>): string =>
  cursorOfRow(cursorScope(query), q.keys, row)

/** What a search's cursors belong to: its resource and sort. */
const cursorScope = (query: SearchQuery): string => `${query.resource}/${query.sort ?? 'newest'}`

/**
 * A cursor that starts the next page after the row at `offset` (0-based) of this query's order: for
 * jumping deep once (it pays one OFFSET scan); paging on from there costs what the first page does.
 */
export function cursorAfterRow(
  db: Database.Database,
  profileId: string,
  query: SearchQuery,
  offset: number,
  options: SearchOptions = {}
): string | null {
  const q = compileQuery(profileId, query, options.timeZone)
  if (q.empty) return null
  const row = db
    .prepare(`SELECT ${sortValueColumns(q.keys)} FROM ${q.from} WHERE ${q.where} ORDER BY ${q.order} LIMIT 1 OFFSET @offset`)
    .safeIntegers(true)
    .get({ ...q.params, offset }) as Record<string, unknown> | undefined
  return row ? rowCursor(query, q, row) : null
}

export interface SearchOptions {
  /** The profile's business time zone: a date filter covers that day there. */
  timeZone?: string
}

/**
 * One page of matches. Paging is by keyset: `after` (the next page) or `before` (the previous one)
 * is a cursor from an earlier answer, never an offset, so every page costs the same.
 */
export function search(db: Database.Database, profileId: string, query: SearchQuery, options: SearchOptions = {}): SearchResult {
  const page = Math.max(0, Math.floor(query.page ?? 0))
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(query.pageSize ?? 50)))
  const q = compileQuery(profileId, query, options.timeZone)
  const none: SearchResult = { items: [], total: 0, totalCapped: false, page, pageSize, nextCursor: null, previousCursor: null }
  if (q.empty) return none
  if (query.after && query.before) throw new AppError('invalid_cursor', 'Give either the next-page or the previous-page link, not both.')
  const c = q.columns
  const col = (expr: string): string => (expr === 'NULL' ? 'NULL' : `t.${expr}`)
  const counted = (
    db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${q.from} WHERE ${q.where} LIMIT ${COUNT_LIMIT + 1})`).get(q.params) as {
      n: number
    }
  ).n
  const cursor = query.after ?? query.before
  const backwards = query.before !== undefined
  const params: Record<string, string | number | bigint> = { ...q.params, limit: pageSize + 1 }
  let where = q.where
  if (cursor !== undefined) {
    where += ` AND ${pastCursor(cursorScope(query), q.keys, cursor, backwards, params)}`
  }
  const statement = db.prepare(
    `SELECT ${col(c.key)} AS key, ${col(c.reference)} AS reference, ${col(c.name)} AS name, ${col(c.email)} AS email,
            ${col(c.amount)} AS amountMinor, ${col(c.amountRaw)} AS amountRaw, ${col(c.currency)} AS currency,
            t.status AS status, t.status_raw AS statusRaw, ${col(c.channel)} AS channel, ${col(c.dateText)} AS date,
            ${sortValueColumns(q.keys)}
     FROM ${q.from} WHERE ${where} ORDER BY ${orderBy(q.keys, backwards)} LIMIT @limit`
  )
  // Sort values are read as BigInt (exact past 2^53); the row's own fields as plain numbers.
  const rows = statement.safeIntegers(true).all(params) as Record<string, unknown>[]
  const more = rows.length > pageSize
  const pageRows = rows.slice(0, pageSize)
  if (backwards) pageRows.reverse()
  const edge = (row: Record<string, unknown> | undefined): string | null => (row ? rowCursor(query, q, row) : null)
  const items = pageRows.map((row) => {
    const amount = row['amountMinor']
    return {
      resource: query.resource,
      key: row['key'] as string,
      reference: row['reference'] as string | null,
      name: row['name'] as string | null,
      email: row['email'] as string | null,
      amountMinor: typeof amount === 'bigint' ? Number(amount) : (amount as number | null),
      amountRaw: row['amountRaw'] as string | null,
      currency: row['currency'] as string | null,
      status: row['status'] as string,
      statusRaw: row['statusRaw'] as string,
      channel: row['channel'] as string | null,
      date: row['date'] as string | null
    } satisfies SearchItem
  })
  // Going forward there is a next page when a row beyond this one exists, and a previous one when we came by a cursor; backwards the other way round.
  const hasNext = backwards ? true : more
  const hasPrevious = backwards ? more : cursor !== undefined
  return {
    items,
    total: Math.min(counted, COUNT_LIMIT),
    totalCapped: counted > COUNT_LIMIT,
    page,
    pageSize,
    nextCursor: hasNext && items.length > 0 ? edge(pageRows.at(-1)) : null,
    previousCursor: hasPrevious && items.length > 0 ? edge(pageRows[0]) : null
  }
}

// The record tables behind the workspace: any window of rows of a filtered, sorted table by keyset (by OFFSET only for a jump), and the filtered set's totals per currency.
import type Database from 'better-sqlite3'
import { normalizePaymentStatus, normalizeStatusWord, normalizeTransferStatus } from '../../shared/api/assumptions'
import {
  defaultSort,
  type Cell,
  type CurrencyTotal,
  type RecordQuery,
  type RecordResource,
  type RecordRow,
  type RecordTotals,
  type RowsResult
} from '../../shared/records'
import { AppError } from '../errors'
import { cursorOfRow, orderBy, pastCursor, sortValueColumns, type SortKey } from '../cache/keyset'
import { likeText, toFtsQuery } from '../cache/text-match'
import { filterTerms } from '../search/search'

/** An amount column: its minor units, the value as sent, and its currency, as SQL over `t`. */
interface MoneySql {
  minor: string
  raw: string
  currency: string
}

interface TableSql {
  table: string
  key: string
  /** Searched through the table's FTS5 index; otherwise `like` over these columns. */
  fts: boolean
  like: readonly string[]
  amount: MoneySql | null
  status: ((typed: string) => string) | null
  channel: string | null
  /** Epoch ms, for date filters. */
  dateMs: string | null
  cells: Readonly<Record<string, string | MoneySql>>
  /** Sort expressions per sortable column (before the row's own key breaks ties); 'rowid' sorts by the row's time-ordered key. */
  sorts: Readonly<Record<string, readonly string[]>>
  /** The column holding a date to show in the business time zone is read as is; its SQL is in cells. */
}

const money = (minor: string, raw: string, currency: string): MoneySql => ({
  minor: `t.${minor}`,
  raw: `t.${raw}`,
  currency: `t.${currency}`
})
const planTitle = 'coalesce((select p.title from plans p where p.profile_id = t.profile_id and p.id = t.plan_id), t.plan_id)'

const TABLES: Record<RecordResource, TableSql> = {
  payments: {
    table: 'payments',
    key: 't.id',
    fts: true,
    like: [],
    amount: money('amount_minor', 'amount_raw', 'currency'),
    status: normalizePaymentStatus,
    channel: 't.channel',
    dateMs: 't.created_at_ms',
    cells: {
      created: 't.created_at',
      reference: 't.reference',
      customer: 't.customer_name',
      amount: money('amount_minor', 'amount_raw', 'currency'),
      fees: money('fees_minor', 'fees_raw', 'currency'),
      channel: 't.channel',
      status: 't.status_raw',
      service_reference: 't.service_reference',
      email: 't.customer_email',
      account_number: 't.account_number',
      tax: money('tax_minor', 'tax_raw', 'currency'),
      local_amount: money('local_amount_minor', 'local_amount_raw', 'local_currency'),
      total_local: money('total_local_minor', 'total_local_raw', 'local_currency'),
      rate: "json_extract(t.raw, '$.rate')",
      region: "json_extract(t.raw, '$.region')",
      plan: planTitle,
      id: 't.id'
    },
    // Payment seqs are time-ordered (see PAYMENT_ROWID_SLOTS): date order is rowid order, read straight from the key.
    sorts: { created: [], reference: ["coalesce(t.reference, '')"], amount: ['AMOUNT'], status: ['t.status'] }
  },
  transfers: {
    table: 'transfers',
    key: 't.reference',
    fts: true,
    like: [],
    amount: money('amount_minor', 'amount_raw', 'currency'),
    status: normalizeTransferStatus,
    channel: null,
    dateMs: null,
    cells: {
      reference: 't.reference',
      account_name: 't.account_name',
      account_number: 't.account_number',
      bank: 'coalesce(t.bank_name, t.bank_code)',
      amount: money('amount_minor', 'amount_raw', 'currency'),
      status: 't.status_raw',
      bulk_file: 't.bulk_file_id',
      narration: 't.narration',
      service_reference: 't.service_reference',
      mode: 't.transfer_mode',
      bank_code: 't.bank_code'
    },
    sorts: { reference: ['t.reference'], amount: ['AMOUNT'], status: ['t.status'] }
  },
  plans: {
    table: 'plans',
    key: 't.id',
    fts: true,
    like: [],
    amount: money('amount_minor', 'amount_raw', 'currency'),
    status: normalizeStatusWord,
    channel: null,
    dateMs: null,
    cells: {
      created: 't.created_at',
      title: 't.title',
      frequency: 't.frequency',
      amount: money('amount_minor', 'amount_raw', 'currency'),
      status: 't.status_raw',
      internal_reference: 't.internal_reference',
      subscribers: '(select count(*) from subscriptions s where s.profile_id = t.profile_id and s.plan_id = t.id)',
      id: 't.id'
    },
    sorts: { created: ["coalesce(t.created_at, '')"], title: ['t.title'], amount: ['AMOUNT'], status: ['t.status'] }
  },
  subscriptions: {
    table: 'subscriptions',
    key: 't.id',
    fts: true,
    like: [],
    amount: money('amount_minor', 'amount_raw', 'currency'),
    status: normalizeStatusWord,
    channel: null,
    dateMs: 't.created_at_ms',
    cells: {
      created: 't.created_at',
      customer: 't.customer_name',
      email: 't.customer_email',
      plan: planTitle,
      amount: money('amount_minor', 'amount_raw', 'currency'),
      status: 't.status_raw',
      next_payment: 't.next_payment_date',
      start: 't.start_date',
      customer_id: 't.customer_id',
      id: 't.id'
    },
    sorts: {
      created: ['coalesce(t.created_at_ms, -1)'],
      customer: ["coalesce(t.customer_name, '')"],
      amount: ['AMOUNT'],
      status: ['t.status']
    }
  },
  virtual_accounts: {
    table: 'virtual_accounts',
    key: 't.id',
    fts: false,
    like: ['t.account_number', 't.account_name', 't.bank_name', 't.id'],
    amount: money('amount_minor', 'amount_raw', 'currency'),
    status: null,
    channel: null,
    dateMs: "(unixepoch(t.created_at, 'subsec') * 1000)",
    cells: {
      created: 't.created_at',
      account_number: 't.account_number',
      account_name: 't.account_name',
      bank: 't.bank_name',
      amount: money('amount_minor', 'amount_raw', 'currency'),
      // Expired once its time has passed, whatever was last fetched.
      state:
        "case when t.expires_at is not null and unixepoch(t.expires_at, 'subsec') <= unixepoch('now', 'subsec') then 'expired' else coalesce(t.lifecycle, 'unknown') end",
      expires: 't.expires_at',
      id: 't.id'
    },
    sorts: {
      created: ["coalesce(t.created_at, '')"],
      account_number: ['t.account_number'],
      account_name: ["coalesce(t.account_name, '')"],
      amount: ['AMOUNT'],
      expires: ["coalesce(t.expires_at, '')"]
    }
  },
  banks: {
    table: 'banks',
    key: "t.currency || ':' || t.bank_code",
    fts: false,
    like: ['t.bank_name', 't.bank_code', 't.nip_code', 't.cbn_code'],
    amount: null,
    status: null,
    channel: null,
    dateMs: null,
    cells: { name: 't.bank_name', code: 't.bank_code', currency: 't.currency', nip_code: 't.nip_code', cbn_code: 't.cbn_code' },
    sorts: { name: ['t.bank_name'], code: ['t.bank_code'], currency: ['t.currency', 't.bank_name'] }
  }
}

/** A window is read by keyset from a known row when it is at most this far past it; further, by OFFSET from the nearer end. */
const KEYSET_REACH = 5_000
export const MAX_WINDOW = 500

interface Compiled {
  from: string
  where: string
  params: Record<string, string | number | bigint>
  keys: SortKey[]
  scope: string
  empty: boolean
}

export function compileRecordQuery(profileId: string, query: RecordQuery, timeZone: string): Compiled {
  const def = TABLES[query.resource]
  if (!def) throw new AppError('invalid_filter', `Unknown table "${String(query.resource)}".`)
  const where = ['t.profile_id = @profile']
  const params: Record<string, string | number | bigint> = { profile: profileId }
  let from = `${def.table} t`
  let empty = false
  let rowid = 't.rowid'
  const text = query.text?.trim() ?? ''
  if (text !== '') {
    if (def.fts) {
      const fts = toFtsQuery(text)
      if (fts === null) empty = true
      else {
        from = `${def.table}_fts f JOIN ${def.table} t ON t.rowid = f.rowid`
        where.push(`${def.table}_fts MATCH @fts`)
        params['fts'] = fts
        rowid = 'f.rowid'
      }
    } else {
      where.push(`(${def.like.map((c) => `lower(${c}) like @like escape '\\'`).join(' or ')})`)
      params['like'] = likeText(text.slice(0, 200))
    }
  }
  filterTerms(
    {
      name: query.resource,
      status: def.status,
      channel: def.channel,
      currency: query.resource === 'banks' ? 't.currency' : (def.amount?.currency ?? null),
      amount: def.amount?.minor ?? null,
      dateMs: def.dateMs,
      bulkFile: query.resource === 'transfers'
    },
    query,
    timeZone,
    where,
    params
  )

  const sort = query.sort ?? defaultSort(query.resource)
  const exprs = def.sorts[sort.column]
  if (!exprs) throw new AppError('invalid_filter', `${query.resource.replace('_', ' ')} cannot be sorted by "${sort.column}".`)
  const keys: SortKey[] = []
  for (const expr of exprs) {
    if (expr === 'AMOUNT' && def.amount) {
      // Amounts are only compared within a currency; amounts that could not be converted come last.
      keys.push({ expr: `coalesce(${def.amount.currency}, '')`, desc: false })
      keys.push({ expr: `coalesce(${def.amount.minor}, ${sort.desc ? '-9223372036854775808' : '9223372036854775807'})`, desc: sort.desc })
    } else keys.push({ expr, desc: sort.desc })
  }
  keys.push({ expr: rowid, desc: sort.desc })
  return {
    from,
    where: where.join(' AND '),
    params,
    keys,
    scope: `records/${query.resource}/${sort.column}/${sort.desc ? 'desc' : 'asc'}`,
    empty
  }
}

const cellSql = (def: TableSql): string =>
  Object.entries(def.cells)
    .map(([id, sql]) =>
      typeof sql === 'string' ? `${sql} AS "c:${id}"` : `${sql.minor} AS "m:${id}", ${sql.raw} AS "r:${id}", ${sql.currency} AS "u:${id}"`
    )
    .join(', ')

const plain = (value: unknown): string | number | null => (typeof value === 'bigint' ? Number(value) : (value as string | number | null))

function toRow(def: TableSql, raw: Record<string, unknown>): RecordRow {
  const cells: Record<string, Cell> = {}
  for (const [id, sql] of Object.entries(def.cells)) {
    if (typeof sql === 'string') cells[id] = plain(raw[`c:${id}`])
    else {
      const r = raw[`r:${id}`]
      cells[id] = {
        minor: plain(raw[`m:${id}`]) as number | null,
        raw: r === null || r === undefined ? null : String(r),
        currency: (raw[`u:${id}`] as string | null) ?? null
      }
    }
  }
  return { key: String(raw['_key']), cells }
}

export interface WindowRequest {
  offset: number
  limit: number
  /** A row whose cursor is known (usually the end of the window before): rows past it are read by keyset. */
  anchor?: { offset: number; cursor: string } | undefined
  /** The total, when the caller has it: a window past the middle is read from the far end. */
  total?: number | undefined
}

/**
 * Rows [offset, offset + limit) of the table in its sort order. From an anchor within reach this is
 * keyset paging (the millionth row costs what the first does, scrolling on); a jump with no anchor
 * nearby counts rows from the nearer end, so the last rows of a million are as quick as the first.
 */
export function recordRows(
  db: Database.Database,
  profileId: string,
  query: RecordQuery,
  request: WindowRequest,
  timeZone: string
): RowsResult {
  const def = TABLES[query.resource]
  const q = compileRecordQuery(profileId, query, timeZone)
  const offset = Math.max(0, Math.floor(request.offset))
  const limit = Math.min(MAX_WINDOW, Math.max(1, Math.floor(request.limit)))
  if (q.empty) return { offset, rows: [], next: null }
  const params: Record<string, string | number | bigint> = { ...q.params }
  let where = q.where
  let skip = offset
  let backwards = false
  let take = limit
  const anchor = request.anchor
  if (anchor && anchor.offset <= offset && offset - anchor.offset <= KEYSET_REACH) {
    where += ` AND ${pastCursor(q.scope, q.keys, anchor.cursor, false, params)}`
    skip = offset - anchor.offset
  } else if (request.total !== undefined && offset > request.total / 2) {
    backwards = true
    take = Math.max(0, Math.min(limit, request.total - offset))
    skip = Math.max(0, request.total - offset - take)
  }
  if (take === 0) return { offset, rows: [], next: null }
  params['limit'] = take
  params['skip'] = skip
  const rows = db
    .prepare(
      `SELECT ${def.key} AS _key, ${cellSql(def)}, ${sortValueColumns(q.keys)} FROM ${q.from} WHERE ${where} ORDER BY ${orderBy(q.keys, backwards)} LIMIT @limit OFFSET @skip`
    )
    .safeIntegers(true)
    .all(params) as Record<string, unknown>[]
  if (backwards) rows.reverse()
  const last = rows.at(-1)
  const ended = rows.length < take || (request.total !== undefined && offset + rows.length >= request.total)
  const next = last && !ended ? { offset: offset + rows.length, cursor: cursorOfRow(q.scope, q.keys, last) } : null
  return { offset, rows: rows.map((r) => toRow(def, r)), next }
}

/** How many records match, exactly, and their amounts summed per currency (exact integers; null where a sum is not exact). */
export function recordTotals(db: Database.Database, profileId: string, query: RecordQuery, timeZone: string): RecordTotals {
  const def = TABLES[query.resource]
  const q = compileRecordQuery(profileId, { ...query, sort: undefined }, timeZone)
  if (q.empty) return { total: 0, byCurrency: [] }
  if (!def.amount) {
    const n = (db.prepare(`SELECT count(*) AS n FROM ${q.from} WHERE ${q.where}`).get(q.params) as { n: number }).n
    return { total: n, byCurrency: [] }
  }
  const rows = db
    .prepare(
      `SELECT ${def.amount.currency} AS currency, count(*) AS n, sum(${def.amount.minor}) AS total, count(${def.amount.minor}) AS exact
       FROM ${q.from} WHERE ${q.where} GROUP BY 1 ORDER BY 2 DESC, 1`
    )
    .safeIntegers(true)
    .all(q.params) as { currency: string | null; n: bigint; total: bigint | null; exact: bigint }[]
  const byCurrency: CurrencyTotal[] = rows.map((r) => {
    const whole =
      r.exact === r.n && r.total !== null && r.total <= BigInt(Number.MAX_SAFE_INTEGER) && r.total >= BigInt(-Number.MAX_SAFE_INTEGER)
    return { currency: r.currency, count: Number(r.n), sumMinor: whole ? Number(r.total) : null }
  })
  return { total: byCurrency.reduce((n, c) => n + c.count, 0), byCurrency }
}

// Keyset paging over the cache: an ORDER BY from sort keys, and page cursors that carry a row's sort values, so the 20,000th page costs what the first does.
import { AppError } from '../errors'

/** One ORDER BY term: an SQL expression and its direction. */
export interface SortKey {
  expr: string
  desc: boolean
}

export function orderBy(keys: readonly SortKey[], reversed: boolean): string {
  return keys.map((k) => `${k.expr} ${k.desc !== reversed ? 'DESC' : 'ASC'}`).join(', ')
}

/**
 * Rows strictly after (or, for `before`, strictly before) the row whose sort values are `values`, in
 * the order of `keys`: (k0 beyond v0) OR (k0 = v0 AND k1 beyond v1) OR … Answered from the same
 * indexes as the order, so the 20,000th page costs what the first does.
 */
function keysetWhere(keys: readonly SortKey[], backwards: boolean): string {
  const beyond = (k: SortKey, i: number): string => `${k.expr} ${k.desc !== backwards ? '<' : '>'} @k${i}`
  return `(${keys.map((k, i) => [...keys.slice(0, i).map((p, j) => `${p.expr} = @k${j}`), beyond(k, i)].join(' AND ')).join(' OR ')})`
}

type CursorValue = bigint | string

/** The sort values selected beside each row (as _k0, _k1 …), from which its cursor is made. */
export const sortValueColumns = (keys: readonly SortKey[]): string => keys.map((k, i) => `${k.expr} AS _k${i}`).join(', ')

/** The cursor of a row read with sortValueColumns. */
export const cursorOfRow = (scope: string, keys: readonly SortKey[], row: Record<string, unknown>): string =>
  encodeCursor(
    scope,
    keys.map((_, i) => row[`_k${i}`] as CursorValue)
  )

/** The WHERE term for rows past a cursor (before it, `backwards`), its sort values put in `params` as @k0, @k1 … */
export function pastCursor(
  scope: string,
  keys: readonly SortKey[],
  cursor: string,
  backwards: boolean,
  params: Record<string, string | number | bigint>
): string {
  decodeCursor(scope, cursor, keys.length).forEach((v, i) => (params[`k${i}`] = v))
  return keysetWhere(keys, backwards)
}

/** A page edge: the table and sort it belongs to (scope), and the sort values of its row (integers as text: seqs are past 2^53). */
function encodeCursor(scope: string, values: readonly CursorValue[]): string {
  const body = [scope, ...values.map((v) => (typeof v === 'bigint' ? ['i', v.toString()] : ['s', v]))]
  return Buffer.from(JSON.stringify(body)).toString('base64url')
}

function decodeCursor(scope: string, cursor: string, count: number): CursorValue[] {
  const refuse = (): never => {
    throw new AppError('invalid_cursor', 'That page link is from another search or no longer valid; start again from the first page.')
  }
  let body: unknown
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    return refuse()
  }
  if (!Array.isArray(body) || body[0] !== scope || body.length !== count + 1) return refuse()
  return (body.slice(1) as unknown[]).map((v) => {
    if (Array.isArray(v) && v[0] === 'i' && typeof v[1] === 'string' && /^-?\d{1,19}$/.test(v[1])) return BigInt(v[1])
    if (Array.isArray(v) && v[0] === 's' && typeof v[1] === 'string') return v[1]
    return refuse()
  })
}

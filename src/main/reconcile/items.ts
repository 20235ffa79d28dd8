// A session's stored result: its items in order (a page, one, all, those a filter shows, the open pool), an item put in its place without moving the others, and the summary totals kept with them.
import { randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import type { ReconPlacement } from '../../shared/records'
import { pairKey, shortItemKey, storedSettings, type ItemFilter, type ReconItem, type ReconSettings } from '../../shared/reconcile'

/** What a short key looks like (12 of Crockford's base-32 digits), so only such a key is looked up by it. */
const SHORT_KEY = /^[0-9A-Za-z]{12}$/
import { AppError } from '../errors'
import type { ReconContext } from './context'
import { foldSession } from './fold'
import { filterClause, itemColumns } from './item-filters'
import { summarise, totalsBasis, type SummaryTotals } from './totals'

/** What a run keeps of a session's totals: the totals and the settings they were summed under. */
/** The sessions of a profile that hold a provider record (by its id), with its outcome in each: the record's drawer shows them. */
export function placementsOfRecord(db: Database.Database, profileId: string, recordId: string): ReconPlacement[] {
  const rows = db
    .prepare(
      `select s.id, s.name, s.closed_at, i.outcome, i.item_key from recon_sessions s join recon_items i on i.session_id = s.id
       where s.profile_id = ? and instr(i.item_key, ?) > 0 order by s.created_at desc limit 50`
    )
    .all(profileId, recordId) as { id: string; name: string; closed_at: string | null; outcome: string; item_key: string }[]
  return rows
    .filter((r) => keyHoldsRecord(r.item_key, recordId))
    .map((r) => ({ sessionId: r.id, sessionName: r.name, closed: r.closed_at !== null, outcome: r.outcome, itemKey: r.item_key }))
}

/** Whether an item key (pairKey in src/shared/reconcile.ts: the provider ids joined by '+', '|', then the lines') names the record as one of its ids, not part of one. */
function keyHoldsRecord(key: string, recordId: string): boolean {
  return (key.split('|')[0] ?? '').split('+').includes(recordId)
}

/**
 * A run stores its items this far apart in the order (positions 0, 65536, …), so an item a decision
 * makes anew can be put in its place between two others without moving the rest.
 */
export const POSITION_GAP = 65_536

/** Items stored between two steps of a run's storing (about a third of a second at a million items). */
const ITEMS_PER_STEP = 5_000

/** The outcomes of the engine's open pool: what the exact keys and the decisions left (pool-run.ts). */
export const POOL_OUTCOMES = ['suggested', 'ambiguous', 'only_in_provider', 'only_in_file', 'pending_at_provider'] as const

/**
 * An item of a session by its full key (bound as session id, shortItemKey(key), key): found through
 * the short key's index, its key compared on the row or two that share the short key (schema v20).
 */
export const BY_KEY = 'session_id = ? and short_key = ? and item_key = ?'

/** POOL_OUTCOMES as the partial indexes of schema v19 write them: a query names the condition so to use them (a test reads the plans). */
const OPEN_POOL_WHERE = `outcome IN (${POOL_OUTCOMES.map((o) => `'${o}'`).join(', ')})`

/** What orders a run's items (inContentOrder in match/order.ts): the item's first line by content, else its first record. */
/** An item's place in the stored order (leadOf): its first line, else its first record. */
export interface Lead {
  day: string
  isFile: boolean
  amount: number
  id: string
}

export function leadOf(item: ReconItem): Lead {
  const first = <T extends { date: string; amountMinor: number; id: string }>(sides: readonly T[]): T =>
    sides.reduce((best, x) =>
      x.date < best.date ||
      (x.date === best.date && (x.amountMinor < best.amountMinor || (x.amountMinor === best.amountMinor && x.id < best.id)))
        ? x
        : best
    )
  const lead = item.file.length > 0 ? first(item.file) : first(item.provider)
  return { day: lead.date, isFile: item.file.length > 0, amount: lead.amountMinor, id: lead.id }
}

/** The order of two leads: day, lines before records, amount, id. */
export function compareLeads(a: Lead, b: Lead): number {
  if (a.day !== b.day) return a.day < b.day ? -1 : 1
  if (a.isFile !== b.isFile) return a.isFile ? -1 : 1
  if (a.amount !== b.amount) return a.amount - b.amount
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** An item as stored: its place in the order, its JSON as kept, and the item. */
export interface StoredItem {
  position: number
  data: string
  item: ReconItem
}

/** Stores one item at a place, with the columns the filters read; returns it as stored. */
function insertItem(insert: Database.Statement, sessionId: string, position: number, item: ReconItem): StoredItem {
  const c = itemColumns(item)
  const data = JSON.stringify(item)
  insert.run(
    sessionId,
    position,
    item.key,
    shortItemKey(item.key),
    item.outcome,
    data,
    c.currency,
    c.day,
    c.providerMinor,
    c.fileMinor,
    c.search
  )
  return { position, data, item }
}

/** The outcomes a pool matched again reads besides the pool's: the lines that may name a record by its key (pool-run.ts). */
export const KEYS_OUTCOMES = ['duplicate_in_file', 'not_read'] as const

/** The outcomes the mirror holds. */
const MIRRORED = new Set<string>([...POOL_OUTCOMES, ...KEYS_OUTCOMES])

/**
 * One session's items of MIRRORED outcomes as stored, kept in memory between decisions (a million items' pool is read
 * once, not per decision). It stands for the table only while the summary written with its last change carries its
 * token: every change to a session's items is stored with its totals in one transaction (storeTotals seals the mirror),
 * so a change rolled back, made by another process, or not sealed leaves the tokens apart and the items are read again.
 */
interface Mirror {
  sessionId: string
  token: string | null
  items: Map<string, StoredItem>
  keyAt: Map<number, string>
  /** Each record's and line's item of the open pool (POOL_OUTCOMES), by the member's id. */
  poolOf: Map<string, ReconItem>
  listeners: Map<string, MirrorListener>
}

/** Told of each change to a mirror, after it is made: an item put (as stored) or taken out (null) under its key. */
export type MirrorListener = (key: string, stored: StoredItem | null) => void

/** A session's mirrored items (see Mirror): by key, and the open pool's by member; each listener (by what it keeps) is told of each change to them. */
export interface MirroredItems {
  /** The token of the last change made through the mirror (a change made otherwise gives the session a new mirror). */
  readonly token: string | null
  items: ReadonlyMap<string, StoredItem>
  poolOf: ReadonlyMap<string, ReconItem>
  listeners: Map<string, MirrorListener>
}

const POOL = new Set<string>(POOL_OUTCOMES)

/** The keys a run's provider records hold (SessionItems.recordKeys). */
export interface RecordKeys {
  filter: Buffer
  twice: ReadonlySet<string>
}

/** The record keys last read from each database, with the token they were stored under. */
const RECORD_KEYS = new WeakMap<Database.Database, RecordKeys & { token: string }>()

/** The mirror of each database (one session at a time: the one being decided on). */
const MIRRORS = new WeakMap<Database.Database, Mirror>()

export interface StoredSummary {
  settings: ReconSettings
  totals: SummaryTotals
  /** The token of the mirror the change was made through (see Mirror). */
  mirror?: string
}

/** The session's columns the totals are read from. */
interface TotalsRow {
  summary: string | null
  settings: string
  period_to: string
}

export class SessionItems {
  constructor(private readonly ctx: ReconContext) {}

  /** The items a filter shows, a page at a time, and how many it shows in all. */
  page(sessionId: string, options: ItemFilter & { offset?: number; limit?: number } = {}): { total: number; items: ReconItem[] } {
    const { offset, limit, ...filter } = options
    const asked = Object.entries(filter)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k]) => k)
    // Counts and currencies come from the stored totals where they can (a million items are not counted for each page).
    const row = this.ctx.db.prepare('select last_run_at, summary, settings, period_to from recon_sessions where id = ?').get(sessionId) as
      (TotalsRow & { last_run_at: string | null }) | undefined
    const totals = row?.last_run_at ? this.totals(sessionId, row) : null
    const where = filterClause(
      filter,
      asked.some((k) => k === 'minAmount' || k === 'maxAmount') ? (totals?.currencies.map((c) => c.currency) ?? []) : []
    )
    const args = [sessionId, ...where.args]
    const counted = !totals
      ? null
      : asked.length === 0
        ? Object.values(totals.counts).reduce((a, b) => a + b, 0)
        : asked.length === 1 && filter.outcome
          ? totals.counts[filter.outcome]
          : null
    const total =
      counted ??
      (this.ctx.db.prepare(`select count(*) as n from recon_items where session_id = ?${where.sql}`).get(...args) as { n: number }).n
    const rows = this.ctx.db
      .prepare(`select data from recon_items where session_id = ?${where.sql} order by position limit ? offset ?`)
      .all(...args, limit ?? 500, offset ?? 0) as { data: string }[]
    return { total, items: rows.map((r) => JSON.parse(r.data) as ReconItem) }
  }

  /** The suggestions a filter shows that score at least `minScore` and are not decided yet; group suggestions (which have no score) only when `groups`. */
  suggestionsAbove(sessionId: string, filter: ItemFilter, minScore: number, groups = false): ReconItem[] {
    const where = filterClause(
      { ...filter, outcome: 'suggested' },
      filter.minAmount || filter.maxAmount ? this.totals(sessionId).currencies.map((c) => c.currency) : []
    )
    const rows = this.ctx.db
      .prepare(`select data from recon_items where session_id = ?${where.sql} order by position`)
      .all(sessionId, ...where.args) as { data: string }[]
    return rows
      .map((r) => JSON.parse(r.data) as ReconItem)
      .filter((i) => i.decision === null && (i.score === null ? groups : i.score >= minScore))
  }

  /** Every stored item in order, one at a time (reports of a million items). */
  *all(sessionId: string): Generator<ReconItem> {
    for (const row of this.ctx.db
      .prepare('select data from recon_items where session_id = ? order by position')
      .iterate(sessionId) as Iterable<{ data: string }>)
      yield JSON.parse(row.data) as ReconItem
  }

  /** The stored items not matched, in order (a period's open items are among them: what the next one carries forward). */
  *notMatched(sessionId: string): Generator<ReconItem> {
    for (const row of this.ctx.db
      .prepare("select data from recon_items where session_id = ? and outcome != 'matched' order by position")
      .iterate(sessionId) as Iterable<{ data: string }>)
      yield JSON.parse(row.data) as ReconItem
  }

  get(sessionId: string, key: string): ReconItem | null {
    return this.withPosition(sessionId, key)?.item ?? null
  }

  /** An item and its place in the stored order, by its stable key or its short key (shortItemKey). */
  withPosition(sessionId: string, key: string): { item: ReconItem; position: number } | null {
    const row = this.ctx.db.prepare(`select position, data from recon_items where ${BY_KEY}`).get(sessionId, shortItemKey(key), key) as
      { position: number; data: string } | undefined
    if (row) return { item: JSON.parse(row.data) as ReconItem, position: row.position }
    if (!SHORT_KEY.test(key)) return null
    const short = this.ctx.db
      .prepare('select position, data from recon_items where session_id = ? and short_key = ? limit 2')
      .all(sessionId, key.toUpperCase()) as { position: number; data: string }[]
    if (short.length > 1)
      throw new AppError(
        'item_key_ambiguous',
        `Two items of the session share the short key ${key}: give the item's full key from the report.`
      )
    const found = short[0]
    return found ? { item: JSON.parse(found.data) as ReconItem, position: found.position } : null
  }

  /** The items holding any of these provider records or file lines. */
  containing(sessionId: string, providerIds: string[], fileIds: string[]): ReconItem[] {
    const wanted = new Set([...providerIds, ...fileIds])
    if (wanted.size === 0) return []
    // Most often each waits alone (a record only at the provider, a line only in the file): found by its key at once.
    const alone = [...providerIds.map((id) => pairKey([id], [])), ...fileIds.map((id) => pairKey([], [id]))].map((key) =>
      this.get(sessionId, key)
    )
    if (alone.every((it) => it !== null)) return alone
    // An item's key names its members (pairKey): only the items whose key holds one of the ids are read.
    const rows = this.ctx.db
      .prepare(
        `select data from recon_items where session_id = ? and exists (select 1 from json_each(?) where instr(recon_items.item_key, value) > 0) order by position`
      )
      .pluck()
      .all(sessionId, JSON.stringify([...wanted])) as string[]
    return rows
      .map((data) => JSON.parse(data) as ReconItem)
      .filter((it) => it.provider.some((p) => wanted.has(p.id)) || it.file.some((f) => wanted.has(f.id)))
  }

  /**
   * Whether an item of the session holds the provider record: found at once when it waits in the open pool (the mirror)
   * or alone; else the items whose key holds the id are looked through.
   */
  holdsRecord(sessionId: string, recordId: string): boolean {
    if (
      this.mirrored(sessionId)
        .poolOf.get(recordId)
        ?.provider.some((p) => p.id === recordId)
    )
      return true
    if (this.get(sessionId, pairKey([recordId], [])) !== null) return true
    const keys = this.ctx.db
      .prepare('select item_key from recon_items where session_id = ? and instr(item_key, ?) > 0')
      .pluck()
      .all(sessionId, recordId) as string[]
    return keys.some((key) => keyHoldsRecord(key, recordId))
  }

  /**
   * The items other than `key` that still wait in the engine's open pool (suggested, ambiguous, alone
   * at the provider or in the file, pending), in the currency, dated within the days given, that may
   * hold an amount between `low` and `high`: a line's, a record's, or (when records may be read so
   * and any has fees, up to `netFeesUpTo`) a record's net of its fees; a suggestion or ambiguity of several members is
   * always given (its columns hold sums). The records
   * and lines whose matching could change when an item's members are taken; the caller checks each.
   */
  *openNear(
    sessionId: string,
    key: string,
    near: { currency: string; fromDay: string; toDay: string; low: number; high: number; netFeesUpTo: number | null }
  ): Generator<ReconItem> {
    const { currency, fromDay, toDay, low, high } = near
    // Each way an item may be near, through its own index (schema v19's by amount), each item once.
    const ways: [string, unknown[]][] = [
      [`currency = ? and file_minor between ? and ? and ${OPEN_POOL_WHERE}`, [currency, low, high]],
      [`currency = ? and provider_minor between ? and ? and ${OPEN_POOL_WHERE}`, [currency, low, high]],
      // Several members on a side: their ids joined by '+' in the key (pairKey), and the columns hold sums.
      [`outcome in ('suggested', 'ambiguous') and instr(item_key, '+') > 0 and +currency = ?`, [currency]]
    ]
    // A record read net of its fees: its amount above `high` by at most the largest fee (no more than all the pool's fees).
    if (near.netFeesUpTo !== null && high < Number.MAX_SAFE_INTEGER)
      ways.push([
        `currency = ? and provider_minor between ? and ? and ${OPEN_POOL_WHERE}
           and provider_minor - abs(coalesce(json_extract(data, '$.provider[0].feesMinor'), 0)) <= ?`,
        [currency, high + 1, Math.min(Number.MAX_SAFE_INTEGER, high + near.netFeesUpTo), high]
      ])
    const seen = new Set<string>([key])
    for (const [where, args] of ways) {
      const rows = this.ctx.db
        .prepare(`select item_key, data from recon_items where session_id = ? and ${where} and day between ? and ?`)
        .raw(true)
        .iterate(sessionId, ...args, fromDay, toDay) as Iterable<[string, string]>
      for (const [itemKey, data] of rows) {
        if (seen.has(itemKey)) continue
        seen.add(itemKey)
        yield JSON.parse(data) as ReconItem
      }
    }
  }

  /**
   * Stores a run's items in place of the last run's, in the order given, a step every ITEMS_PER_STEP
   * (a caller may pause there, `stored` told how many are); returns how many.
   */
  *replacing(sessionId: string, items: Iterable<ReconItem>, stored: (count: number) => void): Generator<void, number> {
    this.ctx.db.prepare('delete from recon_items where session_id = ?').run(sessionId)
    const insert = this.insertStatement()
    const mirror = this.changing(sessionId, true)
    let k = 0
    for (const item of items) {
      const row = insertItem(insert, sessionId, k++ * POSITION_GAP, item)
      if (MIRRORED.has(item.outcome)) mirrorPut(mirror, row)
      if (k % ITEMS_PER_STEP === 0) {
        stored(k)
        yield
      }
    }
    stored(k)
    return k
  }

  private insertStatement(): Database.Statement {
    return this.ctx.db.prepare(
      'insert into recon_items (session_id, position, item_key, short_key, outcome, data, currency, day, provider_minor, file_minor, search) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'
    )
  }

  /**
   * The items of the engine's open pool (POOL_OUTCOMES) and of KEYS_OUTCOMES, each with its place, by key: from the
   * mirror while it stands for the table, else read (and mirrored). Not to be changed by the caller.
   */
  mirrored(sessionId: string): MirroredItems {
    const { kept, token } = this.standing(sessionId)
    if (kept) return kept
    const mirror = emptyMirror(sessionId, token)
    for (const stored of this.withOutcomes(sessionId, [...MIRRORED])) mirrorPut(mirror, stored)
    MIRRORS.set(this.ctx.db, mirror)
    return mirror
  }

  /** The session's mirror when one is kept and stands for the table (see Mirror), else null; nothing else is read. */
  keptMirror(sessionId: string): MirroredItems | null {
    return this.standing(sessionId).kept
  }

  /** The kept mirror if it stands for the session's table, and the token of the session's last sealed change. */
  private standing(sessionId: string): { kept: Mirror | null; token: string | null } {
    // Only the token is read from the summary (the caller reads the rest of it once, if at all).
    const token =
      (this.ctx.db.prepare("select json_extract(summary, '$.mirror') from recon_sessions where id = ?").pluck().get(sessionId) as
        string | null | undefined) ?? null
    const kept = MIRRORS.get(this.ctx.db)
    return { kept: kept && kept.sessionId === sessionId && kept.token !== null && kept.token === token ? kept : null, token }
  }

  /** The mirror of a session about to change (emptied when `reset`), unsealed until its totals are stored; null when none is kept for it. */
  private changing(sessionId: string, reset = false): Mirror | null {
    const kept = MIRRORS.get(this.ctx.db)
    if (reset) {
      const mirror = emptyMirror(sessionId, null)
      MIRRORS.set(this.ctx.db, mirror)
      return mirror
    }
    if (!kept || kept.sessionId !== sessionId) return null
    kept.token = null
    return kept
  }

  /** The items of these outcomes, each with its place, in order. */
  withOutcomes(sessionId: string, outcomes: readonly string[]): StoredItem[] {
    // One look-up of the index by outcome each, put in order here: asked to order them, SQLite would read every item in order instead.
    const rows = this.ctx.db
      .prepare(`select position, data from recon_items where session_id = ? and outcome in (${outcomes.map(() => '?').join(', ')})`)
      .raw(true)
      .all(sessionId, ...outcomes) as [number, string][]
    rows.sort((a, b) => a[0] - b[0])
    return rows.map(([position, data]) => ({ position, data, item: JSON.parse(data) as ReconItem }))
  }

  /**
   * The items read on the statement's basis (a record alone, or any item of a line not read: materialise), each with its
   * place: what a turn of the basis changes. Every item of the session is looked at (it turns seldom).
   */
  readOnTheBasis(sessionId: string): StoredItem[] {
    const rows = this.ctx.db
      .prepare(
        "select position, data from recon_items where session_id = ? and (file_minor is null or outcome = 'not_read') order by position"
      )
      .raw(true)
      .all(sessionId) as [number, string][]
    return rows.map(([position, data]) => ({ position, data, item: JSON.parse(data) as ReconItem }))
  }

  /** Takes the item at a place out. */
  remove(sessionId: string, position: number): void {
    this.ctx.db.prepare('delete from recon_items where session_id = ? and position = ?').run(sessionId, position)
    const mirror = this.changing(sessionId)
    if (mirror) mirrorDrop(mirror, position)
  }

  /**
   * Puts an item in its place in the stored order (as a run would order it) without moving any other:
   * false when its neighbours sit too close for a place between them (a run spaces them again).
   */
  insertInOrder(sessionId: string, item: ReconItem): boolean {
    const mirror = this.changing(sessionId)
    const lead = leadOf(item)
    const at = this.ctx.db.prepare(
      'select position, data from recon_items where session_id = ? and position >= ? order by position limit 1'
    )
    const before = this.ctx.db.prepare(
      'select position from recon_items where session_id = ? and position < ? order by position desc limit 1'
    )
    // Each end on its own: SQLite reads one of them from the index, not both at once.
    const min = this.ctx.db.prepare('select min(position) from recon_items where session_id = ?').pluck().get(sessionId) as number | null
    const max = this.ctx.db.prepare('select max(position) from recon_items where session_id = ?').pluck().get(sessionId) as number | null
    let position: number
    if (min === null || max === null) position = 0
    else {
      // The first place whose item comes after this one: every item before `lo` comes before it, every one from `hi` on after.
      let lo = min
      let hi = max + 1
      while (lo < hi) {
        const mid = lo + Math.floor((hi - lo) / 2)
        const row = at.get(sessionId, mid) as { position: number; data: string } | undefined
        if (!row || row.position >= hi || compareLeads(leadOf(JSON.parse(row.data) as ReconItem), lead) > 0) hi = mid
        else lo = row.position + 1
      }
      const next = (at.get(sessionId, lo) as { position: number } | undefined)?.position ?? null
      const prev = (before.get(sessionId, lo) as { position: number } | undefined)?.position ?? null
      if (prev === null) position = (next as number) - POSITION_GAP
      else if (next === null) position = prev + POSITION_GAP
      else if (next - prev >= 2) position = prev + Math.floor((next - prev) / 2)
      else return false
    }
    const stored = insertItem(this.insertStatement(), sessionId, position, item)
    if (mirror && MIRRORED.has(item.outcome)) mirrorPut(mirror, stored)
    return true
  }

  /** The ids of the records from just outside the period that the last run left to no item (null before a run kept them). */
  outsideOpen(sessionId: string): string[] | null {
    const stored = this.ctx.db.prepare('select outside_open from recon_sessions where id = ?').pluck().get(sessionId) as string | null
    return stored === null ? null : (JSON.parse(stored) as string[])
  }

  storeOutsideOpen(sessionId: string, ids: readonly string[]): void {
    this.ctx.db.prepare('update recon_sessions set outside_open = ? where id = ?').run(JSON.stringify(ids), sessionId)
  }

  /**
   * What the last run's provider records hold as keys: the filter of their keys (key-filter.ts) and those two or more
   * of them hold (keysHeldTwice); null before a run kept them. Read again only when a run stored them anew (their token).
   */
  recordKeys(sessionId: string): RecordKeys | null {
    const token = this.ctx.db.prepare('select token from recon_session_keys where session_id = ?').pluck().get(sessionId) as
      string | undefined
    if (token === undefined) return null
    const held = RECORD_KEYS.get(this.ctx.db)
    if (held?.token === token) return held
    const [filter, twice] = this.ctx.db
      .prepare('select record_keys, keys_twice from recon_session_keys where session_id = ?')
      .raw(true)
      .get(sessionId) as [Buffer, string]
    const read = { token, filter, twice: new Set(JSON.parse(twice) as string[]) }
    RECORD_KEYS.set(this.ctx.db, read)
    return read
  }

  storeRecordKeys(sessionId: string, filter: Buffer, twice: readonly string[]): void {
    this.ctx.db
      .prepare('insert or replace into recon_session_keys (session_id, record_keys, keys_twice, token) values (?, ?, ?, ?)')
      .run(sessionId, filter, JSON.stringify(twice), randomUUID())
  }

  /** Stores one item as it now is, at its place. */
  replaceOne(sessionId: string, position: number, item: ReconItem): void {
    const c = itemColumns(item)
    const data = JSON.stringify(item)
    this.ctx.db
      .prepare(
        'update recon_items set outcome = ?, data = ?, currency = ?, day = ?, provider_minor = ?, file_minor = ?, search = ? where session_id = ? and position = ?'
      )
      .run(item.outcome, data, c.currency, c.day, c.providerMinor, c.fileMinor, c.search, sessionId, position)
    const mirror = this.changing(sessionId)
    if (!mirror) return
    mirrorDrop(mirror, position)
    if (MIRRORED.has(item.outcome)) mirrorPut(mirror, { position, data, item })
  }

  /**
   * The session's summary totals as stored with its last run and kept up to date by each decision;
   * a session stored before summaries were kept has them worked out once from its items, and kept.
   */
  totals(sessionId: string, row?: TotalsRow): SummaryTotals {
    const stored =
      row ??
      (this.ctx.db.prepare('select summary, settings, period_to from recon_sessions where id = ?').get(sessionId) as TotalsRow | undefined)
    if (!stored) throw new AppError('session_not_found', `No reconciliation session ${sessionId}.`)
    if (stored.summary) return (JSON.parse(stored.summary) as StoredSummary).totals
    const settings = storedSettings(stored.settings)
    const totals = summarise(
      this.all(sessionId),
      totalsBasis({ settings, to: stored.period_to }),
      foldSession(this.ctx.db, sessionId).adjustments
    )
    this.storeTotals(sessionId, settings, totals)
    return totals
  }

  /** The totals and the settings they were summed under, as the last run or decision stored them (null before the first run). */
  storedSummary(sessionId: string): StoredSummary | null {
    const stored = this.ctx.db.prepare('select summary from recon_sessions where id = ?').get(sessionId) as { summary: string | null }
    if (!stored.summary) return null
    const kept = JSON.parse(stored.summary) as StoredSummary
    // Settings a later version added take their defaults, as the session's own do (storedSettings).
    return { ...kept, settings: storedSettings(JSON.stringify(kept.settings)) }
  }

  /** Stores the totals, and seals the session's mirror (when one is kept) with a new token stored beside them. */
  storeTotals(sessionId: string, settings: ReconSettings, totals: SummaryTotals): void {
    const kept = MIRRORS.get(this.ctx.db)
    const mirror = kept?.sessionId === sessionId ? kept : null
    const token = mirror ? randomUUID() : null
    const stored: StoredSummary = { settings, totals, ...(token ? { mirror: token } : {}) }
    this.ctx.db.prepare('update recon_sessions set summary = ? where id = ?').run(JSON.stringify(stored), sessionId)
    if (mirror) mirror.token = token
  }
}

function emptyMirror(sessionId: string, token: string | null): Mirror {
  return { sessionId, token, items: new Map(), keyAt: new Map(), poolOf: new Map(), listeners: new Map() }
}

function mirrorPut(mirror: Mirror | null, stored: StoredItem): void {
  if (!mirror) return
  const { item } = stored
  mirror.items.set(item.key, stored)
  mirror.keyAt.set(stored.position, item.key)
  if (POOL.has(item.outcome)) {
    for (const p of item.provider) mirror.poolOf.set(p.id, item)
    for (const f of item.file) mirror.poolOf.set(f.id, item)
  }
  for (const listener of mirror.listeners.values()) listener(item.key, stored)
}

function mirrorDrop(mirror: Mirror, position: number): void {
  const key = mirror.keyAt.get(position)
  if (key === undefined) return
  const item = (mirror.items.get(key) as StoredItem).item
  mirror.keyAt.delete(position)
  mirror.items.delete(key)
  for (const side of [item.provider, item.file]) for (const { id } of side) if (mirror.poolOf.get(id) === item) mirror.poolOf.delete(id)
  for (const listener of mirror.listeners.values()) listener(key, null)
}

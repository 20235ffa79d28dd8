// The cache's write and bookkeeping side: pages upserted with their checkpoint in one transaction, failures, tracked ids.
import type Database from 'better-sqlite3'
import { redactSecrets } from '../redact'
import type { Row } from './api-rows'
import { FOLLOW_KINDS, type FollowedItem, type FollowKind } from '../../shared/ipc/sync'

export type Resource = 'payments' | 'transfers' | 'plans' | 'subscriptions' | 'virtual_accounts' | 'banks'
export type TrackedKind = FollowKind
export type TrackedItem = FollowedItem

/** Plan ids that cached payments or subscriptions refer to, plus those the user follows (one row each, as `id`). */
const REFERENCED_PLAN_IDS = `
  select plan_id as id from payments where profile_id = @profile and plan_id is not null
  union select plan_id from subscriptions where profile_id = @profile and plan_id is not null
  union select value from tracked where profile_id = @profile and kind = 'plan'`

const TABLES: Record<Resource, { key: readonly string[] }> = {
  payments: { key: ['id'] },
  transfers: { key: ['reference'] },
  plans: { key: ['id'] },
  subscriptions: { key: ['id'] },
  virtual_accounts: { key: ['id'] },
  banks: { key: ['currency', 'bank_code'] }
}

/**
 * A payment's `seq` (its INTEGER PRIMARY KEY, so also its rowid) is created_at_ms × 2^20 plus a
 * sequence within that millisecond, so seq order is time order. FTS5 returns matches in rowid order
 * natively, which lets "newest first" stream the first page of a million matches instead of sorting
 * them. An upsert keeps a row's first seq; being declared, VACUUM never renumbers it.
 */
export const PAYMENT_ROWID_SLOTS = 2 ** 20

/** The last millisecond whose slot fits in 63 bits (the year 2248). */
const LAST_ROWID_MS = 2 ** 43 - 1

/** The millisecond whose rowid slot a payment takes: unknown or negative dates take slot 0, later ones than LAST_ROWID_MS the last. */
function rowidMs(createdAtMs: unknown): number {
  const ms = typeof createdAtMs === 'number' && Number.isSafeInteger(createdAtMs) && createdAtMs >= 0 ? createdAtMs : 0
  return Math.min(ms, LAST_ROWID_MS)
}

/**
 * The first rowid of a payment's millisecond. A BigInt, so SQLite does the slot arithmetic in 64-bit
 * integers: these rowids (about 1.9e18) are far past 2^53, where a double cannot tell neighbours apart.
 */
export function paymentRowidBase(createdAtMs: unknown): bigint {
  return BigInt(rowidMs(createdAtMs)) * BigInt(PAYMENT_ROWID_SLOTS)
}

/**
 * Payments in ascending rowid order: FTS5 flushes its pending index data to a new segment whenever a
 * rowid is lower than the one before, so the API's newest-first pages would cost one segment per row.
 * Within a millisecond the later-listed (older) one goes first, so rowid order keeps the API's order.
 */
function oldestFirst(rows: readonly Row[]): Row[] {
  const keyed = rows.map((row, index) => ({ row, index, ms: rowidMs(row['created_at_ms']) }))
  keyed.sort((a, b) => a.ms - b.ms || b.index - a.index)
  return keyed.map((k) => k.row)
}

export interface Checkpoint {
  /** What is being walked, e.g. "payments" or "transfers"; with scope, e.g. a bulk file id. */
  resource: string
  scope: string
  nextPage: number
  /** Records of the list walked so far (page number × server page size + rows on the page): where a resumed walk picks up. */
  nextOffset: number
  pageSize: number
  totalElements: number
  /** The walk reached its last page. */
  completed: boolean
}

export interface SyncFailure {
  resource: string
  scope: string
  code: string
  message: string
  status: number | null
  occurredAt: string
}

export class CacheStore {
  private readonly statements = new Map<string, Database.Statement>()
  private readonly writePageTx: (profileId: string, resource: Resource, rows: readonly Row[], checkpoint: Checkpoint | null) => void

  constructor(
    readonly db: Database.Database,
    private readonly now: () => number = Date.now
  ) {
    this.writePageTx = db.transaction((profileId: string, resource: Resource, rows: readonly Row[], checkpoint: Checkpoint | null) => {
      const fetchedAt = this.now()
      for (const row of resource === 'payments' ? oldestFirst(rows) : rows) {
        const params: Record<string, unknown> = { ...row, profile_id: profileId, fetched_at_ms: fetchedAt }
        if (resource === 'payments') params['rowid_base'] = paymentRowidBase(row['created_at_ms'])
        this.upsert(resource, row).run(params)
      }
      if (checkpoint) this.saveCheckpoint(profileId, checkpoint, fetchedAt)
    })
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql)
    if (!statement) {
      statement = this.db.prepare(sql)
      this.statements.set(sql, statement)
    }
    return statement
  }

  private upsert(resource: Resource, row: Row): Database.Statement {
    const columns = ['profile_id', ...Object.keys(row), 'fetched_at_ms']
    const key = TABLES[resource].key
    // A transfer read by its reference alone keeps the bulk file it was listed under.
    const updates = columns
      .filter((c) => c !== 'profile_id' && !key.includes(c))
      .map((c) =>
        resource === 'transfers' && c === 'bulk_file_id' ? `${c} = coalesce(excluded.${c}, ${resource}.${c})` : `${c} = excluded.${c}`
      )
    // Payments get a time-ordered seq (see PAYMENT_ROWID_SLOTS), so newest-first is seq order.
    const seq = resource === 'payments' ? ['seq'] : []
    const seqValue =
      resource === 'payments'
        ? [
            `(select coalesce(max(seq) + 1, @rowid_base) from payments where seq between @rowid_base and @rowid_base + ${PAYMENT_ROWID_SLOTS - 1})`
          ]
        : []
    return this.statement(
      `insert into ${resource} (${[...seq, ...columns].join(', ')}) values (${[...seqValue, ...columns.map((c) => `@${c}`)].join(', ')})
       on conflict (profile_id, ${key.join(', ')}) do update set ${updates.join(', ')}`
    )
  }

  private saveCheckpoint(profileId: string, checkpoint: Checkpoint, at: number): void {
    const iso = new Date(at).toISOString()
    this.statement(
      `insert into sync_state (profile_id, resource, scope, next_page, next_offset, page_size, total_elements, completed_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (profile_id, resource, scope) do update set next_page = excluded.next_page, next_offset = excluded.next_offset,
         page_size = excluded.page_size, total_elements = excluded.total_elements, completed_at = excluded.completed_at, updated_at = excluded.updated_at`
    ).run(
      profileId,
      checkpoint.resource,
      checkpoint.scope,
      checkpoint.nextPage,
      checkpoint.nextOffset,
      checkpoint.pageSize,
      checkpoint.totalElements,
      checkpoint.completed ? iso : null,
      iso
    )
  }

  /** Upserts rows (one page) and, when given, the checkpoint that follows them, all in one transaction. */
  writePage(profileId: string, resource: Resource, rows: readonly Row[], checkpoint: Checkpoint | null = null): void {
    this.writePageTx(profileId, resource, rows, checkpoint)
  }

  /** Replaces one currency's bank list. */
  replaceBanks(profileId: string, currency: string, rows: readonly Row[]): void {
    this.db.transaction(() => {
      this.statement('delete from banks where profile_id = ? and currency = ?').run(profileId, currency)
      this.writePageTx(profileId, 'banks', rows, null)
    })()
  }

  checkpoint(profileId: string, resource: string, scope = ''): Checkpoint | null {
    const row = this.statement('select * from sync_state where profile_id = ? and resource = ? and scope = ?').get(
      profileId,
      resource,
      scope
    ) as
      | {
          next_page: number
          next_offset: number | null
          page_size: number | null
          total_elements: number | null
          completed_at: string | null
        }
      | undefined
    if (!row) return null
    return {
      resource,
      scope,
      nextPage: row.next_page,
      nextOffset: row.next_offset ?? row.next_page * (row.page_size ?? 0),
      pageSize: row.page_size ?? 0,
      totalElements: row.total_elements ?? 0,
      completed: row.completed_at !== null
    }
  }

  /** Failures are stored with every known key removed from their text (see redactSecrets). */
  recordFailure(
    profileId: string,
    resource: string,
    scope: string,
    error: { code: string; message: string; status?: number | null }
  ): void {
    this.statement(
      'insert into sync_failures (profile_id, resource, scope, code, message, status, occurred_at) values (?, ?, ?, ?, ?, ?, ?)'
    ).run(profileId, resource, scope, error.code, redactSecrets(error.message), error.status ?? null, new Date(this.now()).toISOString())
  }

  failures(profileId: string, limit = 100): SyncFailure[] {
    return (
      this.statement('select * from sync_failures where profile_id = ? order by occurred_at desc, rowid desc limit ?').all(
        profileId,
        limit
      ) as {
        resource: string
        scope: string
        code: string
        message: string
        status: number | null
        occurred_at: string
      }[]
    ).map((r) => ({ resource: r.resource, scope: r.scope, code: r.code, message: r.message, status: r.status, occurredAt: r.occurred_at }))
  }

  count(profileId: string, resource: Resource): number {
    return (this.statement(`select count(*) as n from ${resource} where profile_id = ?`).get(profileId) as { n: number }).n
  }

  /** Which of these payment ids are already cached. */
  knownPaymentIds(profileId: string, ids: readonly string[]): Set<string> {
    const found = new Set<string>()
    const check = this.statement('select 1 from payments where profile_id = ? and id = ?')
    for (const id of ids) if (check.get(profileId, id)) found.add(id)
    return found
  }

  /** Payments still `pending` (the only status checked again), optionally only those last fetched before a time (epoch ms). */
  unfinishedPaymentIds(profileId: string, fetchedBefore = Number.MAX_SAFE_INTEGER): string[] {
    return (
      this.statement('select id from payments where profile_id = ? and is_final = 0 and fetched_at_ms < ? order by seq desc').all(
        profileId,
        fetchedBefore
      ) as { id: string }[]
    ).map((r) => r.id)
  }

  /** How many cached payments are as new as, or newer than, the oldest unfinished one (see unfinishedPaymentIds). */
  paymentsNotOlderThanUnfinished(profileId: string, fetchedBefore = Number.MAX_SAFE_INTEGER): number {
    return (
      this.statement(
        `select count(*) as n from payments where profile_id = @profile and seq >=
           (select min(seq) from payments where profile_id = @profile and is_final = 0 and fetched_at_ms < @before)`
      ).get({ profile: profileId, before: fetchedBefore }) as { n: number }
    ).n
  }

  markSynced(profileId: string, at: string): void {
    this.statement('update profiles set last_synced_at = ? where id = ?').run(at, profileId)
  }

  /**
   * Plan ids to fetch this run: those cached payments, subscriptions or the user refer to that are not
   * cached yet, or were last fetched before `staleBefore` (epoch ms); an id that failed with a 4xx
   * since `staleBefore` waits (a plan that does not exist will not exist five minutes later).
   */
  plansToFetch(profileId: string, staleBefore: number): string[] {
    return (
      this.statement(
        `with wanted(id) as (${REFERENCED_PLAN_IDS})
         select w.id from wanted w
         where not exists (select 1 from plans p where p.profile_id = @profile and p.id = w.id and p.fetched_at_ms >= @stale)
           and not exists (select 1 from sync_failures f where f.profile_id = @profile and f.resource = 'plans' and f.scope = w.id
                             and f.status between 400 and 499 and f.occurred_at >= @staleIso)
         order by 1`
      ).all({ profile: profileId, stale: staleBefore, staleIso: new Date(staleBefore).toISOString() }) as { id: string }[]
    ).map((r) => r.id)
  }

  /** Plan ids that cached payments or subscriptions refer to, plus those the user added. */
  referencedPlanIds(profileId: string): string[] {
    return (this.statement(`${REFERENCED_PLAN_IDS} order by 1`).all({ profile: profileId }) as { id: string }[]).map((r) => r.id)
  }

  track(profileId: string, kind: TrackedKind, value: string): void {
    const at = new Date(this.now()).toISOString()
    if (kind === 'bulk_file')
      this.statement('insert into bulk_files (profile_id, id, added_at) values (?, ?, ?) on conflict do nothing').run(profileId, value, at)
    else
      this.statement('insert into tracked (profile_id, kind, value, added_at) values (?, ?, ?, ?) on conflict do nothing').run(
        profileId,
        kind,
        value,
        at
      )
  }

  /** Stops following an item; what was fetched for it stays cached. Returns whether it was followed. */
  untrack(profileId: string, kind: TrackedKind, value: string): boolean {
    const result =
      kind === 'bulk_file'
        ? this.statement('delete from bulk_files where profile_id = ? and id = ?').run(profileId, value)
        : this.statement('delete from tracked where profile_id = ? and kind = ? and value = ?').run(profileId, kind, value)
    return result.changes > 0
  }

  tracked(profileId: string, kind: TrackedKind): string[] {
    return this.trackedItems(profileId, kind).map((item) => item.value)
  }

  /** Followed items with when each last synced and its last error. */
  trackedItems(profileId: string, kind: TrackedKind): TrackedItem[] {
    const rows =
      kind === 'bulk_file'
        ? this.statement('select id as value, last_synced_at, last_error from bulk_files where profile_id = ? order by added_at, id').all(
            profileId
          )
        : this.statement(
            'select value, last_synced_at, last_error from tracked where profile_id = ? and kind = ? order by added_at, value'
          ).all(profileId, kind)
    return (rows as { value: string; last_synced_at: string | null; last_error: string | null }[]).map((r) => ({
      kind,
      value: r.value,
      lastSyncedAt: r.last_synced_at,
      lastError: r.last_error,
      result: this.followedResult(profileId, kind, r.value)
    }))
  }

  /** A followed item's state in the cache, in a few words. */
  private followedResult(profileId: string, kind: TrackedKind, value: string): string | null {
    if (kind === 'bulk_file') {
      const r = this.statement(
        "select count(*) as n, sum(is_final) as done, sum(status = 'failed') as failed from transfers where profile_id = ? and bulk_file_id = ?"
      ).get(profileId, value) as {
        n: number
        done: number | null
        failed: number | null
      }
      return r.n === 0
        ? null
        : `${r.n.toLocaleString('en-US')} transfers, ${(r.done ?? 0).toLocaleString('en-US')} final, ${(r.failed ?? 0).toLocaleString('en-US')} failed`
    }
    if (kind === 'transfer') {
      const r = this.statement('select status_raw, amount_raw, currency from transfers where profile_id = ? and reference = ?').get(
        profileId,
        value
      ) as { status_raw: string; amount_raw: string; currency: string } | undefined
      return r ? `${r.status_raw} · ${r.amount_raw} ${r.currency}` : null
    }
    const r = this.statement('select status_raw, title from plans where profile_id = ? and id = ?').get(profileId, value) as
      { status_raw: string; title: string } | undefined
    return r ? `${r.title} · ${r.status_raw}` : null
  }

  /** Everything followed, bulk files first, then transfers, then plans. */
  followedItems(profileId: string): TrackedItem[] {
    return FOLLOW_KINDS.flatMap((kind) => this.trackedItems(profileId, kind))
  }

  /** Records how a followed item's sync went: success moves "last synced" on and clears the error; a failure keeps "last synced" as it was. */
  trackedOutcome(profileId: string, kind: TrackedKind, value: string, error: string | null): void {
    const at = new Date(this.now()).toISOString()
    const table = kind === 'bulk_file' ? 'bulk_files' : 'tracked'
    const where =
      kind === 'bulk_file' ? 'profile_id = @profile and id = @value' : 'profile_id = @profile and kind = @kind and value = @value'
    const params = {
      profile: profileId,
      value,
      at,
      error: error === null ? null : redactSecrets(error),
      ...(kind === 'bulk_file' ? {} : { kind })
    }
    if (error === null) this.statement(`update ${table} set last_synced_at = @at, last_error = null where ${where}`).run(params)
    else this.statement(`update ${table} set last_error = @error where ${where}`).run(params)
  }

  /** Records a followed bulk file's transfer count after its transfers were all fetched. */
  bulkFileSynced(profileId: string, id: string, totalTransfers: number): void {
    this.statement('update bulk_files set total_transfers = ? where profile_id = ? and id = ?').run(totalTransfers, profileId, id)
  }

  /** A bulk file needs fetching until one full walk finished and every transfer in it is final. */
  bulkFileSettled(profileId: string, id: string): boolean {
    const row = this.statement(
      `select b.total_transfers is not null and b.last_synced_at is not null
         and not exists (select 1 from transfers t where t.profile_id = b.profile_id and t.bulk_file_id = b.id and t.is_final = 0) as settled
       from bulk_files b where b.profile_id = ? and b.id = ?`
    ).get(profileId, id) as { settled: number } | undefined
    return row?.settled === 1
  }

  /** A transfer already cached with a final status: following it costs no request. */
  transferFinal(profileId: string, reference: string): boolean {
    return (
      this.statement('select 1 from transfers where profile_id = ? and reference = ? and is_final = 1').get(profileId, reference) !==
      undefined
    )
  }

  /**
   * Virtual accounts still worth a request: not yet seen after their expiry time (an expired account
   * no longer changes). Expiry is the API's expiresAt when it sends one, else creation + expiresIn.
   */
  virtualAccountsToFetch(profileId: string): string[] {
    return (
      this.statement(
        `select id from virtual_accounts where profile_id = ?
           and not (lifecycle is not null and lower(lifecycle) = 'expired')
           and (expires_at is null or unixepoch(expires_at, 'subsec') is null or fetched_at_ms <= unixepoch(expires_at, 'subsec') * 1000)
         order by id`
      ).all(profileId) as { id: string }[]
    ).map((r) => r.id)
  }

  /** When a resource was last written for a profile (epoch ms), e.g. to refresh the bank list daily. */
  lastFetched(profileId: string, resource: Resource): number | null {
    return (this.statement(`select max(fetched_at_ms) as at from ${resource} where profile_id = ?`).get(profileId) as { at: number | null })
      .at
  }
}

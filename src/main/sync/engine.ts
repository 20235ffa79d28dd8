// The sync engine: pulls each resource into the cache page by page, resumable after a kill, cancellable, failures recorded per resource.
import type { Page } from '../../shared/api/schemas'
import { SYNC_RESOURCES, type ResourceOutcome, type SyncProgress, type SyncResource, type SyncSummary } from '../../shared/sync'
import { isLastPage, type ApiClient } from '../api/client'
import { ApiError } from '../api/errors'
import { bankRow, paymentRow, planRow, subscriptionRow, transferRow, virtualAccountRow, type Row } from '../cache/records'
import type { CacheStore, Resource } from '../cache/store'
import { REQUESTED_PAGE_SIZE } from '../../shared/api/assumptions'
import { clip } from '../../shared/text'
import { redactSecrets } from '../redact'

export interface SyncOptions {
  client: ApiClient
  store: CacheStore
  profileId: string
  resources?: readonly SyncResource[]
  signal?: AbortSignal
  onProgress?: (progress: SyncProgress) => void
  now?: () => number
}

class Cancelled extends Error {}

function isCancel(error: unknown, signal: AbortSignal | undefined): boolean {
  return error instanceof Cancelled || (error instanceof ApiError && error.code === 'cancelled') || signal?.aborted === true
}

/** Tracks one resource's progress and reports it, at most every 200 ms plus the last report. */
class Meter {
  private readonly started: number
  private lastReport = 0
  done = 0
  total: number | null = null

  constructor(
    private readonly resource: SyncResource,
    private readonly report: ((p: SyncProgress) => void) | undefined,
    private readonly now: () => number
  ) {
    this.started = now()
  }

  add(count: number, phase: string, force = false): void {
    this.done += count
    const t = this.now()
    if (!this.report || (!force && t - this.lastReport < 200)) return
    this.lastReport = t
    const seconds = Math.max((t - this.started) / 1000, 0.001)
    const rate = this.done / seconds
    const left = this.total === null ? null : Math.max(0, this.total - this.done)
    this.report({ resource: this.resource, done: this.done, total: this.total, rate, etaSeconds: left === null || rate === 0 ? null : left / rate, phase })
  }
}

/** Pages requested ahead of the one being written in a full pass: the server works on them while SQLite writes. */
const FULL_PASS_AHEAD = 2
/** Walks that usually stop after a page or two (new payments, re-checks) look only one page ahead. */
const SHORT_WALK_AHEAD = 1

/**
 * Walks a list from `startPage`, keeping up to `ahead` further pages in flight while the current
 * one is written, and stops after totalPages or an empty page (or when `write` returns true).
 * `write` runs synchronously, one page at a time, in page order.
 */
async function walk<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  startPage: number,
  write: (page: Page<T>, isLast: boolean) => boolean | void,
  signal: AbortSignal | undefined,
  ahead: number = SHORT_WALK_AHEAD
): Promise<void> {
  const inFlight: Promise<Page<T>>[] = [fetchPage(startPage)]
  let requested = startPage
  try {
    for (;;) {
      const page = await (inFlight.shift() as Promise<Page<T>>)
      if (signal?.aborted) throw new Cancelled()
      const isLast = isLastPage(page)
      while (!isLast && inFlight.length < ahead && requested + 1 < page.totalPages) {
        requested++
        const next = fetchPage(requested)
        next.catch(() => undefined)
        inFlight.push(next)
      }
      if (write(page, isLast) === true || isLast) return
    }
  } finally {
    // Pages fetched ahead but not needed are simply dropped; their failures do not matter.
    await Promise.allSettled(inFlight)
  }
}

export async function runSync(options: SyncOptions): Promise<SyncSummary> {
  const { client, store, profileId, signal } = options
  const now = options.now ?? Date.now
  const started = now()
  const wanted = new Set(options.resources ?? SYNC_RESOURCES)
  const summary: SyncSummary = { profileId, cancelled: false, durationMs: 0, resources: {} }
  const pageOpts = { size: REQUESTED_PAGE_SIZE, ...(signal ? { signal } : {}) }

  /** Walks a whole list with a resumable checkpoint; a completed walk starts again from page 0 next time. */
  async function fullWalk<T>(resource: Resource, scope: string, meter: Meter, fetchPage: (page: number) => Promise<Page<T>>, toRow: (item: T) => Row): Promise<boolean> {
    const checkpointName = `${resource}:full`
    const saved = store.checkpoint(profileId, checkpointName, scope)
    const startPage = saved && !saved.completed ? saved.nextPage : 0
    let completedNow = false
    await walk(
      fetchPage,
      startPage,
      (page, isLast) => {
        meter.total = page.totalElements
        store.writePage(profileId, resource, page.content.map(toRow), {
          resource: checkpointName,
          scope,
          nextPage: page.pageNumber + 1,
          pageSize: page.pageSize,
          totalElements: page.totalElements,
          completed: isLast
        })
        completedNow = isLast
        meter.add(page.content.length, scope || 'full')
      },
      signal,
      FULL_PASS_AHEAD
    )
    return completedNow
  }

  async function syncPayments(meter: Meter): Promise<void> {
    const saved = store.checkpoint(profileId, 'payments:full', '')
    const runStart = now()
    if (!saved || !saved.completed) {
      // First or interrupted full pass; resumes at the saved page. New payments arrive at the front,
      // so pages only shift later: a resumed walk may see a payment twice (upserted) but misses none.
      await fullWalk('payments', '', meter, (page) => client.listPayments({}, { ...pageOpts, page }), paymentRow)
    }
    // New payments since the last pass: newest first, until a page holds nothing new.
    await walk(
      (page) => client.listPayments({}, { ...pageOpts, page }),
      0,
      (page) => {
        const known = store.knownPaymentIds(profileId, page.content.map((p) => p.id))
        const fresh = page.content.filter((p) => !known.has(p.id))
        if (fresh.length > 0) store.writePage(profileId, 'payments', fresh.map(paymentRow))
        meter.total = page.totalElements
        meter.add(fresh.length, 'new')
        return fresh.length === 0
      },
      signal
    )
    // Payments not yet final (pending and the like) that this run did not just fetch are checked again,
    // by whichever costs fewer requests: one lookup each, or re-reading the newest-first pages down
    // to the oldest of them.
    const unfinished = store.unfinishedPaymentIds(profileId, runStart)
    if (unfinished.length === 0) return
    const pagesToOldest = Math.ceil(store.paymentsNotOlderThanUnfinished(profileId, runStart) / REQUESTED_PAGE_SIZE) + 1
    if (unfinished.length <= pagesToOldest) {
      for (const id of unfinished) {
        const result = await client.listPayments({ paymentId: id }, { ...pageOpts, size: 1, page: 0 })
        const payment = result.content.find((p) => p.id === id)
        if (payment) store.writePage(profileId, 'payments', [paymentRow(payment)])
        meter.add(payment ? 1 : 0, 'recheck')
      }
      return
    }
    const waiting = new Set(unfinished)
    await walk(
      (page) => client.listPayments({}, { ...pageOpts, page }),
      0,
      (page) => {
        store.writePage(profileId, 'payments', page.content.map(paymentRow))
        for (const p of page.content) waiting.delete(p.id)
        meter.add(page.content.length, 'recheck')
        return waiting.size === 0
      },
      signal
    )
  }

  async function syncTransfers(meter: Meter): Promise<void> {
    for (const bulkFileId of store.tracked(profileId, 'bulk_file')) {
      const completed = await fullWalk('transfers', bulkFileId, meter, (page) => client.listBulkTransfers(bulkFileId, { ...pageOpts, page }), (t) => transferRow(t, bulkFileId))
      if (completed) store.bulkFileSynced(profileId, bulkFileId, store.checkpoint(profileId, 'transfers:full', bulkFileId)?.totalElements ?? 0)
    }
    for (const reference of store.tracked(profileId, 'transfer')) {
      const transfer = await client.getTransfer(reference, signal)
      store.writePage(profileId, 'transfers', [transferRow(transfer, null)])
      meter.add(1, 'references')
    }
  }

  /** One request per id; an id the provider does not know is recorded and skipped, the rest go on. */
  async function eachId<T>(resource: SyncResource, ids: readonly string[], meter: Meter, fetch: (id: string) => Promise<T>, write: (item: T) => void): Promise<void> {
    meter.total = ids.length
    for (const id of ids) {
      try {
        write(await fetch(id))
        meter.add(1, 'by id')
      } catch (error) {
        if (isCancel(error, signal) || !(error instanceof ApiError) || error.status !== 404) throw error
        store.recordFailure(profileId, resource, id, { code: error.code, message: error.message, status: error.status })
        meter.add(0, 'by id')
      }
    }
  }

  const steps: Record<SyncResource, (meter: Meter) => Promise<void>> = {
    payments: syncPayments,
    subscriptions: async (meter) => {
      await fullWalk('subscriptions', '', meter, (page) => client.listSubscriptions({}, { ...pageOpts, page }), subscriptionRow)
    },
    plans: (meter) =>
      eachId('plans', store.referencedPlanIds(profileId), meter, (id) => client.getPlan(id, signal), (plan) => store.writePage(profileId, 'plans', [planRow(plan)])),
    banks: async (meter) => {
      meter.total = null
      for (const currency of ['NGN', 'GHS'] as const) {
        const banks = await client.listBanks(currency, signal)
        store.replaceBanks(profileId, currency, banks.map((b) => bankRow(b, currency)))
        meter.add(banks.length, currency)
      }
    },
    transfers: syncTransfers,
    virtual_accounts: (meter) =>
      eachId('virtual_accounts', store.virtualAccountIds(profileId), meter, (id) => client.getVirtualAccount(id, signal), (account) => store.writePage(profileId, 'virtual_accounts', [virtualAccountRow(account)]))
  }

  for (const resource of SYNC_RESOURCES) {
    if (!wanted.has(resource)) continue
    if (signal?.aborted) {
      summary.cancelled = true
      break
    }
    const meter = new Meter(resource, options.onProgress, now)
    const outcome: ResourceOutcome = { ok: true, written: 0 }
    try {
      await steps[resource](meter)
    } catch (error) {
      if (isCancel(error, signal)) {
        summary.cancelled = true
        outcome.ok = false
        outcome.error = { code: 'cancelled', message: 'Sync was cancelled; what was fetched so far is saved.' }
      } else {
        const code = error instanceof ApiError ? error.code : 'sync_failed'
        // Keys are removed from the text (a server may echo one back), and it is kept short enough to show.
        const message = clip(redactSecrets(error instanceof Error ? error.message : String(error)))
        outcome.ok = false
        outcome.error = { code: clip(code, 80), message }
        store.recordFailure(profileId, resource, '', { code, message, status: error instanceof ApiError ? error.status : null })
      }
    }
    outcome.written = meter.done
    meter.add(0, 'done', true)
    summary.resources[resource] = outcome
    if (summary.cancelled) break
  }
  if (!summary.cancelled && Object.values(summary.resources).every((r) => r.ok)) store.markSynced(profileId, new Date(now()).toISOString())
  summary.durationMs = now() - started
  return summary
}

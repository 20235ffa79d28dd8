// The sync engine: pulls each resource into the cache at a cost that follows what changed, resumable, cancellable, failures kept per resource and per item.
import type { Payment, Transfer } from '../../shared/api/schemas'
import { normalizePaymentStatus } from '../../shared/api/assumptions'
import { SYNC_RESOURCES, type ResourceOutcome, type SyncProgress, type SyncResource, type SyncSummary } from '../../shared/sync'
import type { ApiClient, PaymentFilter } from '../api/client'
import { codeIs } from '../../shared/error-codes'
import { ApiError } from '../api/errors'
import { bankRow, paymentRowIn, planRow, subscriptionRowIn, transferRow, virtualAccountRow, type Row } from '../cache/api-rows'
import type { CacheStore, Resource, TrackedKind } from '../cache/store'
import { REQUESTED_PAGE_SIZE } from '../../shared/api/assumptions'
import { clip } from '../../shared/text'
import { redactSecrets } from '../redact'
import { Cancelled, pagingProblem, walkChecked, type ListSpec } from './paging'

export interface SyncOptions {
  client: ApiClient
  store: CacheStore
  profileId: string
  resources?: readonly SyncResource[]
  signal?: AbortSignal
  onProgress?: (progress: SyncProgress) => void
  now?: () => number
  /** The profile's business time zone: timestamps sent without an offset are read in it. Default UTC. */
  timeZone?: string
}

/** Plans and the bank lists change rarely: fetched again when older than this. */
export const REFRESH_AFTER_MS = 24 * 60 * 60 * 1000
/** Pages requested ahead of the one being written in a full pass: the server works on them while SQLite writes. */
const FULL_PASS_AHEAD = 2
/** Failed items listed by name in a resource's outcome. */
const LISTED_FAILURES = 20

function isCancel(error: unknown, signal: AbortSignal | undefined): boolean {
  return error instanceof Cancelled || (error instanceof ApiError && codeIs(error, 'cancelled')) || signal?.aborted === true
}

/** Errors that end the whole resource rather than one item: cancel, a refused key, a server that does not page as assumed. */
function failsWholeResource(error: unknown, signal: AbortSignal | undefined): boolean {
  return isCancel(error, signal) || !(error instanceof ApiError) || error.kind === 'auth' || codeIs(error, 'paging_unreliable')
}

const messageOf = (error: unknown): string => clip(redactSecrets(error instanceof Error ? error.message : String(error)))

/** Tracks one resource's progress, requests and item failures, and reports progress at most every 200 ms plus the last report. */
class Meter {
  private readonly started: number
  private lastReport = 0
  done = 0
  total: number | null = null
  requests = 0
  skipped = 0
  readonly failedItems: { id: string; code: string; message: string }[] = []
  failedCount = 0

  constructor(
    private readonly resource: SyncResource,
    private readonly report: ((p: SyncProgress) => void) | undefined,
    private readonly now: () => number
  ) {
    this.started = now()
  }

  /** Counts one request and sends it. */
  request<T>(send: () => Promise<T>): Promise<T> {
    this.requests++
    return send()
  }

  itemFailed(id: string, error: unknown): void {
    this.failedCount++
    const code = error instanceof ApiError ? error.code : 'sync_failed'
    if (this.failedItems.length < LISTED_FAILURES)
      this.failedItems.push({ id: clip(id, 200), code: clip(code, 80), message: messageOf(error) })
  }

  add(count: number, phase: string, force = false): void {
    this.done += count
    const t = this.now()
    if (!this.report || (!force && t - this.lastReport < 200)) return
    this.lastReport = t
    const seconds = Math.max((t - this.started) / 1000, 0.001)
    const rate = this.done / seconds
    const left = this.total === null ? null : Math.max(0, this.total - this.done)
    this.report({
      resource: this.resource,
      done: this.done,
      total: this.total,
      rate,
      etaSeconds: left === null || rate === 0 ? null : left / rate,
      phase
    })
  }
}

const ITEM_LABEL: Record<TrackedKind | 'plan-ref' | 'account', string> = {
  bulk_file: 'Followed bulk file',
  transfer: 'Followed transfer',
  plan: 'Plan',
  'plan-ref': 'Plan',
  account: 'Virtual account'
}

export async function runSync(options: SyncOptions): Promise<SyncSummary> {
  const { client, store, profileId, signal } = options
  const now = options.now ?? Date.now
  const started = now()
  const wanted = new Set(options.resources ?? SYNC_RESOURCES)
  const summary: SyncSummary = { profileId, cancelled: false, durationMs: 0, resources: {} }
  const pageOpts = { size: REQUESTED_PAGE_SIZE, ...(signal ? { signal } : {}) }
  const zone = options.timeZone ?? 'UTC'
  const toPaymentRow = paymentRowIn(zone)

  /** GET /payments as sync walks it; also what a paging problem with it names. */
  const PAYMENTS = { endpoint: 'GET /payments', assumption: 'payments-query' }
  const paymentList = (meter: Meter, filter: PaymentFilter = {}): ListSpec<Payment> => ({
    ...PAYMENTS,
    fetchPage: (page) => meter.request(() => client.listPayments(filter, { ...pageOpts, page })),
    key: (p) => p.id
  })

  /**
   * Walks a whole list with a checkpoint after every page, resuming at the saved record offset: the
   * page to start from is worked out from the server's page size, so a size that changed between
   * runs re-reads a few rows rather than skipping any. A completed walk starts from the top next time.
   */
  async function fullWalk<T>(
    resource: Resource,
    scope: string,
    meter: Meter,
    list: ListSpec<T>,
    toRow: (item: T) => Row
  ): Promise<boolean> {
    const checkpointName = `${resource}:full`
    const saved = store.checkpoint(profileId, checkpointName, scope)
    const resumeAt = saved && !saved.completed ? saved.nextOffset : 0
    let size = saved && !saved.completed && saved.pageSize > 0 ? saved.pageSize : REQUESTED_PAGE_SIZE
    for (let attempt = 0; ; attempt++) {
      const startPage = Math.floor(resumeAt / size)
      let realignTo: number | null = null
      let completed = false
      await walkChecked(
        list,
        startPage,
        (page, isLast) => {
          if (
            page.pageNumber === startPage &&
            resumeAt > 0 &&
            page.pageSize > 0 &&
            page.pageSize !== size &&
            Math.floor(resumeAt / page.pageSize) < startPage
          ) {
            realignTo = page.pageSize
            return true
          }
          meter.total = page.totalElements
          store.writePage(profileId, resource, page.content.map(toRow), {
            resource: checkpointName,
            scope,
            nextPage: page.pageNumber + 1,
            nextOffset: page.pageNumber * page.pageSize + page.content.length,
            pageSize: page.pageSize,
            totalElements: page.totalElements,
            completed: isLast
          })
          completed = isLast
          meter.add(page.content.length, scope || 'full')
          return undefined
        },
        signal,
        FULL_PASS_AHEAD
      )
      if (realignTo === null || attempt >= 2) return completed
      size = realignTo
    }
  }

  async function syncPayments(meter: Meter): Promise<void> {
    const saved = store.checkpoint(profileId, 'payments:full', '')
    const runStart = now()
    const fullPass = !saved || !saved.completed
    if (fullPass) {
      // First or interrupted full pass. New payments arrive at the front, so pages only shift later:
      // a resumed walk may see a payment twice (upserted) but misses none.
      await fullWalk('payments', '', meter, paymentList(meter), toPaymentRow)
    }

    // New payments: newest first, until a page reaches payments cached before this run, or the server's
    // total says every new one has been seen. Whole pages are written, which refreshes what they hold.
    const cachedBefore = store.count(profileId, 'payments')
    // An incremental run counts what changed, not the whole list: no total to count towards.
    if (!fullPass) meter.total = null
    const writtenNow = new Set<string>()
    let fresh = 0
    await walkChecked(
      paymentList(meter),
      0,
      (page) => {
        const ids = page.content.map((p) => p.id)
        const known = store.knownPaymentIds(profileId, ids)
        // A page that shifted under us repeats what this walk just wrote: only payments cached before it mark the end.
        const reachedCached = ids.some((id) => known.has(id) && !writtenNow.has(id))
        const added = ids.filter((id) => !known.has(id)).length
        store.writePage(profileId, 'payments', page.content.map(toPaymentRow))
        for (const id of ids) writtenNow.add(id)
        fresh += added
        meter.add(added, 'new')
        return reachedCached || fresh >= page.totalElements - cachedBefore
      },
      signal
    )

    // Pending payments this run did not just read are checked again, the cheapest bounded way:
    // one lookup each, or re-reading the newest pages down to the oldest of them; when there are many,
    // the server's pending list first, and then only those that left it. Never a walk through all history.
    const unfinished = store.unfinishedPaymentIds(profileId, runStart)
    if (unfinished.length === 0) return
    const size = store.checkpoint(profileId, 'payments:full', '')?.pageSize || REQUESTED_PAGE_SIZE
    const viaPendingList = Math.ceil(unfinished.length / size) + 1
    const pagesToOldest = pagesToOldestUnfinished(size)
    if (Math.min(unfinished.length, pagesToOldest) <= viaPendingList) {
      await recheck(meter, unfinished, pagesToOldest)
      return
    }
    const pendingList = paymentList(meter, { status: 'pending' })
    await walkChecked(
      pendingList,
      0,
      (page) => {
        const other = page.content.find((p) => normalizePaymentStatus(p.status) !== 'pending')
        if (other)
          throw pagingProblem(pendingList, `the list filtered by status=pending holds a payment that is "${clip(other.status, 40)}"`)
        store.writePage(profileId, 'payments', page.content.map(toPaymentRow))
        meter.add(page.content.length, 'recheck')
      },
      signal,
      FULL_PASS_AHEAD
    )
    // Whatever left the pending list has settled (or changed some other way).
    const left = store.unfinishedPaymentIds(profileId, runStart)
    if (left.length > 0) await recheck(meter, left, pagesToOldestUnfinished(size))

    /** Pages of the newest-first list down to the oldest pending payment not read in this run. */
    function pagesToOldestUnfinished(pageSize: number): number {
      return Math.ceil(store.paymentsNotOlderThanUnfinished(profileId, runStart) / pageSize) + 1
    }

    /** Reads these payments again: one lookup each, or the `pagesToOldest` newest pages, whichever is fewer requests. */
    async function recheck(meter: Meter, ids: readonly string[], pagesToOldest: number): Promise<void> {
      if (ids.length <= pagesToOldest) {
        await lookUpEach(meter, ids)
        return
      }
      const waiting = new Set(ids)
      await walkChecked(
        paymentList(meter),
        0,
        (page) => {
          store.writePage(profileId, 'payments', page.content.map(toPaymentRow))
          for (const p of page.content) waiting.delete(p.id)
          meter.add(page.content.length, 'recheck')
          return waiting.size === 0
        },
        signal
      )
    }
  }

  /** One lookup by id each; a server that answers with other payments does not filter by the assumed parameter name. */
  async function lookUpEach(meter: Meter, ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      if (signal?.aborted) throw new Cancelled()
      const result = await meter.request(() => client.listPayments({ paymentId: id }, { ...pageOpts, size: 1, page: 0 }))
      const payment = result.content.find((p) => p.id === id)
      if (!payment && result.content.length > 0)
        throw pagingProblem(PAYMENTS, `a lookup of one payment by id answered with ${result.totalElements} other payments`)
      if (payment) store.writePage(profileId, 'payments', [toPaymentRow(payment)])
      meter.add(payment ? 1 : 0, 'recheck')
    }
  }

  /**
   * Runs one item on its own: a failure is recorded with the item named, and the others go on.
   * Cancelling, a refused key or a server that does not page as assumed still end the resource.
   */
  async function item(
    meter: Meter,
    resource: SyncResource,
    kind: keyof typeof ITEM_LABEL,
    id: string,
    run: () => Promise<void>
  ): Promise<void> {
    const tracked: TrackedKind | null = kind === 'bulk_file' || kind === 'transfer' || kind === 'plan' ? kind : null
    try {
      await run()
      if (tracked) store.trackedOutcome(profileId, tracked, id, null)
    } catch (error) {
      if (failsWholeResource(error, signal)) throw error
      const named = new ApiError({
        kind: error instanceof ApiError ? error.kind : 'unexpected',
        code: error instanceof ApiError ? error.code : 'sync_failed',
        endpoint: `${ITEM_LABEL[kind]} "${clip(id, 120)}"`,
        message: messageOf(error),
        ...(error instanceof ApiError && error.status !== null ? { status: error.status } : {})
      })
      meter.itemFailed(id, named)
      store.recordFailure(profileId, resource, id, { code: named.code, message: named.message, status: named.status })
      if (tracked) store.trackedOutcome(profileId, tracked, id, named.message)
    }
  }

  async function syncTransfers(meter: Meter): Promise<void> {
    for (const bulkFileId of store.tracked(profileId, 'bulk_file')) {
      if (store.bulkFileSettled(profileId, bulkFileId)) {
        meter.skipped++
        continue
      }
      await item(meter, 'transfers', 'bulk_file', bulkFileId, async () => {
        const list: ListSpec<Transfer> = {
          endpoint: 'GET /transfers/bulk/{id}/transfers',
          assumption: 'bulk-transfers-query',
          fetchPage: (page) => meter.request(() => client.listBulkTransfers(bulkFileId, { ...pageOpts, page })),
          key: (t) => t.reference
        }
        const completed = await fullWalk('transfers', bulkFileId, meter, list, (t) => transferRow(t, bulkFileId))
        if (!completed)
          throw new ApiError({
            kind: 'unexpected',
            code: 'incomplete',
            endpoint: list.endpoint,
            message: 'the list ended before its last page'
          })
        store.bulkFileSynced(profileId, bulkFileId, store.checkpoint(profileId, 'transfers:full', bulkFileId)?.totalElements ?? 0)
      })
    }
    for (const reference of store.tracked(profileId, 'transfer')) {
      if (store.transferFinal(profileId, reference)) {
        meter.skipped++
        continue
      }
      await item(meter, 'transfers', 'transfer', reference, async () => {
        const transfer = await meter.request(() => client.getTransfer(reference, signal))
        // Read by reference alone: the bulk file it was listed under, if any, is kept (see the store's upsert).
        store.writePage(profileId, 'transfers', [transferRow(transfer, null)])
        meter.add(1, 'references')
      })
    }
  }

  async function syncPlans(meter: Meter): Promise<void> {
    const ids = store.plansToFetch(profileId, now() - REFRESH_AFTER_MS)
    meter.skipped = Math.max(0, store.referencedPlanIds(profileId).length - ids.length)
    meter.total = ids.length
    const followed = new Set(store.tracked(profileId, 'plan'))
    for (const id of ids) {
      await item(meter, 'plans', followed.has(id) ? 'plan' : 'plan-ref', id, async () => {
        const plan = await meter.request(() => client.getPlan(id, signal))
        store.writePage(profileId, 'plans', [planRow(plan)])
        meter.add(1, 'by id')
      })
    }
  }

  async function syncVirtualAccounts(meter: Meter): Promise<void> {
    const ids = store.virtualAccountsToFetch(profileId)
    meter.skipped = store.count(profileId, 'virtual_accounts') - ids.length
    meter.total = ids.length
    for (const id of ids) {
      await item(meter, 'virtual_accounts', 'account', id, async () => {
        const account = await meter.request(() => client.getVirtualAccount(id, signal))
        store.writePage(profileId, 'virtual_accounts', [virtualAccountRow(account)])
        meter.add(1, 'by id')
      })
    }
  }

  async function syncBanks(meter: Meter): Promise<void> {
    const last = store.lastFetched(profileId, 'banks')
    if (last !== null && now() - last < REFRESH_AFTER_MS) {
      meter.skipped = store.count(profileId, 'banks')
      return
    }
    for (const currency of ['NGN', 'GHS'] as const) {
      const banks = await meter.request(() => client.listBanks(currency, signal))
      store.replaceBanks(
        profileId,
        currency,
        banks.map((b) => bankRow(b, currency))
      )
      meter.add(banks.length, currency)
    }
  }

  const steps: Record<SyncResource, (meter: Meter) => Promise<void>> = {
    payments: syncPayments,
    subscriptions: async (meter) => {
      await fullWalk(
        'subscriptions',
        '',
        meter,
        {
          endpoint: 'GET /subscriptions',
          assumption: 'subscriptions-query',
          fetchPage: (page) => meter.request(() => client.listSubscriptions({}, { ...pageOpts, page })),
          key: (s) => s.id
        },
        subscriptionRowIn(zone)
      )
    },
    plans: syncPlans,
    banks: syncBanks,
    transfers: syncTransfers,
    virtual_accounts: syncVirtualAccounts
  }

  let resourceFailed = false
  for (const resource of SYNC_RESOURCES) {
    if (!wanted.has(resource)) continue
    if (signal?.aborted) {
      summary.cancelled = true
      break
    }
    const meter = new Meter(resource, options.onProgress, now)
    const outcome: ResourceOutcome = { ok: true, written: 0, requests: 0, skipped: 0 }
    try {
      await steps[resource](meter)
    } catch (error) {
      outcome.ok = false
      if (isCancel(error, signal)) {
        summary.cancelled = true
        outcome.error = { code: 'cancelled', message: 'Sync was cancelled; what was fetched so far is saved.' }
      } else {
        resourceFailed = true
        const code = error instanceof ApiError ? error.code : 'sync_failed'
        // Keys are removed from the text (a server may echo one back), and it is kept short enough to show.
        const message = messageOf(error)
        outcome.error = { code: clip(code, 80), message }
        store.recordFailure(profileId, resource, '', { code, message, status: error instanceof ApiError ? error.status : null })
        // A refused key is refused for every resource: the run stops here.
        if (error instanceof ApiError && error.kind === 'auth') summary.keyRefused = { resource, code: outcome.error.code, message }
      }
    }
    if (meter.failedCount > 0) {
      outcome.ok = false
      outcome.failedItems = meter.failedItems
      outcome.error ??= {
        code: 'items_failed',
        message: clip(
          `${meter.failedCount} item${meter.failedCount === 1 ? '' : 's'} could not be synced; the rest were. ${meter.failedItems
            .slice(0, 3)
            .map((f) => f.message)
            .join(' · ')}`
        )
      }
    }
    outcome.written = meter.done
    outcome.requests = meter.requests
    outcome.skipped = Math.max(0, meter.skipped)
    meter.add(0, 'done', true)
    summary.resources[resource] = outcome
    if (summary.cancelled || summary.keyRefused) break
  }
  // "Last synced" moves on when every resource went through; an item that failed on its own is
  // shown with its own last-synced time and error instead of holding the whole profile back.
  if (!summary.cancelled && !resourceFailed) store.markSynced(profileId, new Date(now()).toISOString())
  summary.durationMs = now() - started
  return summary
}

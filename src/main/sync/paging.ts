// Walking a paged list without trusting the server: every page must be the one asked for, and a resumed walk starts from a record offset.
import type { Page } from '../../shared/api/schemas'
import { ASSUMPTIONS } from '../../shared/api/assumptions'
import { isLastPage } from '../api/client'
import { ApiError } from '../api/errors'

export class Cancelled extends Error {}

/** One list endpoint as sync walks it. */
export interface ListSpec<T> {
  /** "GET /payments" style, for messages. */
  endpoint: string
  /** The assumption naming the query parameters this list is paged with (see assumptions.ts). */
  assumption: string
  fetchPage(page: number): Promise<Page<T>>
  /** What identifies a record, to notice a page that repeats another. */
  key(item: T): string
}

/** A server that does not page the way the client assumes: sync stops rather than take a partial list as complete. */
export function pagingProblem(list: { endpoint: string; assumption: string }, what: string): ApiError {
  const assumption = ASSUMPTIONS.find((a) => a.id === list.assumption)
  return new ApiError({
    kind: 'unexpected',
    code: 'paging_unreliable',
    endpoint: list.endpoint,
    message:
      `paging cannot be trusted: ${what}. Ledgerline pages this list with the query parameters of assumption "${list.assumption}"` +
      `${assumption ? ` (${assumption.summary})` : ''}; this server seems to ignore them or use other names. ` +
      'Sync stopped here: what it fetched is saved, and the list is not marked complete.'
  })
}

/**
 * Walks a list from `startPage`, keeping up to `ahead` further pages in flight while the current one
 * is written (0: one request at a time, nothing fetched that may not be needed), and stops after the
 * last page or when `write` returns true. `write` runs synchronously, one page at a time, in order.
 *
 * Each page is checked before it is written: its pageNumber must be the page asked for, its pageSize
 * must not change within the walk, and it must not repeat the records of the page before (or of the
 * first page): a server that ignores the page parameter fails on the second page, within seconds.
 */
export async function walkChecked<T>(
  list: ListSpec<T>,
  startPage: number,
  write: (page: Page<T>, isLast: boolean) => boolean | void,
  signal: AbortSignal | undefined,
  ahead = 0
): Promise<void> {
  const inFlight: { asked: number; page: Promise<Page<T>> }[] = []
  let nextToAsk = startPage
  const ask = (): void => {
    const page = list.fetchPage(nextToAsk)
    page.catch(() => undefined)
    inFlight.push({ asked: nextToAsk, page })
    nextToAsk++
  }
  let firstKeys: Set<string> | null = null
  let previousKeys = new Set<string>()
  let pageSize: number | null = null
  ask()
  try {
    for (;;) {
      const { asked, page: pending } = inFlight.shift() as { asked: number; page: Promise<Page<T>> }
      const page = await pending
      if (signal?.aborted) throw new Cancelled()
      if (page.pageNumber !== asked) throw pagingProblem(list, `page ${asked} was asked for and the answer is page ${page.pageNumber}`)
      if (pageSize !== null && page.pageSize !== pageSize && page.content.length > 0) {
        throw pagingProblem(list, `the page size changed from ${pageSize} to ${page.pageSize} within one walk`)
      }
      pageSize ??= page.pageSize
      const keys = page.content.map(list.key)
      if (firstKeys !== null && keys.length > 0 && keys.every((k) => previousKeys.has(k) || (firstKeys as Set<string>).has(k))) {
        throw pagingProblem(list, `page ${asked} holds the same records as an earlier page`)
      }
      previousKeys = new Set(keys)
      firstKeys ??= previousKeys
      const isLast = isLastPage(page)
      if (!isLast) while (inFlight.length < ahead && nextToAsk < page.totalPages) ask()
      if (write(page, isLast) === true || isLast) return
      if (inFlight.length === 0) ask()
    }
  } finally {
    // Pages fetched ahead but not needed are dropped; their failures do not matter.
    await Promise.allSettled(inFlight.map((f) => f.page))
  }
}

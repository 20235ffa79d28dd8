// Records store: the search the accountant is building (text, filters, sort, page) and its results, run in the host's SQLite.
import { defineStore } from 'pinia'
import { reactive, ref } from 'vue'
import type { ExportStarted } from '../../../shared/ipc/contract'
import type { CallError } from '../../../shared/ipc/result'
import type { SearchQuery, SearchResource, SearchResult, SearchSort } from '../../../shared/search'
import { filterQuery, type AmountDateFilters } from '../format'

export interface Filters extends AmountDateFilters {
  resource: SearchResource
  status: string | null
  channel: string | null
  sort: SearchSort
}

export function toQuery(f: Filters): Omit<SearchQuery, 'page' | 'pageSize'> {
  const q: Omit<SearchQuery, 'page' | 'pageSize'> = { resource: f.resource, sort: f.sort, ...filterQuery(f) }
  if (f.status) q.status = f.status
  if (f.channel) q.channel = f.channel
  return q
}

export const useRecordsStore = defineStore('records', () => {
  const filters = reactive<Filters>({ resource: 'payments', text: '', status: null, channel: null, currency: null, minAmount: '', maxAmount: '', range: null, sort: 'newest' })
  const page = ref(0)
  const pageSize = ref(25)
  const result = ref<SearchResult | null>(null)
  const error = ref<CallError | null>(null)
  const loading = ref(false)
  let latest = 0

  /** The first page, or the next or previous one from the page shown (keyset cursors: every page costs the same). */
  async function run(move: 'first' | 'next' | 'previous' = 'first'): Promise<void> {
    const shown = result.value
    const cursor = move === 'next' ? shown?.nextCursor : move === 'previous' ? shown?.previousCursor : null
    if (move !== 'first' && !cursor) return
    const target = move === 'next' ? page.value + 1 : move === 'previous' ? Math.max(0, page.value - 1) : 0
    const ticket = ++latest
    loading.value = true
    const answer = await window.api.search.query({
      ...toQuery(filters),
      page: target,
      pageSize: pageSize.value,
      ...(move === 'next' && cursor ? { after: cursor } : {}),
      ...(move === 'previous' && cursor ? { before: cursor } : {})
    })
    if (ticket !== latest) return
    loading.value = false
    if (answer.ok) {
      result.value = answer.value
      page.value = target
      error.value = null
    } else error.value = answer.error
  }

  /** Asks where to save (a native dialog), then the host writes the file in an export job. */
  async function exportCsv(): Promise<{ ok: true; value: ExportStarted } | { ok: false; error: CallError }> {
    return window.api.export.csv(toQuery(filters))
  }

  return { filters, page, pageSize, result, error, loading, run, exportCsv }
})

// Records store: the table the accountant is looking at (which records, filters, sort, columns) and its rows, fetched from the host's SQLite in blocks as they scroll into view.
import { defineStore } from 'pinia'
import { computed, reactive, ref, shallowRef } from 'vue'
import type { BulkFileChoice, ExportStarted } from '../../../shared/ipc/contract'
import type { CallError } from '../../../shared/ipc/result'
import {
  RECORD_COLUMNS,
  type RecordQuery,
  type RecordResource,
  type RecordRow,
  type RecordSort,
  type RecordTotals,
  type RowAnchor
} from '../../../shared/records'
import { SEARCH_RESOURCES, type SearchQuery, type SearchResource } from '../../../shared/search'
import { useCall } from '../calls'
import { filterQuery, type AmountDateFilters } from '../format'
import { profileScoped } from './profile-scope'

export interface Filters extends AmountDateFilters {
  status: string | null
  channel: string | null
  /** Transfers of one bulk file; '' for single transfers; null for all. */
  bulkFile: string | null
}

/** Rows fetched per call; the table asks for the blocks it shows and the ones next to them. */
export const BLOCK = 100
/** Blocks kept: scrolling through a million rows never holds more than this many in memory. */
const KEPT_BLOCKS = 60
const COLUMNS_KEY = 'ledgerline.columns'

const emptyFilters = (): Filters => ({
  text: '',
  status: null,
  channel: null,
  currency: null,
  minAmount: '',
  maxAmount: '',
  range: null,
  bulkFile: null
})

function savedColumns(): Partial<Record<RecordResource, string[]>> {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(COLUMNS_KEY) ?? '{}')
    return saved !== null && typeof saved === 'object' ? (saved as Partial<Record<RecordResource, string[]>>) : {}
  } catch {
    return {}
  }
}

export const useRecordsStore = defineStore('records', () => {
  const resource = ref<RecordResource>('payments')
  const filters = reactive<Filters>(emptyFilters())
  /** null: the table's default sort (newest first where there are dates). */
  const sort = ref<RecordSort | null>(null)
  const saved = savedColumns()
  const columns = reactive(
    Object.fromEntries(
      Object.entries(RECORD_COLUMNS).map(([r, list]) => {
        const known = new Set(list.map((c) => c.id))
        const mine = saved[r as RecordResource]?.filter((id) => known.has(id))
        return [r, mine && mine.length > 0 ? mine : list.filter((c) => c.shown).map((c) => c.id)]
      })
    ) as Record<RecordResource, string[]>
  )
  const totals = shallowRef<RecordTotals | null>(null)
  const error = ref<CallError | null>(null)
  /** Bumped whenever a block arrives, so the table reads its rows again. */
  const version = ref(0)
  /** Where the table ends, once a block came back short (before the totals arrive). */
  const ended = ref<number | null>(null)
  /** Bulk files with cached or followed transfers, for the transfers table's filter. */
  const bulkFiles = ref<BulkFileChoice[]>([])

  let generation = 0
  const blocks = new Map<number, RecordRow[]>()
  const anchors = new Map<number, RowAnchor>()
  const pending = new Set<number>()
  const totalsCall = useCall((query: RecordQuery) => window.api.records.totals({ query }))

  function query(): RecordQuery {
    const q: RecordQuery = { resource: resource.value, ...filterQuery(filters) }
    if (filters.status) q.status = filters.status
    if (filters.channel) q.channel = filters.channel
    if (filters.bulkFile !== null && resource.value === 'transfers') q.bulkFile = filters.bulkFile
    if (sort.value) q.sort = sort.value
    return q
  }

  /** How many rows the table has: exact once the totals are in; until then what is known, plus a block to scroll into. */
  const count = computed(() => {
    void version.value
    if (totals.value) return totals.value.total
    if (ended.value !== null) return ended.value
    return blocks.size > 0 ? blocks.size * BLOCK + BLOCK : 0
  })
  const loading = computed(() => {
    void version.value
    return pending.size > 0 && blocks.size === 0
  })

  async function loadBlock(block: number): Promise<void> {
    if (blocks.has(block) || pending.has(block)) return
    const mine = generation
    pending.add(block)
    const offset = block * BLOCK
    const anchor = anchors.get(offset)
    const total = totals.value?.total
    const answer = await window.api.records.rows({
      query: query(),
      offset,
      limit: BLOCK,
      ...(anchor ? { anchor } : {}),
      ...(total !== undefined ? { total } : {})
    })
    if (mine !== generation) return
    pending.delete(block)
    if (!answer.ok) {
      error.value = answer.error
      version.value++
      return
    }
    error.value = null
    blocks.set(block, answer.value.rows)
    if (answer.value.next) anchors.set(answer.value.next.offset, answer.value.next)
    else ended.value = offset + answer.value.rows.length
    // The oldest blocks go first; their anchors stay (they are small) so coming back is still keyset.
    while (blocks.size > KEPT_BLOCKS) blocks.delete(blocks.keys().next().value as number)
    version.value++
  }

  /** Row `index` if it has arrived; otherwise null, and its block is asked for. */
  function rowAt(index: number): RecordRow | null {
    const block = Math.floor(index / BLOCK)
    const rows = blocks.get(block)
    if (!rows) {
      void loadBlock(block)
      return null
    }
    return rows[index - block * BLOCK] ?? null
  }

  /**
   * Reads the table again: from its first rows when filters, sort or records changed; in place
   * (`keepPlace`) when only the cache did (an action, a sync), so the rows in view stay in view.
   */
  async function refresh(keepPlace = false): Promise<void> {
    const q = query()
    if (keepPlace) {
      // The rows shown stay until the new count is in; then every block is read again against it.
      const answer = await totalsCall.run(q)
      if (!answer) return
      forget()
      if (answer.ok) totals.value = answer.value
      else error.value = answer.error
      version.value++
      return
    }
    forget()
    ended.value = null
    totals.value = null
    version.value++
    const first = loadBlock(0)
    const answer = await totalsCall.run(q)
    if (answer?.ok) totals.value = answer.value
    else if (answer) error.value = answer.error
    await first
  }

  /** Drops every block and anchor; a block still on its way is ignored when it lands. */
  function forget(): void {
    generation++
    blocks.clear()
    anchors.clear()
    pending.clear()
    ended.value = null
    error.value = null
  }

  function setResource(next: RecordResource): void {
    if (next === resource.value) return
    resource.value = next
    Object.assign(filters, emptyFilters())
    sort.value = null
    void refresh()
  }

  /** Every filter off, the table read again from its first rows. */
  function clearFilters(): void {
    Object.assign(filters, emptyFilters())
    void refresh()
  }

  /** The transfers of one bulk file (from a followed item). */
  function showBulkFile(id: string): void {
    resource.value = 'transfers'
    Object.assign(filters, emptyFilters(), { bulkFile: id })
    sort.value = null
  }

  /** A click on a sortable header: that column, then the other direction, then back to the table's default. */
  function sortBy(column: string): void {
    const current = sort.value
    if (!current || current.column !== column) sort.value = { column, desc: true }
    else if (current.desc) sort.value = { column, desc: false }
    else sort.value = null
    void refresh()
  }

  function setColumns(ids: string[]): void {
    columns[resource.value] = ids
    localStorage.setItem(COLUMNS_KEY, JSON.stringify(columns))
  }

  /** The same records as the cache search sees them, for the CSV export (tables the search has). */
  function searchQuery(): Omit<SearchQuery, 'page' | 'pageSize'> | null {
    if (!(SEARCH_RESOURCES as readonly string[]).includes(resource.value)) return null
    const q = query()
    const { sort: chosen, resource: r, ...rest } = q
    const amount = chosen?.column === 'amount'
    const sortName = amount ? (chosen.desc ? 'amount_desc' : 'amount_asc') : chosen && !chosen.desc ? 'oldest' : 'newest'
    return { ...rest, resource: r as SearchResource, sort: sortName }
  }

  /** Asks where to save (a native dialog), then the host writes the file in an export job. */
  async function exportCsv(plain = false): Promise<{ ok: true; value: ExportStarted } | { ok: false; error: CallError } | null> {
    const q = searchQuery()
    return q ? window.api.export.csv({ ...q, ...(plain ? { plain: true } : {}) }) : null
  }

  async function loadBulkFiles(): Promise<void> {
    const answer = await window.api.records.bulkFiles()
    if (answer.ok) bulkFiles.value = answer.value
  }

  profileScoped(() => {
    bulkFiles.value = []
    Object.assign(filters, emptyFilters())
    sort.value = null
    forget()
    totals.value = null
    totalsCall.reset()
    version.value++
  })

  return {
    bulkFiles,
    loadBulkFiles,
    showBulkFile,
    clearFilters,
    resource,
    filters,
    sort,
    columns,
    totals,
    error,
    version,
    count,
    loading,
    rowAt,
    refresh,
    setResource,
    sortBy,
    setColumns,
    exportCsv,
    canExport: computed(() => (SEARCH_RESOURCES as readonly string[]).includes(resource.value))
  }
})

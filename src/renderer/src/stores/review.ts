// Review store: one session's items a page at a time from the host's SQLite, its summary, the selected item, and every decision sent as it is made.
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { CallArg, ReportFormat } from '../../../shared/ipc/contract'
import type { CallError, CallResult } from '../../../shared/ipc/result'
import {
  expectedAmount,
  type Decision,
  type ItemFilter,
  type Outcome,
  type ReconItem,
  type ReconSummary,
  type SessionInfo
} from '../../../shared/reconcile'
import { eventSubjects, SESSION_HISTORY_KINDS, type AuditEntry } from '../../../shared/reconcile-events'
import { useCall } from '../calls'
import { filterQuery, type AmountDateFilters } from '../format'
import { profileScoped } from './profile-scope'
import { useJobsStore } from './jobs'
import { useLocaleStore } from './locale'
import { useTeamStore } from './team'

export const PAGE_SIZE = 50

export const useReviewStore = defineStore('review', () => {
  const team = useTeamStore()
  const jobs = useJobsStore()
  // The reports people read are written in the locale the screens use.
  const locale = useLocaleStore()
  const session = ref<SessionInfo | null>(null)
  const summary = ref<ReconSummary | null>(null)
  const items = ref<ReconItem[]>([])
  const total = ref(0)
  const page = ref(0)
  const outcome = ref<Outcome | null>(null)
  /** The other filters, as typed; applied together with the outcome. */
  const filters = ref<AmountDateFilters>({ currency: null, text: '', minAmount: '', maxAmount: '', range: null })
  const selected = ref(0)
  const error = ref<CallError | null>(null)
  const events = ref<AuditEntry[]>([])
  /** Items picked for a match by hand, by key: their provider records and file lines are matched together. */
  const picked = ref<Map<string, ReconItem>>(new Map())
  /** The session last asked for: its filters and picks are the ones kept. */
  let asked: string | null = null
  /** The session with its summary, and a page of its items: a newer load drops an older one's answer. */
  const sessionCall = useCall(async (id: string): Promise<CallResult<{ session: SessionInfo; summary: ReconSummary | null }>> => {
    const [s, sum] = await Promise.all([window.api.recon.session({ id }), window.api.recon.summary({ sessionId: id })])
    return s.ok ? { ok: true, value: { session: s.value, summary: sum.ok ? sum.value : null } } : s
  })
  const itemsCall = useCall((filter: CallArg<'recon:items'>) => window.api.recon.items(filter))
  const loading = computed(() => sessionCall.loading.value || itemsCall.loading.value)

  // Another profile: its sessions are not this one's; an answer still on its way is dropped.
  profileScoped(() => {
    sessionCall.reset()
    itemsCall.reset()
    session.value = null
    summary.value = null
    items.value = []
    total.value = 0
    events.value = []
    picked.value = new Map()
    error.value = null
    asked = null
  })

  const closed = computed(() => session.value?.closedAt != null)
  /**
   * Nothing is decided here: the session is closed, or it is shared and this member may not decide in it
   * now (its team side says why: the role, the sign-off state, the rules it was shared under).
   */
  const readOnly = computed(() => {
    const s = session.value
    if (!s?.team?.replay) return closed.value
    return !(team.viewOf === s.id && team.view?.may.decide === true)
  })
  const current = computed(() => items.value[selected.value] ?? null)
  const pages = computed(() => Math.max(1, Math.ceil(total.value / PAGE_SIZE)))

  /** What a match by hand would join: the picked items' records and lines, their totals per side and the difference (file − provider). */
  const handMatch = computed(() => {
    const provider = [...picked.value.values()].flatMap((i) => i.provider)
    const file = [...picked.value.values()].flatMap((i) => i.file)
    // On the basis the statement shows (net of fees when its pairs are), as the bank reconciliation reads every record.
    const net = summary.value?.basis?.net ?? session.value?.settings.netOfFees === true
    const providerMinor = provider.reduce((s, p) => s + expectedAmount(p, net), 0)
    const fileMinor = file.reduce((s, f) => s + f.amountMinor, 0)
    const currencies = [...new Set([...provider.map((p) => p.currency), ...file.map((f) => f.currency)])]
    return {
      provider,
      file,
      providerMinor,
      fileMinor,
      differenceMinor: fileMinor - providerMinor,
      currency: currencies.length === 1 ? (currencies[0] as string) : null,
      currencies
    }
  })

  function pick(item: ReconItem): void {
    const next = new Map(picked.value)
    if (next.has(item.key)) next.delete(item.key)
    else next.set(item.key, item)
    picked.value = next
  }

  function failed(e: CallError): CallError {
    error.value = e
    return e
  }

  /** The session, its summary and the page shown, all again (after a decision, a run, a close). */
  async function load(id: string, keepPlace = false): Promise<void> {
    // A page still on its way belongs to what is being reloaded.
    itemsCall.reset()
    if (asked !== id) {
      // Another session: nothing picked or filtered from the last one carries over. Cleared as it is asked
      // for, not as it arrives: what is typed into the filters meanwhile is the new session's.
      asked = id
      // Nor does the last session itself: a session that cannot be opened shows its error alone, not over the last one.
      session.value = null
      summary.value = null
      items.value = []
      total.value = 0
      picked.value = new Map()
      outcome.value = null
      filters.value = { currency: null, text: '', minAmount: '', maxAmount: '', range: null }
      keepPlace = false
    }
    const answer = await sessionCall.run(id)
    if (!answer) return
    if (!answer.ok) {
      failed(answer.error)
      return
    }
    const s = answer.value
    session.value = s.session
    summary.value = s.summary
    if (!keepPlace) {
      page.value = 0
      selected.value = 0
    }
    await loadPage()
  }

  async function loadPage(): Promise<void> {
    const id = session.value?.id
    // Another session is on its way: its own first page follows it, with what is typed by then.
    if (!id || id !== asked) return
    const answer = await itemsCall.run({ sessionId: id, ...query(), offset: page.value * PAGE_SIZE, limit: PAGE_SIZE })
    if (!answer) return
    if (!answer.ok) {
      failed(answer.error)
      return
    }
    error.value = null
    items.value = answer.value.items
    total.value = answer.value.total
    // A page that emptied (the last item of the last page was decided away) steps back.
    if (items.value.length === 0 && page.value > 0) {
      page.value--
      await loadPage()
      return
    }
    selected.value = Math.min(selected.value, Math.max(0, items.value.length - 1))
  }

  function query(): ItemFilter {
    const q: ItemFilter = filterQuery(filters.value)
    if (outcome.value) q.outcome = outcome.value
    return q
  }
  const filtered = computed(() => Object.keys(query()).length > 0)

  function clearFilters(): Promise<void> {
    filters.value = { currency: null, text: '', minAmount: '', maxAmount: '', range: null }
    return filter(null)
  }

  async function filter(to: Outcome | null = outcome.value): Promise<void> {
    outcome.value = to
    page.value = 0
    selected.value = 0
    await loadPage()
  }

  async function turn(to: number, select: 'first' | 'last' = 'first'): Promise<void> {
    if (to < 0 || to >= pages.value || to === page.value) return
    page.value = to
    await loadPage()
    selected.value = select === 'first' ? 0 : Math.max(0, items.value.length - 1)
  }

  /** Moves the selection by one, across pages. */
  async function move(by: 1 | -1): Promise<void> {
    const next = selected.value + by
    if (next >= 0 && next < items.value.length) selected.value = next
    else if (by > 0) await turn(page.value + 1, 'first')
    else await turn(page.value - 1, 'last')
  }

  /** Sends one decision; it is saved (an audit event) before the answer comes, then the page and totals are read again. */
  async function decide(decision: Decision): Promise<CallError | null> {
    const id = session.value?.id
    if (!id) return null
    const answer = await window.api.recon.decide({ sessionId: id, decision })
    // A shared session's decision went to the workspace (or waits, or was refused): its team side is read again.
    if (session.value?.team?.replay) await team.loadView(id)
    if (!answer.ok) return failed(answer.error)
    const { item, inPlace } = answer.value
    // Run again, or several items changed (the open pool matched again): the page is read anew.
    if (!inPlace || (!item && decision.kind !== 'adjust')) {
      await load(id, true)
      return null
    }
    // Applied in place: the changed item takes its row (no other row is drawn again), and the totals are read anew.
    session.value = answer.value.session
    if (item) {
      // An item that left the outcome shown leaves the list, and the selection stays put: on the next one.
      if (outcome.value && item.outcome !== outcome.value) {
        items.value = items.value.filter((shown) => shown.key !== item.key)
        total.value = Math.max(0, total.value - 1)
        selected.value = Math.min(selected.value, Math.max(0, items.value.length - 1))
      } else {
        // Only that row changes: the list keeps its other rows as they are.
        const at = items.value.findIndex((shown) => shown.key === item.key)
        if (at >= 0) items.value.splice(at, 1, item)
      }
    }
    const sum = await window.api.recon.summary({ sessionId: id })
    if (sum.ok) summary.value = sum.value
    return null
  }

  /** Accepts every undecided suggestion the filters show scoring at least `minScore`, after `confirm` has seen how many and their totals. */
  async function acceptAllAbove(
    minScore: number,
    confirm: (preview: { count: number; totals: { currency: string; fileMinor: number }[] }) => Promise<boolean>
  ): Promise<CallError | number | null> {
    const id = session.value?.id
    if (!id) return null
    const { outcome: _shown, ...filter } = query()
    const preview = await window.api.recon.acceptAllPreview({ sessionId: id, ...filter, minScore })
    if (!preview.ok) return failed(preview.error)
    if (preview.value.count === 0 || !(await confirm(preview.value))) return preview.value.count === 0 ? 0 : null
    const done = await window.api.recon.acceptAll({ sessionId: id, ...filter, minScore })
    if (session.value?.team?.replay) await team.loadView(id)
    if (!done.ok) return failed(done.error)
    await load(id, true)
    return done.value.accepted
  }

  /** Matches the picked records and lines by hand (one to one, one to many or many to one). */
  async function matchPicked(): Promise<CallError | null> {
    const { provider, file } = handMatch.value
    const error = await decide({ kind: 'match', providerIds: provider.map((p) => p.id), fileIds: file.map((f) => f.id) })
    if (!error) picked.value = new Map()
    return error
  }

  async function loadEvents(): Promise<void> {
    const id = session.value?.id
    if (!id) return
    const answer = await window.api.recon.events({ sessionId: id })
    if (answer.ok) events.value = answer.value
  }

  /** The events about one item: its decisions and notes, by its key or its members' ids. */
  function historyOf(item: ReconItem): AuditEntry[] {
    const ids = new Set([...item.provider.map((p) => p.id), ...item.file.map((f) => f.id)])
    return events.value.filter((e) => {
      const named = eventSubjects(e)
      return named.itemKey === item.key || named.ids.some((n) => ids.has(n))
    })
  }

  /** The session's own history: how it was set up, run, adjusted, closed and reopened (its creation, and the last ten since). */
  const sessionHistory = computed(() => {
    const [created, ...since] = events.value.filter((e) => SESSION_HISTORY_KINDS.includes(e.kind))
    return created ? [created, ...since.slice(-10)] : []
  })

  async function close(): Promise<CallError | null> {
    const id = session.value?.id
    if (!id) return null
    // Closing is a job: it binds every file of the evidence pack, which the header's jobs show as it goes.
    const answer = await jobs.follow(await window.api.recon.close({ sessionId: id, locale: locale.locale }), 'recon-close')
    if (!answer.ok) return answer.error
    await load(id, true)
    return null
  }

  async function reopen(reason: string): Promise<CallError | null> {
    const id = session.value?.id
    if (!id) return null
    const answer = await window.api.recon.reopen({ sessionId: id, reason })
    if (!answer.ok) return answer.error
    await load(id, true)
    return null
  }

  /** Asks where to save (main's dialog), then writes the session's report in the format chosen. */
  const exportAs = (sessionId: string, format: ReportFormat) => window.api.recon.export({ sessionId, format, locale: locale.locale })
  /** A closed session's evidence pack, where the user chooses, written as a job: the file and the chain head, or null when no file was chosen. */
  const evidence = async (sessionId: string) => jobs.follow(await window.api.recon.evidence({ sessionId }), 'recon-evidence')

  return {
    session,
    summary,
    items,
    total,
    page,
    pages,
    outcome,
    filters,
    filtered,
    clearFilters,
    selected,
    loading,
    error,
    events,
    picked,
    handMatch,
    closed,
    readOnly,
    current,
    load,
    loadPage,
    filter,
    turn,
    move,
    decide,
    pick,
    matchPicked,
    acceptAllAbove,
    loadEvents,
    historyOf,
    sessionHistory,
    close,
    reopen,
    exportAs,
    evidence
  }
})

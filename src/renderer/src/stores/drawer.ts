// Drawer store: the record open in the detail drawer (from any screen), the records opened before it, and its actions with the provider.
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { ActionOutcome } from '../../../shared/ipc/contract'
import type { CallResult } from '../../../shared/ipc/result'
import type { RecordDetail, RecordResource } from '../../../shared/records'
import { useCall } from '../calls'
import { profileScoped } from './profile-scope'
import { useRecordsStore } from './records'

export interface Opened {
  resource: RecordResource
  key: string
}

export const useDrawerStore = defineStore('drawer', () => {
  const records = useRecordsStore()
  const current = ref<Opened | null>(null)
  /** Records opened before this one from its relations, for Back. */
  const trail = ref<Opened[]>([])
  const detail = shallowRef<RecordDetail | null>(null)
  /** What the last action answered, shown in the drawer until another record opens. */
  const outcome = ref<ActionOutcome | null>(null)
  const detailCall = useCall((o: Opened) => window.api.records.detail(o))
  const actionCall = useCall((send: () => Promise<CallResult<ActionOutcome>>) => send())

  async function load(): Promise<void> {
    if (!current.value) return
    const answer = await detailCall.run(current.value)
    if (answer?.ok) detail.value = answer.value
  }

  /** Opens a record; from inside the drawer (a relation), the one shown is kept for Back. */
  async function open(resource: RecordResource, key: string, options: { fromDrawer?: boolean } = {}): Promise<void> {
    if (options.fromDrawer && current.value) trail.value = [...trail.value, current.value]
    else if (!options.fromDrawer) trail.value = []
    current.value = { resource, key }
    detail.value = null
    outcome.value = null
    await load()
  }

  async function back(): Promise<void> {
    const previous = trail.value.at(-1)
    if (!previous) return
    trail.value = trail.value.slice(0, -1)
    current.value = previous
    detail.value = null
    outcome.value = null
    await load()
  }

  function close(): void {
    current.value = null
    detail.value = null
    trail.value = []
    outcome.value = null
    detailCall.reset()
  }

  /** Runs an action; its answer is cached by the host, so the drawer and the table read again. */
  async function act(send: () => Promise<CallResult<ActionOutcome>>): Promise<ActionOutcome | null> {
    const answer = await actionCall.run(send)
    if (!answer?.ok) return null
    // The record as it is now first, then what the provider said: never a new answer beside old actions.
    await load()
    outcome.value = answer.value
    void records.refresh(true)
    return answer.value
  }

  const authorize = (paymentId: string, step: { pin: string } | { otp: string }) =>
    act(() => window.api.records.authorize({ paymentId, ...step }))
  const cancelPlan = (planId: string) => act(() => window.api.records.cancelPlan({ planId }))
  const fund = (accountId: string, amount?: string) => act(() => window.api.records.fund({ accountId, ...(amount ? { amount } : {}) }))

  profileScoped(close)

  return {
    current,
    trail,
    detail,
    outcome,
    open,
    back,
    close,
    load,
    authorize,
    cancelPlan,
    fund,
    loading: detailCall.loading,
    error: detailCall.error,
    acting: actionCall.loading,
    actionError: actionCall.error,
    isOpen: computed(() => current.value !== null)
  }
})

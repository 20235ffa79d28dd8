// Sync store: status of the active profile's cache, live progress from main's events, start, cancel and follow.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { EventPayload, SyncStatus } from '../../../shared/ipc/contract'
import type { CallError } from '../../../shared/ipc/result'
import type { SyncResource, SyncSummary } from '../../../shared/sync'

export type Progress = EventPayload<'sync:progress'>

export const useSyncStore = defineStore('sync', () => {
  const status = ref<SyncStatus | null>(null)
  const progress = ref<Partial<Record<SyncResource, Progress>>>({})
  const running = ref(false)
  const summary = ref<SyncSummary | null>(null)
  const error = ref<CallError | null>(null)
  let listening = false

  function listen(): void {
    if (listening) return
    listening = true
    window.api.on('sync:progress', (p) => {
      if (status.value && p.profileId !== status.value.profileId) return
      progress.value = { ...progress.value, [p.resource]: p }
    })
  }

  async function load(): Promise<void> {
    listen()
    const result = await window.api.sync.status()
    if (result.ok) {
      status.value = result.value
      running.value = result.value.running
    } else error.value = result.error
  }

  async function start(resources?: SyncResource[]): Promise<void> {
    running.value = true
    error.value = null
    summary.value = null
    progress.value = {}
    const result = await window.api.sync.start(resources ? { resources } : {})
    running.value = false
    if (result.ok) summary.value = result.value
    else error.value = result.error
    await load()
  }

  async function cancel(): Promise<void> {
    await window.api.sync.cancel()
  }

  async function track(kind: 'bulk_file' | 'transfer' | 'plan', value: string): Promise<CallError | null> {
    const result = await window.api.sync.track({ kind, value })
    if (result.ok) status.value = result.value
    return result.ok ? null : result.error
  }

  function reset(): void {
    summary.value = null
    progress.value = {}
    error.value = null
  }

  return { status, progress, running, summary, error, load, start, cancel, track, reset }
})

// Sync store: what the active profile's cache holds, and its sync job (started here or found running after a reload) with per-resource progress.
import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { JobInfo, JobProgress, SyncStatus } from '../../../shared/ipc/contract'
import type { CallError } from '../../../shared/ipc/result'
import type { SyncResource, SyncSummary } from '../../../shared/sync'
import { useJobsStore } from './jobs'
import { profileScoped } from './profile-scope'

export type Progress = JobProgress

export const useSyncStore = defineStore('sync', () => {
  const jobs = useJobsStore()
  const status = ref<SyncStatus | null>(null)
  const jobId = ref<string | null>(null)
  const progress = ref<Partial<Record<SyncResource, Progress>>>({})
  const summary = ref<SyncSummary | null>(null)
  const error = ref<CallError | null>(null)

  const job = computed<JobInfo | null>(() => (jobId.value ? (jobs.byId[jobId.value] ?? null) : null))
  const running = computed(() => job.value?.state === 'running')

  // Each progress event is about one resource (its step): keep the latest per resource; take the outcome when the job ends.
  watch(job, (current) => {
    if (!current) return
    const step = current.progress?.step as SyncResource | null | undefined
    if (step && current.progress) progress.value = { ...progress.value, [step]: current.progress }
    if (current.state === 'running') return
    if (current.result?.kind === 'sync') summary.value = current.result.summary
    error.value = current.state === 'failed' && current.error ? current.error : null
    void load()
  })

  async function load(): Promise<void> {
    const result = await window.api.sync.status()
    if (!result.ok) {
      error.value = result.error
      return
    }
    status.value = result.value
    // A reloaded window (or another screen) picks up the sync already running for this profile.
    if (result.value.runningJobId && result.value.runningJobId !== jobId.value) {
      await jobs.load()
      jobId.value = result.value.runningJobId
    }
  }

  async function start(resources?: SyncResource[]): Promise<void> {
    error.value = null
    summary.value = null
    progress.value = {}
    const result = await window.api.sync.start(resources ? { resources } : {})
    if (!result.ok) {
      error.value = result.error
      return
    }
    jobs.put(result.value)
    jobId.value = result.value.id
  }

  async function cancel(): Promise<void> {
    if (jobId.value) await jobs.cancel(jobId.value)
  }

  async function track(kind: 'bulk_file' | 'transfer' | 'plan', value: string): Promise<CallError | null> {
    const result = await window.api.sync.track({ kind, value })
    if (result.ok) status.value = result.value
    return result.ok ? null : result.error
  }

  /** Follows a pasted or imported list at once. */
  async function trackMany(kind: 'bulk_file' | 'transfer' | 'plan', values: string[]): Promise<CallError | null> {
    const result = await window.api.sync.trackMany({ kind, values })
    if (result.ok) status.value = result.value
    return result.ok ? null : result.error
  }

  async function untrack(kind: 'bulk_file' | 'transfer' | 'plan', value: string): Promise<CallError | null> {
    const result = await window.api.sync.untrack({ kind, value })
    if (result.ok) status.value = result.value
    return result.ok ? null : result.error
  }

  /** A different profile is in use: forget the last one's job and results. */
  function reset(): void {
    jobId.value = null
    summary.value = null
    progress.value = {}
    error.value = null
  }

  profileScoped(reset)

  return { status, job, progress, running, summary, error, load, start, cancel, track, trackMany, untrack, reset }
})

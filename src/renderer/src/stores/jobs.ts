// Jobs store: every job the host runs (sync, export, profile removal…), live from its events, picked up again after a reload.
import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { JobInfo, JobResult } from '../../../shared/ipc/contract'
import type { CallError, CallResult } from '../../../shared/ipc/result'

export const useJobsStore = defineStore('jobs', () => {
  const byId = ref<Record<string, JobInfo>>({})
  const waiters = new Map<string, ((job: JobInfo) => void)[]>()
  let listening = false

  /** A job only moves from running to finished: a late "running" (a call's answer after the job's finished event) never undoes that. */
  function put(job: JobInfo): void {
    const known = byId.value[job.id]
    if (known && known.state !== 'running' && job.state === 'running') return
    byId.value = { ...byId.value, [job.id]: job }
    if (job.state !== 'running') {
      for (const resolve of waiters.get(job.id) ?? []) resolve(job)
      waiters.delete(job.id)
    }
  }

  /** Subscribes to job events and loads what is running now (after a reload, or once the host is back). */
  async function load(): Promise<void> {
    if (!listening) {
      listening = true
      window.api.on('job:progress', put)
      window.api.on('job:finished', put)
    }
    const result = await window.api.job.list()
    if (result.ok) for (const job of result.value) put(job)
  }

  /** Resolves when the job has finished (at once if it already has). */
  function finished(id: string): Promise<JobInfo> {
    const known = byId.value[id]
    if (known && known.state !== 'running') return Promise.resolve(known)
    return new Promise((resolve) => waiters.set(id, [...(waiters.get(id) ?? []), resolve]))
  }

  /**
   * A call that started a job (or found nothing to do: null) followed to the job's end: its result,
   * or what stopped it as an error of its own code (a cancelled job as `cancelled`).
   */
  async function follow<K extends JobResult['kind']>(
    started: CallResult<JobInfo | null>,
    kind: K
  ): Promise<CallResult<Extract<JobResult, { kind: K }> | null>> {
    if (!started.ok || started.value === null) return started.ok ? { ok: true, value: null } : started
    put(started.value)
    const job = await finished(started.value.id)
    if (job.state === 'succeeded' && job.result?.kind === kind) return { ok: true, value: job.result as Extract<JobResult, { kind: K }> }
    return {
      ok: false,
      error: job.error ?? { code: 'cancelled', message: `${job.title}: ${job.state === 'cancelled' ? 'cancelled' : job.state}.` }
    }
  }

  async function cancel(id: string): Promise<CallError | null> {
    const result = await window.api.job.cancel({ id })
    return result.ok ? null : result.error
  }

  const running = computed(() =>
    Object.values(byId.value)
      .filter((j) => j.state === 'running')
      .sort((a, b) => a.startedAt.localeCompare(b.startedAt))
  )

  return { byId, running, put, load, finished, follow, cancel }
})

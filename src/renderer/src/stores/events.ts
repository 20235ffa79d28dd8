// Events store: what the host pushes (notices, its own state, a profile change) taken in one place, so no screen listens on window.api itself.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { EventPayload } from '../../../shared/ipc/contract'
import { useJobsStore } from './jobs'
import { resetProfileScoped } from './profile-scope'
import { useSessionStore } from './session'
import { useSyncStore } from './sync'

export type Notify = (level: 'info' | 'warning' | 'error' | 'success', text: string) => void

export const useEventsStore = defineStore('events', () => {
  /** The service host's state when it is not simply running: restarting after a crash, or given up. */
  const hostTrouble = ref<EventPayload<'host:status'> | null>(null)
  let stops: (() => void)[] = []

  function start(notify: Notify): void {
    stop()
    const session = useSessionStore()
    const jobs = useJobsStore()
    const sync = useSyncStore()
    stops = [
      window.api.on('app:notice', (notice) => notify(notice.level, notice.message)),
      window.api.on('host:status', (status) => {
        hostTrouble.value = status.state === 'ready' ? null : status
        if (status.state !== 'ready') return
        notify('success', status.message)
        // A new host: what it holds now is the truth.
        void session.loadProfile()
        void jobs.load()
        void sync.load()
      }),
      window.api.on('profile:changed', (change) => {
        // Another profile (or the same one with other settings): every profile-scoped store starts again.
        if (change.reason !== 'updated') resetProfileScoped()
        void session.loadProfile()
        void session.loadProfiles()
        void sync.load()
      })
    ]
  }

  function stop(): void {
    for (const s of stops) s()
    stops = []
  }

  return { hostTrouble, start, stop }
})

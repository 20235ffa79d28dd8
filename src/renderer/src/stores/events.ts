// Events store: what the host pushes (notices, its own state, a profile change, the team workspace) taken in one place, so no screen listens on window.api itself.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { EventPayload } from '../../../shared/ipc/contract'
import { useJobsStore } from './jobs'
import { resetProfileScoped } from './profile-scope'
import { useSessionStore } from './session'
import { useReviewStore } from './review'
import { useSyncStore } from './sync'
import { useTeamStore } from './team'

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
    const team = useTeamStore()
    const review = useReviewStore()
    void team.loadStatus()
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
      }),
      // The workspace line came up or went down, the member's role changed, or the connection was forgotten:
      // the status (and what waits) is read again, and what the session under review offers.
      window.api.on('team:status', () => {
        void team.loadStatus()
        if (team.viewOf) void team.loadView(team.viewOf)
      }),
      // Another member's events arrived: the session under review and the shared list are read again.
      window.api.on('team:changed', (change) => {
        void team.loadStatus()
        void team.loadShared()
        const id = review.session?.id
        if (id && change.sessionIds.includes(id)) {
          void review.load(id, true)
          void team.loadView(id)
        }
      }),
      // A member opened or left a shared session: who has it open shows again (its items did not change).
      window.api.on('team:presence', (change) => {
        void team.loadShared()
        if (team.viewOf && change.sessionIds.includes(team.viewOf)) void team.loadView(team.viewOf)
      })
    ]
  }

  function stop(): void {
    for (const s of stops) s()
    stops = []
  }

  return { hostTrouble, start, stop }
})

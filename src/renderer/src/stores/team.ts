// Team store: the workspace connection, the sessions shared in it, and the team side of the session under review (its state, people, history, conflicts), read again when the host says the workspace changed.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { SharedSessionRow, TeamSessionView, WorkspaceStatus } from '../../../shared/ipc/contract'
import type { SignOffStep } from '../../../shared/ipc/team'
import type { CallError, CallResult } from '../../../shared/ipc/result'
import { useCall } from '../calls'

export const useTeamStore = defineStore('team', () => {
  const status = ref<WorkspaceStatus | null>(null)
  const shared = ref<SharedSessionRow[]>([])
  const sharedError = ref<CallError | null>(null)
  /** The team side of the session under review; null for a session of this computer's own. */
  const view = ref<TeamSessionView | null>(null)
  const viewOf = ref<string | null>(null)
  const sessionsCall = useCall(() => window.api.team.sessions())
  const viewCall = useCall((sessionId: string) => window.api.team.session({ sessionId }))

  async function loadStatus(): Promise<void> {
    const answer = await window.api.team.status()
    if (answer.ok) status.value = answer.value
  }

  /** The password goes to the host once (checked with the server, kept in the keychain) and is not kept here. */
  async function connect(url: string, password: string): Promise<CallError | null> {
    const answer = await window.api.team.connect({ url, password })
    if (!answer.ok) return answer.error
    status.value = answer.value
    await loadShared()
    return null
  }

  async function disconnect(): Promise<CallError | null> {
    const answer = await window.api.team.disconnect()
    if (!answer.ok) return answer.error
    status.value = null
    shared.value = []
    return null
  }

  async function loadShared(): Promise<void> {
    if (!status.value) {
      shared.value = []
      return
    }
    const answer = await sessionsCall.run()
    if (!answer) return
    sharedError.value = answer.ok ? null : answer.error
    if (answer.ok) shared.value = answer.value
  }

  /** Opens a shared session here (the first time it is downloaded and replayed); the host switches to its workspace profile. */
  async function open(sharedId: string): Promise<CallResult<{ sessionId: string; profileId: string }>> {
    return window.api.team.open({ sharedId })
  }

  /** Shares a local session (main asks first); its shared copy opens here. */
  async function share(sessionId: string): Promise<CallResult<{ sessionId: string; profileId: string; sharedId: string }>> {
    return window.api.team.share({ sessionId })
  }

  /** The team side of a session, or null for one of this computer's own; asking also tells the workspace it is open here. */
  async function loadView(sessionId: string): Promise<void> {
    if (viewOf.value !== sessionId) view.value = null
    viewOf.value = sessionId
    const answer = await viewCall.run(sessionId)
    if (!answer || viewOf.value !== sessionId) return
    if (answer.ok) view.value = answer.value
  }

  /** This member left the shared session's review: the others see it at their next ring (a failure only lets it lapse). */
  async function left(sessionId: string): Promise<void> {
    await window.api.team.left({ sessionId })
  }

  function forgetView(): void {
    viewCall.reset()
    view.value = null
    viewOf.value = null
  }

  async function changed(answer: CallResult<TeamSessionView>): Promise<CallError | null> {
    if (!answer.ok) {
      // What the refusal left behind (a conflict, the state the server has) shows once read again.
      if (viewOf.value) await loadView(viewOf.value)
      return answer.error
    }
    view.value = answer.value
    return null
  }

  async function signOff(step: SignOffStep, reason?: string): Promise<CallError | null> {
    if (!viewOf.value) return null
    return changed(await window.api.team.signOff({ sessionId: viewOf.value, step, ...(reason ? { reason } : {}) }))
  }

  async function comment(itemKey: string | null, text: string): Promise<CallError | null> {
    if (!viewOf.value) return null
    return changed(await window.api.team.comment({ sessionId: viewOf.value, itemKey, text }))
  }

  async function dismiss(ref: string): Promise<CallError | null> {
    if (!viewOf.value) return null
    return changed(await window.api.team.dismissConflict({ sessionId: viewOf.value, ref }))
  }

  /** Sends what waits and pulls what is new now (the doorbell does it by itself when the line is up). */
  async function sync(): Promise<CallResult<{ sent: number; refused: number; events: number; problems: string[] }>> {
    const answer = await window.api.team.sync()
    await loadStatus()
    if (viewOf.value) await loadView(viewOf.value)
    return answer
  }

  return {
    status,
    shared,
    sharedError,
    sharedLoading: sessionsCall.loading,
    view,
    viewOf,
    loadStatus,
    connect,
    disconnect,
    loadShared,
    open,
    share,
    loadView,
    forgetView,
    left,
    signOff,
    comment,
    dismiss,
    sync
  }
})

// Session store: the profiles, which one is active, and app facts, all from the service host through window.api.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { AppInfo, ProfileSummary } from '../../../shared/ipc/contract'
import type { CallError } from '../../../shared/ipc/result'
import { useCall } from '../calls'

export const useSessionStore = defineStore('session', () => {
  const profile = ref<ProfileSummary | null>(null)
  const profileError = ref<CallError | null>(null)
  const profiles = ref<ProfileSummary[]>([])
  const info = ref<AppInfo | null>(null)
  const infoCall = useCall(() => window.api.app.info())

  async function loadProfile(): Promise<void> {
    const result = await window.api.profile.active()
    profile.value = result.ok ? result.value : null
    profileError.value = result.ok ? null : result.error
  }

  async function loadProfiles(): Promise<CallError | null> {
    const result = await window.api.profile.list()
    if (result.ok) profiles.value = result.value
    return result.ok ? null : result.error
  }

  async function select(id: string): Promise<CallError | null> {
    const result = await window.api.profile.select({ id })
    if (!result.ok) return result.error
    profile.value = result.value
    return null
  }

  /** The business time zone of the profile in use; null follows the computer's. */
  async function setTimeZone(timeZone: string | null): Promise<CallError | null> {
    if (!profile.value) return null
    const result = await window.api.profile.setTimeZone({ id: profile.value.id, timeZone })
    if (!result.ok) return result.error
    profile.value = result.value
    return null
  }

  async function setFundsSimulator(id: string, url: string | null): Promise<CallError | null> {
    const result = await window.api.profile.setFundsSimulator({ id, url })
    if (!result.ok) return result.error
    await loadProfiles()
    if (profile.value?.id === id) profile.value = result.value
    return null
  }

  async function add(input: { name: string; baseUrl: string; key: string }): Promise<CallError | null> {
    const result = await window.api.profile.add(input)
    if (!result.ok) return result.error
    await loadProfiles()
    return null
  }

  async function replaceKey(id: string, key: string): Promise<CallError | null> {
    const result = await window.api.profile.replaceKey({ id, key })
    return result.ok ? null : result.error
  }

  /** The profile goes at once (after main's confirmation); a job deletes its cached records, then its key. */
  async function remove(id: string): Promise<CallError | null> {
    const result = await window.api.profile.remove({ id })
    if (!result.ok) return result.error
    await Promise.all([loadProfiles(), loadProfile()])
    return null
  }

  async function loadInfo(): Promise<void> {
    const result = await infoCall.run()
    if (result) info.value = result.ok ? result.value : null
  }

  return {
    profile,
    profileError,
    profiles,
    info,
    infoError: infoCall.error,
    infoLoading: infoCall.loading,
    loadProfile,
    loadProfiles,
    select,
    setTimeZone,
    setFundsSimulator,
    add,
    replaceKey,
    remove,
    loadInfo
  }
})

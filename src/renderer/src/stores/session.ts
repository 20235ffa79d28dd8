// Session store: the active profile and app facts, loaded from main through window.api.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { AppInfo, ProfileSummary } from '../../../shared/ipc/contract'
import type { CallError } from '../../../shared/ipc/result'

export const useSessionStore = defineStore('session', () => {
  const profile = ref<ProfileSummary | null>(null)
  const profileError = ref<CallError | null>(null)
  const info = ref<AppInfo | null>(null)
  const infoError = ref<CallError | null>(null)
  const infoLoading = ref(false)

  async function loadProfile(): Promise<void> {
    const result = await window.api.profile.active()
    profile.value = result.ok ? result.value : null
    profileError.value = result.ok ? null : result.error
  }

  async function loadInfo(): Promise<void> {
    infoLoading.value = true
    try {
      const result = await window.api.app.info()
      info.value = result.ok ? result.value : null
      infoError.value = result.ok ? null : result.error
    } finally {
      infoLoading.value = false
    }
  }

  return { profile, profileError, info, infoError, infoLoading, loadProfile, loadInfo }
})

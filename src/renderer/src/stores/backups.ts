// Backups store: the cache's backups as the Backups card lists them, one taken now, and one restored.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { BackupRow, BackupsView } from '../../../shared/ipc/backups'
import type { CallError } from '../../../shared/ipc/result'

export const useBackupsStore = defineStore('backups', () => {
  const view = ref<BackupsView | null>(null)

  /** The list again; the error when it cannot be read. */
  async function load(): Promise<CallError | null> {
    const answer = await window.api.backup.list()
    if (answer.ok) view.value = answer.value
    return answer.ok ? null : answer.error
  }

  async function create(): Promise<CallError | null> {
    const answer = await window.api.backup.create()
    if (answer.ok) view.value = answer.value
    return answer.ok ? null : answer.error
  }

  /** Restores a listed backup (main asks first); null once restored. */
  async function restore(b: BackupRow): Promise<CallError | null> {
    const answer = await window.api.backup.restore({ name: b.name })
    return answer.ok ? null : answer.error
  }

  return { view, load, create, restore }
})

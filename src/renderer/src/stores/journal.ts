// Journal store: a closed session's journal for the ledger as previewed, the profile's account map, and the journal written in a ledger's format.
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { JournalPreview } from '../../../shared/ipc/contract'
import type { CallResult } from '../../../shared/ipc/result'
import type { AccountMap, JournalFormat } from '../../../shared/journal'
import { useCall } from '../calls'
import { useJobsStore } from './jobs'

export const useJournalStore = defineStore('journal', () => {
  const jobs = useJobsStore()
  const preview = ref<JournalPreview | null>(null)
  const previewCall = useCall((sessionId: string) => window.api.journal.preview({ sessionId }))

  /** Reads the session's journal again (after the map changed too); the error stays in `error`. */
  async function load(sessionId: string): Promise<void> {
    preview.value = null
    const answer = await previewCall.run(sessionId)
    if (answer?.ok) preview.value = answer.value
  }
  const saveMap = (map: AccountMap): Promise<CallResult<AccountMap>> => window.api.journal.saveMap(map)
  /** Writes the journal where the user chooses, as a job: the file and its entries, or null when no file was chosen. */
  const write = async (sessionId: string, format: JournalFormat) =>
    jobs.follow(await window.api.journal.export({ sessionId, format }), 'journal-export')

  return { preview, error: previewCall.error, load, saveMap, write }
})

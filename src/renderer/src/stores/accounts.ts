// Accounts store: the profile's virtual accounts as cached, and creating one with the provider (main confirms first in a live profile).
import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { CallArg, VirtualAccountSummary } from '../../../shared/ipc/contract'
import { useCall } from '../calls'
import { profileScoped } from './profile-scope'

export const useAccountsStore = defineStore('accounts', () => {
  const accounts = ref<VirtualAccountSummary[]>([])
  /** The account created last on this screen, shown with its countdown. */
  const created = ref<VirtualAccountSummary | null>(null)
  const listCall = useCall(() => window.api.accounts.list())
  const createCall = useCall((input: CallArg<'accounts:create'>) => window.api.accounts.create(input))

  async function load(): Promise<void> {
    const answer = await listCall.run()
    if (answer?.ok) accounts.value = answer.value
  }

  async function create(input: CallArg<'accounts:create'>): Promise<VirtualAccountSummary | null> {
    const answer = await createCall.run(input)
    if (!answer?.ok) return null
    created.value = answer.value
    await load()
    return answer.value
  }

  profileScoped(() => {
    listCall.reset()
    createCall.reset()
    accounts.value = []
    created.value = null
  })

  return { accounts, created, load, create, loadError: listCall.error, createError: createCall.error, creating: createCall.loading }
})

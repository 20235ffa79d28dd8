// Find store: Ctrl+K's box over everything cached, its matches grouped by table, and which one the arrows are on.
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { FoundGroup, RelatedRecord } from '../../../shared/records'
import { useCall } from '../calls'
import { profileScoped } from './profile-scope'

export const useFindStore = defineStore('find', () => {
  const visible = ref(false)
  const text = ref('')
  const groups = shallowRef<FoundGroup[]>([])
  const active = ref(0)
  /** The text the shown matches are for (they can lag behind what is typed by one answer). */
  const answered = ref('')
  const findCall = useCall((t: string) => window.api.records.find({ text: t }))

  /** Every match in the order shown, for the arrow keys. */
  const flat = computed<RelatedRecord[]>(() => groups.value.flatMap((g) => g.records))

  async function search(value: string): Promise<void> {
    text.value = value
    active.value = 0
    if (value.trim() === '') {
      findCall.reset()
      groups.value = []
      answered.value = ''
      return
    }
    const answer = await findCall.run(value)
    if (!answer?.ok) return
    groups.value = answer.value
    answered.value = value
  }

  function show(): void {
    visible.value = true
  }

  function hide(): void {
    visible.value = false
  }

  function move(by: number): void {
    const n = flat.value.length
    if (n > 0) active.value = (active.value + by + n) % n
  }

  profileScoped(() => {
    findCall.reset()
    groups.value = []
    text.value = ''
    answered.value = ''
  })

  return { visible, text, groups, flat, active, answered, search, show, hide, move, error: findCall.error, loading: findCall.loading }
})

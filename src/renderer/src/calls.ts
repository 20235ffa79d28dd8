// One way for a store to call the host: whether it is loading, the last error, and an answer that arrives after a newer call is dropped.
import { ref, type Ref } from 'vue'
import type { CallError, CallResult } from '../../shared/ipc/result'

export interface Call<A extends unknown[], T> {
  loading: Ref<boolean>
  error: Ref<CallError | null>
  /** The answer, or null when a newer call (or a reset) overtook this one: the caller ignores it. */
  run: (...args: A) => Promise<CallResult<T> | null>
  /** Forgets the error and drops any answer still on its way (a profile change, a closed screen). */
  reset: () => void
}

export function useCall<A extends unknown[], T>(send: (...args: A) => Promise<CallResult<T>>): Call<A, T> {
  const loading = ref(false)
  const error = ref<CallError | null>(null)
  let latest = 0
  async function run(...args: A): Promise<CallResult<T> | null> {
    const mine = ++latest
    loading.value = true
    const answer = await send(...args)
    if (mine !== latest) return null
    loading.value = false
    error.value = answer.ok ? null : answer.error
    return answer
  }
  function reset(): void {
    latest++
    loading.value = false
    error.value = null
  }
  return { loading, error, run, reset }
}

// How a screen tells the user a call failed: its message and code, on screen long enough to read.
import { useToasts } from './toasts'
import type { CallError } from '../../shared/ipc/result'
import { describe } from './errors'

export function useNotify(): { failed(error: CallError | string): void } {
  const message = useToasts()
  return {
    /** A failed call (its message and code) or a failure in words, shown for 8 s. */
    failed(error) {
      message.error(typeof error === 'string' ? error : describe(error), { duration: 8000 })
    }
  }
}

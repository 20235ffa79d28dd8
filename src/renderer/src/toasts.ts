// Toasts (Naive UI's messages) with at most two on screen. Naive's own `max` cannot be used: a toast pushed out while it is
// still fading makes Naive remove the newest toast instead (its list is spliced at index -1), so a success message vanished.
// eslint-disable-next-line no-restricted-imports -- the one place that may use Naive's message API directly
import { useMessage, type MessageApi, type MessageOptions, type MessageReactive } from 'naive-ui'
import { nextTick } from 'vue'

export const MOST_TOASTS = 2

type Show = (content: Parameters<MessageApi['create']>[0], options?: MessageOptions) => MessageReactive

/** One capped API per provider, so every screen's toasts count against the same two. */
const capped = new WeakMap<MessageApi, MessageApi>()

/**
 * The message API, capped: a new toast makes the oldest beyond `most` fade out through Naive's own destroy (which keeps
 * its list right), and a toast stops counting as soon as it starts to leave.
 */
export function capToasts(api: MessageApi, most = MOST_TOASTS): MessageApi {
  const known = capped.get(api)
  if (known) return known
  const onScreen: MessageReactive[] = []
  const counted =
    (show: Show): Show =>
    (content, options = {}) => {
      const toast = show(content, {
        ...options,
        onLeave: () => {
          const at = onScreen.indexOf(toast)
          if (at >= 0) onScreen.splice(at, 1)
          options.onLeave?.()
        }
      })
      onScreen.push(toast)
      // Destroyed once drawn: a toast created in this same tick has nothing on screen to fade yet.
      for (const old of onScreen.splice(0, Math.max(0, onScreen.length - most))) void nextTick(() => old.destroy())
      return toast
    }
  const wrapped: MessageApi = {
    create: counted(api.create),
    info: counted(api.info),
    success: counted(api.success),
    warning: counted(api.warning),
    error: counted(api.error),
    loading: counted(api.loading),
    destroyAll: () => {
      onScreen.length = 0
      api.destroyAll()
    }
  }
  capped.set(api, wrapped)
  return wrapped
}

/** What screens use instead of Naive's useMessage. */
export function useToasts(): MessageApi {
  return capToasts(useMessage())
}

// Toasts (Naive UI's messages): at most two on screen, and each belongs to the screen that raised it, so none is left over a
// screen it says nothing about. Naive's own `max` cannot be used: a toast pushed out while it is still fading makes Naive
// remove the newest toast instead (its list is spliced at index -1), so a success message vanished.
// eslint-disable-next-line no-restricted-imports -- the one place that may use Naive's message API directly
import { useMessage, type MessageApi, type MessageOptions, type MessageReactive } from 'naive-ui'
import { nextTick } from 'vue'
import { useRouter } from 'vue-router'

export const MOST_TOASTS = 2

type Show = (content: Parameters<MessageApi['create']>[0], options?: MessageOptions) => MessageReactive

/** The message API, capped, that also knows which screen each toast belongs to. */
export interface ScreenToasts extends MessageApi {
  /**
   * The user is going to `screen`: toasts raised on other screens go. One raised in the same turn as the navigation (a
   * failed run said just before its review opens) belongs to the screen the navigation opens.
   */
  leaveFor(screen: string): void
}

/** One capped API per provider, so every screen's toasts count against the same two. */
const capped = new WeakMap<MessageApi, ScreenToasts>()

/**
 * The message API, capped: a new toast makes the oldest beyond `most` fade out through Naive's own destroy (which keeps
 * its list right), and a toast stops counting as soon as it starts to leave.
 */
export function capToasts(api: MessageApi, most = MOST_TOASTS, screenNow: () => string = () => ''): ScreenToasts {
  const known = capped.get(api)
  if (known) return known
  const onScreen: MessageReactive[] = []
  /** Each toast's screen, and whether it was raised in the task still running (it then goes with that task's navigation). */
  const screens = new WeakMap<MessageReactive, { screen: string; thisTurn: boolean }>()
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
      const mark = { screen: screenNow(), thisTurn: true }
      screens.set(toast, mark)
      setTimeout(() => (mark.thisTurn = false), 0)
      // Destroyed once drawn: a toast created in this same tick has nothing on screen to fade yet.
      for (const old of onScreen.splice(0, Math.max(0, onScreen.length - most))) void nextTick(() => old.destroy())
      return toast
    }
  const wrapped: ScreenToasts = {
    create: counted(api.create),
    info: counted(api.info),
    success: counted(api.success),
    warning: counted(api.warning),
    error: counted(api.error),
    loading: counted(api.loading),
    destroyAll: () => {
      onScreen.length = 0
      api.destroyAll()
    },
    leaveFor: (screen) => {
      for (const toast of [...onScreen]) {
        const mark = screens.get(toast)
        if (!mark || mark.screen === screen) continue
        if (mark.thisTurn) mark.screen = screen
        else {
          onScreen.splice(onScreen.indexOf(toast), 1)
          toast.destroy()
        }
      }
    }
  }
  capped.set(api, wrapped)
  return wrapped
}

/** What screens use instead of Naive's useMessage: a toast belongs to the screen (the route's path) it was raised on. */
export function useToasts(): ScreenToasts {
  const router = useRouter()
  return capToasts(useMessage(), MOST_TOASTS, () => router.currentRoute.value.path)
}

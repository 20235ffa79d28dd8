// A screen's keyboard shortcuts as one table: the keys it answers and the list its shortcuts dialog shows come from the same rows, so they cannot drift apart.
import { computed, onBeforeUnmount, onMounted, type ComputedRef } from 'vue'
import { keyBelongsToFocus } from './keys'
import { pressMatches } from './presses'

export interface Shortcut {
  /** The keys as the dialog shows them, e.g. "j / ↓"; empty for a row that answers more keys of the row above it. */
  label: string
  /** What they do, in the dialog. */
  does: string
  /**
   * The presses it answers, e.g. "j", "ArrowDown", " ", "?", "Ctrl+z", "Alt+ArrowRight", "Ctrl+Shift+v" (Ctrl is Cmd on a Mac).
   * None: the row only documents keys a component answers itself (the grid's arrows).
   */
  keys?: readonly string[]
  run?: (event: KeyboardEvent) => void
  /** When it applies (default: always); a press it does not apply to goes on to the next row. */
  when?: (event: KeyboardEvent) => boolean
  /** Also while a field, a dropdown or a dialog has the focus (default: no, the key is theirs). */
  inFields?: boolean
}

/**
 * Answers the table's keys on the window while the screen is mounted (and `active` says yes): the first row whose
 * press matches and that applies runs, and the key goes no further. Returns the rows for the shortcuts dialog.
 */
export function useShortcuts(table: () => readonly Shortcut[], options: { active?: () => boolean } = {}): ComputedRef<[string, string][]> {
  function onKeys(event: KeyboardEvent): void {
    if (options.active && !options.active()) return
    const theFocus = keyBelongsToFocus(event)
    for (const row of table()) {
      if (!row.run || !row.keys?.some((press) => pressMatches(press, event))) continue
      if (theFocus && !row.inFields) continue
      if (row.when && !row.when(event)) continue
      row.run(event)
      event.preventDefault()
      return
    }
  }
  onMounted(() => window.addEventListener('keydown', onKeys))
  onBeforeUnmount(() => window.removeEventListener('keydown', onKeys))
  return computed(() => table().flatMap((row): [string, string][] => (row.label === '' ? [] : [[row.label, row.does]])))
}

// A screen's keyboard shortcuts as one table: the keys it answers and the list its shortcuts dialog shows come from the same rows, so they cannot drift apart.
import { computed, onBeforeUnmount, onMounted, type ComputedRef } from 'vue'
import { keyBelongsToFocus } from './keys'

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

interface Press {
  ctrl: boolean
  alt: boolean
  shift: boolean
  key: string
}

function parse(keys: string): Press {
  const parts = keys.split('+')
  // "Ctrl++" would be Ctrl and "+": the key is whatever follows the last modifier.
  const mods = new Set(parts.slice(0, -1))
  return { ctrl: mods.has('Ctrl'), alt: mods.has('Alt'), shift: mods.has('Shift'), key: parts[parts.length - 1] || '+' }
}

/**
 * Whether a key press is this one. With Ctrl or Alt the key is compared without case and Shift must be as written;
 * a plain key is compared as typed ("?" is Shift and "/" on most layouts, "A" is Shift and "a").
 */
export function pressMatches(press: string, event: KeyboardEvent): boolean {
  const p = parse(press)
  if (p.ctrl !== (event.ctrlKey || event.metaKey) || p.alt !== event.altKey) return false
  if (p.ctrl || p.alt) return p.shift === event.shiftKey && p.key.toLowerCase() === event.key.toLowerCase()
  return p.key === event.key
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

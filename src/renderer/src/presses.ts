// Key presses as a shortcut table writes them ("Ctrl+Shift+v", "Alt+ArrowRight", "?"), and whether a key event is one. No DOM here, so plain Node tests read it too.

/** What a press is made of: a KeyboardEvent has all of it. */
export interface KeyPress {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  shiftKey: boolean
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
export function pressMatches(press: string, event: KeyPress): boolean {
  const p = parse(press)
  if (p.ctrl !== (event.ctrlKey || event.metaKey) || p.alt !== event.altKey) return false
  if (p.ctrl || p.alt) return p.shift === event.shiftKey && p.key.toLowerCase() === event.key.toLowerCase()
  return p.key === event.key
}

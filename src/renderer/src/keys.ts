// Screen shortcuts give way to what has the focus: every key typed into a field or a dropdown is the field's, Enter and Space on a button press the button, and an open dialog or drawer keeps its keys.
const FIELD = 'input, textarea, select, [contenteditable="true"], .n-base-selection, [role="combobox"], [role="listbox"]'
const CONTROL = 'button, a[href], [role="button"], [role="menuitem"], [role="tab"]'
const OVERLAY = '.n-modal, .n-drawer, .n-dialog'

export function keyBelongsToFocus(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null
  if (!target || target === document.body) return false
  if (target.closest(FIELD) || target.closest(OVERLAY)) return true
  if (target.closest(CONTROL)) return event.key === 'Enter' || event.key === ' '
  return false
}

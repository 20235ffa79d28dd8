// Where the libraries' markup falls short of WCAG and the fix is the app's to make, as the page changes (dialogs are put in the body, so the whole body is watched):
// - Naive UI's card header says role="heading" twice (the header box and the title in it), neither with the aria-level a heading must have: each card title becomes one heading of level 2;
// - Naive UI's number input has − and + buttons with no name (keyboard users step with the arrow keys; a screen reader still meets them): they are named;
// - Naive UI's select keeps a hidden search input (no label, never tabbed to) for typing to filter: hidden from assistive technology, as the select itself is the control;
// - RevoGrid's column filter buttons have only an icon: each is named;
// - Naive UI's drawer scrolls its body in a box the keyboard cannot reach when the body has nothing to focus (an item's
//   details at 1280×720): the box takes the focus, so the arrow keys scroll it.
export function fixLibraryMarkup(root: HTMLElement): () => void {
  const fix = (): void => {
    for (const box of root.querySelectorAll('.n-card-header[role="heading"]')) box.removeAttribute('role')
    for (const title of root.querySelectorAll('.n-card-header__main[role="heading"]:not([aria-level])'))
      title.setAttribute('aria-level', '2')
    for (const input of root.querySelectorAll('.n-input-number')) {
      const buttons = input.querySelectorAll('button.n-button')
      if (buttons.length === 2) {
        if (!buttons[0]?.hasAttribute('aria-label')) buttons[0]?.setAttribute('aria-label', 'Decrease')
        if (!buttons[1]?.hasAttribute('aria-label')) buttons[1]?.setAttribute('aria-label', 'Increase')
      }
    }
    for (const input of root.querySelectorAll('input.n-base-selection-input[tabindex="-1"]:not([aria-hidden])'))
      input.setAttribute('aria-hidden', 'true')
    for (const button of root.querySelectorAll('button.rv-filter:not([aria-label])'))
      button.setAttribute('aria-label', 'Filter this column')
    for (const body of root.querySelectorAll('.n-drawer-body-content-wrapper:not([tabindex])')) {
      body.setAttribute('tabindex', '0')
      body.setAttribute('role', 'region')
      body.setAttribute('aria-label', body.closest('.n-drawer')?.querySelector('.n-drawer-header__main')?.textContent?.trim() || 'Details')
    }
  }
  fix()
  const observer = new MutationObserver(fix)
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['role', 'aria-label'] })
  return () => observer.disconnect()
}
